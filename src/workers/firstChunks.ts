import type { ByteSource } from '../io/byteSource'
import { throwIfAborted } from '../io/byteSource'
import { CHUNK_HEADER_BYTES, chunkSpan, recordLayout } from '../rad/decode/chunk'
import { ChunkIndexBuilder } from '../rad/chunkIndex'
import { chunkRecordCount } from '../rad/decode/chunkHeader'
import type { ChunkIndex } from '../rad/chunkIndex'
import { decodeChunk, detectConvention } from '../rad/decode/decodeChunk'
import { RadError } from '../rad/errors'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'

/** One read of this size after the prelude covers chunk 0 of a salmon file (~100 KB) many times over. */
const FIRST_READ = 1 << 20
/** Enough records for a first screen, even when chunks are tiny (collated files: one per cell). */
const FIRST_RECORDS = 256
/** A chunk 0 larger than this is left to the walk and the decode pool. */
const MAX_FIRST_CHUNK = 64 << 20

export interface FirstChunks {
  index: ChunkIndex
  columns: ChunkColumns[]
  convention: NbytesConvention
}

function u32(bytes: Uint8Array, at: number): number {
  return new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, true)
}

/**
 * The first screen of records, straight after the prelude: one read at the
 * first chunk, the nbytes convention decided on chunk 0 (docs/format.md §4.2),
 * then chunks decoded until a screenful of records or the end of the read.
 * The chunk walk starts with large blocks several reads deep, which is right
 * for throughput but would keep these records off the screen until its first
 * blocks land; this costs one small extra read. Any problem is left for the
 * walk to find and report: only chunks that decode cleanly are returned.
 */
export async function readFirstChunks(
  source: ByteSource,
  prelude: Prelude,
  signal?: AbortSignal,
): Promise<FirstChunks | undefined> {
  const at = prelude.firstChunkOffset
  if (at + CHUNK_HEADER_BYTES > source.size) return undefined
  let bytes = await source.read(at, FIRST_READ, signal)
  const need = Math.min(u32(bytes, 0) + CHUNK_HEADER_BYTES, source.size - at)
  if (need > MAX_FIRST_CHUNK) return undefined
  if (need > bytes.length) bytes = await source.read(at, need, signal)
  throwIfAborted(signal)
  const convention = detectConvention(bytes, at, prelude)
  const layout = recordLayout(prelude)
  const builder = new ChunkIndexBuilder()
  const columns: ChunkColumns[] = []
  let pos = 0
  try {
    while (
      pos + CHUNK_HEADER_BYTES <= bytes.length &&
      builder.records < FIRST_RECORDS &&
      (prelude.numChunks === 0 || builder.count < prelude.numChunks)
    ) {
      const nbytes = u32(bytes, pos)
      const span = chunkSpan(nbytes, convention)
      if (span < CHUNK_HEADER_BYTES || pos + span > bytes.length) break
      const k = builder.count
      columns.push(decodeChunk(bytes.subarray(pos, pos + span), at + pos, k, prelude, convention, layout))
      builder.push(at + pos, nbytes, chunkRecordCount(bytes, pos))
      pos += span
    }
  } catch (e) {
    if (!(e instanceof RadError)) throw e
  }
  return builder.count > 0 ? { index: builder.snapshot(), columns, convention } : undefined
}

/** Entries `from..` of an index slice, in fresh buffers. */
export function dropFirst(index: ChunkIndex, from: number): ChunkIndex {
  return {
    count: index.count - from,
    offset: index.offset.slice(from),
    nbytes: index.nbytes.slice(from),
    nrec: index.nrec.slice(from),
    firstRecord: index.firstRecord.slice(from),
  }
}
