/** The chunk scan's first step (scanChunks.ts): the nbytes convention of the file, from chunk 0 (§4.2). */
import { CHUNK_HEADER_BYTES, u32le } from '../rad/decode/chunk'
import { detectConvention } from '../rad/decode/decodeChunk'
import type { NbytesConvention, Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'

/** Chunk 0 is measured to detect the nbytes convention (§4.2) only up to this size. */
const MAX_CONVENTION_PROBE = 64 << 20
export /** §4.2: decide the nbytes convention from chunk 0. */
async function findConvention(source: ByteSource, prelude: Prelude, signal?: AbortSignal): Promise<NbytesConvention> {
  const at = prelude.firstChunkOffset
  if (at + CHUNK_HEADER_BYTES > source.size) return 'header-inclusive'
  const head = await source.read(at, CHUNK_HEADER_BYTES, signal)
  const length = Math.min(u32le(head, 0) + CHUNK_HEADER_BYTES, source.size - at)
  if (length > MAX_CONVENTION_PROBE) return 'header-inclusive'
  return detectConvention(await source.read(at, length, signal), at, prelude)
}
