import { CHUNK_HEADER_BYTES, LITTLE_ENDIAN_HOST, u32le } from '../decode/chunk'
import type { ChunkIndexBuilder } from '../chunkIndex'
import { MAX_CHUNK_BYTES, chunkRecordCount } from '../decode/chunkHeader'
import type { ChunkBounds } from '../decode/chunkHeader'
import { scanWords } from './checkWords'
import type { CheckPlan } from './checkPlan'
import type { Prelude } from '../types'

/** What a clean run did: chunks indexed, the offset after the last, alignments counted (0 without a plan). */
export interface CleanRun {
  chunks: number
  end: number
  alignments: number
}

/** Chunks and bytes one run covers at most, so its caller can yield, report and be cancelled between runs. */
const CLEAN_RUN_MAX = 4096
const CLEAN_RUN_BYTES = 1 << 20

/** Clean runs need plain records (§6) read as little-endian words, and a plan that scans words. */
export function canScanCleanRuns(prelude: Prelude, plan: CheckPlan | undefined): boolean {
  return prelude.codec === 'none' && LITTLE_ENDIAN_HOST && (!plan || plan.words !== undefined)
}

/**
 * The index's hot path (a collated file has a million chunks of ~60 bytes;
 * docs/adr/0002). `words` are the little-endian u32 words of the file from
 * byte `start` (a block in hand). From the chunk at `pos`, indexes the chunks
 * that lie whole and 4-byte aligned in the block,
 * pass the header checks of checkChunkHeader (§4.1) and, with a plan, the
 * word scan of valueChecks — at most `maxChunks`, allocating nothing per
 * chunk. Stops before the first chunk that is not so (straddling the block,
 * suspect or damaged) and leaves it to the careful path, which reads it again
 * and explains. Only where canScanCleanRuns.
 */
export function scanCleanRun(
  words: Uint32Array,
  start: number,
  pos: number,
  maxChunks: number,
  bounds: ChunkBounds,
  plan: CheckPlan | undefined,
  index: ChunkIndexBuilder,
): CleanRun {
  const { fileSize, headerExtra, minRecordBytes } = bounds
  const length = words.length * 4
  const stop = pos + CLEAN_RUN_BYTES
  const most = Math.min(maxChunks, CLEAN_RUN_MAX)
  let alignments = 0
  let n = 0
  for (; n < most && pos < stop; n++) {
    const rel = pos - start
    if ((rel & 3) !== 0 || rel + CHUNK_HEADER_BYTES > length) break
    const w = rel >>> 2
    const nbytes = words[w]!
    const nrec = words[w + 1]!
    const span = nbytes + headerExtra
    if (span < CHUNK_HEADER_BYTES || span > MAX_CHUNK_BYTES || (span & 3) !== 0) break
    if (rel + span > length || pos + span > fileSize || nrec * minRecordBytes > span - CHUNK_HEADER_BYTES) break
    if (plan) {
      const found = scanWords(words, w + 2, w + span / 4, nrec, plan)
      if (found < 0) break
      alignments += found
    }
    index.push(pos, nbytes, nrec)
    pos += span
  }
  return { chunks: n, end: pos, alignments }
}

/** Header runs index compressed chunks (§6: the header is never compressed) when no record is checked. */
export function canScanHeaderRuns(prelude: Prelude, plan: CheckPlan | undefined): boolean {
  return prelude.codec !== 'none' && !plan
}

/**
 * The index's hot path for compressed chunks (docs/adr/0003): from the
 * chunk at `pos`, indexes the chunks that lie whole in `bytes` (the file
 * from byte `start`) and pass the header checks of checkChunkHeader (§4.1),
 * reading headers only — compressed chunks have any length, so this reads
 * bytes, not aligned words. At most `maxChunks`; stops before the first chunk
 * that is not so and leaves it to the careful path, which explains.
 */
export function scanHeaderRun(
  bytes: Uint8Array,
  start: number,
  pos: number,
  maxChunks: number,
  bounds: ChunkBounds,
  index: ChunkIndexBuilder,
): CleanRun {
  const { fileSize, headerExtra, minRecordBytes } = bounds
  const stop = pos + CLEAN_RUN_BYTES
  const most = Math.min(maxChunks, CLEAN_RUN_MAX)
  let n = 0
  for (; n < most && pos < stop; n++) {
    const rel = pos - start
    if (rel + CHUNK_HEADER_BYTES > bytes.length) break
    const nbytes = u32le(bytes, rel)
    const nrec = chunkRecordCount(bytes, rel)
    const span = nbytes + headerExtra
    if (span < CHUNK_HEADER_BYTES || span > MAX_CHUNK_BYTES || rel + span > bytes.length) break
    if (pos + span > fileSize || nrec * minRecordBytes > span - CHUNK_HEADER_BYTES) break
    index.push(pos, nbytes, nrec)
    pos += span
  }
  return { chunks: n, end: pos, alignments: 0 }
}
