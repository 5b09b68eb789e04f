import type { ChunkIndex } from '../rad/chunkIndex'
import { columnBuffers } from '../rad/decode/columns'
import type { ChunkColumns } from '../rad/types'

/** The four buffers of an index slice (fresh, owned by the caller). */
export function columnBuffersOfIndex(index: ChunkIndex): ArrayBuffer[] {
  return dedupe([index.offset.buffer, index.nbytes.buffer, index.nrec.buffer, index.firstRecord.buffer])
}

/** Every buffer decoded chunks own, de-duplicated, for a transfer list. */
export function chunkBuffers(chunks: readonly ChunkColumns[]): ArrayBuffer[] {
  const out: ArrayBufferLike[] = []
  for (const c of chunks) out.push(c.alnStart.buffer, ...columnBuffers(c.readColumns), ...columnBuffers(c.alnColumns))
  return dedupe(out)
}

function dedupe(buffers: ArrayBufferLike[]): ArrayBuffer[] {
  const seen = new Set<ArrayBuffer>()
  for (const b of buffers) if (b instanceof ArrayBuffer && b.byteLength > 0) seen.add(b)
  return [...seen]
}
