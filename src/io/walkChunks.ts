import { CHUNK_HEADER_BYTES, chunkSpan, recordLayout } from '../rad/chunk'
import type { RecordLayout } from '../rad/chunk'
import { ChunkIndexBuilder } from '../rad/chunkIndex'
import type { ChunkIndex } from '../rad/chunkIndex'
import { detectConvention } from '../rad/decodeChunk'
import { RadError, fmtInt } from '../rad/errors'
import type { RadErrorData } from '../rad/errors'
import { RAD_MAGIC } from '../rad/prelude'
import type { NbytesConvention, Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'

/** Largest chunk we accept; salmon's are ~100 KB, collated ones a few MB. */
export const MAX_CHUNK_BYTES = 1 << 30
/** Block size for walking small chunks in memory (issue 4: ≥16 MiB reads stream well). */
export const DEFAULT_BLOCK = 16 << 20
/** First read is small so chunk 0 is known quickly. */
const FIRST_BLOCK = 1 << 20
/** Above this average chunk size, hop from header to header instead of streaming. */
const HOP_THRESHOLD = 1 << 20
const HOP_BLOCK = 64 << 10

export interface ScanProgress {
  bytesScanned: number
  bytesTotal: number
  chunks: number
  records: number
  elapsedMs: number
}

export type ChunkVerdict = boolean | undefined

export interface WalkOptions {
  signal?: AbortSignal
  /**
   * Every chunk's on-disk bytes (header included). Throwing a RadError stops
   * the walk with that error; returning (or resolving to) true stops it quietly.
   */
  onChunk?: (bytes: Uint8Array, offset: number, chunk: number) => ChunkVerdict | Promise<ChunkVerdict>
  /**
   * New index entries since the last call (fresh buffers, safe to transfer).
   * When `onChunk` is also given, a first call with no entries comes before
   * any chunk, so the convention is known when chunk 0 is handed over.
   */
  onIndex?: (added: ChunkIndex, convention: NbytesConvention) => void
  onProgress?: (p: ScanProgress) => void
  progressIntervalMs?: number
  blockSize?: number
}

export interface ScanResult {
  index: ChunkIndex
  records: number
  convention: NbytesConvention
  /** Where the walk stopped (end of the last good chunk). */
  endOffset: number
  /** The first problem found; everything before it is in `index`. */
  error: RadErrorData | undefined
  warnings: string[]
}

function conventionWarning(convention: NbytesConvention): string[] {
  if (convention === 'header-inclusive') return []
  return [
    'chunk nbytes excludes the 8-byte chunk header (payload-only, as an older C++ writer did, RAD-FORMAT.md §4.2); every real producer includes it — read this file accordingly',
  ]
}

/** §4.2: decide the nbytes convention from chunk 0. */
async function findConvention(source: ByteSource, prelude: Prelude, signal?: AbortSignal): Promise<NbytesConvention> {
  const at = prelude.firstChunkOffset
  if (at + CHUNK_HEADER_BYTES > source.size) return 'header-inclusive'
  const head = await source.read(at, CHUNK_HEADER_BYTES, signal)
  const nbytes = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0, true)
  const length = Math.min(nbytes + CHUNK_HEADER_BYTES, source.size - at)
  if (length > MAX_CHUNK_BYTES) return 'header-inclusive'
  return detectConvention(await source.read(at, length, signal), at, prelude)
}

/** Sanity checks on one chunk header before trusting it (§4.1). */
function checkHeader(
  k: number,
  pos: number,
  nbytes: number,
  nrec: number,
  span: number,
  size: number,
  prelude: Prelude,
  layout: RecordLayout,
): void {
  const where = (): string => `chunk ${fmtInt(k)} at byte ${fmtInt(pos)}`
  if (span < CHUNK_HEADER_BYTES) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${where()}: nbytes is ${fmtInt(nbytes)}, but a chunk is at least its 8-byte header`,
      pos,
      k,
    )
  }
  if (span > MAX_CHUNK_BYTES) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${where()}: nbytes is ${fmtInt(nbytes)}, an absurd size for one chunk (limit ${fmtInt(MAX_CHUNK_BYTES)})`,
      pos,
      k,
    )
  }
  if (pos + span > size) {
    throw new RadError(
      'TRUNCATED',
      `file ends inside ${where()}: it declares nbytes ${fmtInt(nbytes)} (${fmtInt(nrec)} records) but only ${fmtInt(size - pos)} bytes remain`,
      pos,
      k,
    )
  }
  if (prelude.codec === 'none' && nrec * layout.minRecordBytes > span - CHUNK_HEADER_BYTES) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${where()}: nrec is ${fmtInt(nrec)}, but its ${fmtInt(span - CHUNK_HEADER_BYTES)} record bytes can hold at most ${fmtInt(Math.floor((span - CHUNK_HEADER_BYTES) / layout.minRecordBytes))} records`,
      pos,
      k,
    )
  }
}

function startsWithMagic(bytes: Uint8Array): boolean {
  return RAD_MAGIC.every((b, i) => bytes[i] === b)
}

async function trailingWarning(source: ByteSource, pos: number, chunks: number, signal?: AbortSignal): Promise<string> {
  const head = await source.read(pos, 8, signal)
  const extra = source.size - pos
  if (startsWithMagic(head)) {
    return `a second RAD file starts at byte ${fmtInt(pos)} after the ${fmtInt(chunks)} declared chunks: files were concatenated; only the first is shown`
  }
  return `${fmtInt(extra)} trailing bytes after the ${fmtInt(chunks)} chunks that num_chunks declares (from byte ${fmtInt(pos)}); they are ignored`
}

/**
 * Walks the chunk headers from the end of the prelude (§4), building the
 * chunk index with large block reads, or hopping header to header when
 * chunks are large. Stops at the first problem and reports it with everything
 * valid before it.
 */
export async function walkChunks(source: ByteSource, prelude: Prelude, opts: WalkOptions = {}): Promise<ScanResult> {
  const { signal, onChunk, onIndex, onProgress } = opts
  const started = Date.now()
  const convention = await findConvention(source, prelude, signal)
  const warnings = conventionWarning(convention)
  const layout = recordLayout(prelude)
  const builder = new ChunkIndexBuilder()
  const size = source.size
  const blockSize = opts.blockSize ?? DEFAULT_BLOCK
  const interval = opts.progressIntervalMs ?? 100
  let pos = prelude.firstChunkOffset
  let buf: Uint8Array = new Uint8Array(0)
  let bufStart = pos
  let view = new DataView(buf.buffer)
  let reported = 0
  let lastProgress = 0
  let error: RadErrorData | undefined
  let stopped = false

  const load = async (at: number, length: number): Promise<void> => {
    buf = await source.read(at, length, signal)
    throwIfAborted(signal)
    bufStart = at
    view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
  }
  const flush = (force: boolean): void => {
    const now = Date.now()
    if (onIndex && builder.count > reported && (force || reported === 0 || now - lastProgress >= interval)) {
      onIndex(builder.snapshot(reported), convention)
      reported = builder.count
    }
    if (onProgress && (force || now - lastProgress >= interval)) {
      onProgress({
        bytesScanned: pos,
        bytesTotal: size,
        chunks: builder.count,
        records: builder.records,
        elapsedMs: now - started,
      })
    }
    if (now - lastProgress >= interval) lastProgress = now
  }

  // onChunk callers learn the convention through onIndex, which otherwise first
  // fires after chunk 0 has been handed over: tell them before any chunk.
  if (onChunk && onIndex) onIndex(builder.snapshot(), convention)
  try {
    for (let k = 0; prelude.numChunks === 0 || k < prelude.numChunks; k++) {
      if (pos === size && prelude.numChunks === 0) break
      if (pos === size) {
        throw new RadError(
          'TRUNCATED',
          `file ends after ${fmtInt(k)} of the ${fmtInt(prelude.numChunks)} chunks that num_chunks declares (at byte ${fmtInt(pos)})`,
          pos,
          k,
        )
      }
      if (pos + CHUNK_HEADER_BYTES > bufStart + buf.length) {
        if (pos + CHUNK_HEADER_BYTES > size) {
          throw new RadError(
            'TRUNCATED',
            `file ends inside the header of chunk ${fmtInt(k)} at byte ${fmtInt(pos)} (${fmtInt(size - pos)} of 8 bytes present)`,
            pos,
            k,
          )
        }
        const hop = !onChunk && builder.count > 0 && (pos - prelude.firstChunkOffset) / builder.count > HOP_THRESHOLD
        await load(pos, hop ? HOP_BLOCK : builder.count === 0 ? FIRST_BLOCK : blockSize)
      }
      const nbytes = view.getUint32(pos - bufStart, true)
      const nrec = view.getUint32(pos - bufStart + 4, true)
      const span = chunkSpan(nbytes, convention)
      checkHeader(k, pos, nbytes, nrec, span, size, prelude, layout)
      let stop: ChunkVerdict = false
      if (onChunk) {
        if (pos + span > bufStart + buf.length) await load(pos, Math.max(blockSize, span))
        const verdict = onChunk(buf.subarray(pos - bufStart, pos - bufStart + span), pos, k)
        stop = verdict instanceof Promise ? await verdict : verdict
      }
      builder.push(pos, nbytes, nrec)
      pos += span
      if (k === 0 || (k & 63) === 0) flush(k === 0)
      if (stop === true) {
        stopped = true
        break
      }
    }
    if (!stopped && prelude.numChunks > 0 && pos < size) {
      warnings.push(await trailingWarning(source, pos, builder.count, signal))
    }
  } catch (e) {
    if (!(e instanceof RadError)) throw e
    error = e.inChunk(e.chunk ?? builder.count).toData()
  }
  flush(true)
  return { index: builder.snapshot(), records: builder.records, convention, endOffset: pos, error, warnings }
}
