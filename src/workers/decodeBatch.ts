/**
 * The table's decode (DecodeApi.decode): a walk of the batch (walkBatch.ts) keeping every
 * chunk's columns. When the read buffer is ours, chunks are decoded in place: the columns are
 * views on that one buffer, which is what the caller transfers (and may hand back as `spare`).
 */
import type { ChunkColumns, NbytesConvention } from '../rad/types'
import type { ChunkRequest, DecodedBatch } from './protocol'
import { walkBatch } from './walkBatch'
import type { Decoder } from './walkBatch'

/** `timing`, when given, adds the time spent decoding (the benchmark's split of reads and decoding). */
export async function decodeBatch(
  decoder: Decoder,
  batch: readonly ChunkRequest[],
  convention: NbytesConvention,
  spare?: ArrayBuffer,
  timing?: { decodeMs: number },
): Promise<DecodedBatch> {
  const columns: ChunkColumns[] = []
  const { bad } = await walkBatch(decoder, batch, convention, spare, (chunk) => {
    const t0 = timing ? performance.now() : 0
    columns.push(chunk.decode())
    if (timing) timing.decodeMs += performance.now() - t0
  })
  return { columns, bad }
}
