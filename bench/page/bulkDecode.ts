/**
 * The benchmark's bulk decode: every chunk decoded by the app's decode workers (DecodeApi.decode)
 * through the one pass runner (src/session/lanes.ts), each batch's buffer handed back to be read
 * into again (in Chromium, faulting in fresh memory costs the worker about as much as decoding).
 */
import { transfer } from 'comlink'
import type { WorkerCall } from '../../src/session/rows/decodePool'
import { lanesOf, passBatches, runLanes } from '../../src/session/rows/lanes'
import { chunkSpan } from '../../src/rad/decode/chunk'
import type { ChunkColumns, NbytesConvention } from '../../src/rad/types'
import type { ChunkRequest } from '../../src/workers/protocol'
import { chunkBuffers } from '../../src/workers/transfer'

/** Decodes `reqs` on the workers' lanes; `onChunk` sees each chunk's columns once (valid only during the call). */
export async function bulkDecode(
  calls: readonly WorkerCall[],
  convention: NbytesConvention,
  reqs: readonly ChunkRequest[],
  onChunk: (cols: ChunkColumns) => void,
): Promise<void> {
  const batches = passBatches(reqs, convention)
  let largest = 0
  for (const b of batches) largest = Math.max(largest, batchBytes(b, convention))
  const spares = new Spares(largest, calls.length * 2)
  const lanes = lanesOf(calls, (api, batch) => {
    const spare = spares.take()
    return spare ? api.decode(batch, convention, transfer(spare, [spare])) : api.decode(batch, convention)
  })
  await runLanes(
    lanes,
    batches,
    (decoded) => {
      for (const c of decoded.columns) onChunk(c)
      spares.giveBack(decoded.columns)
    },
    { what: 'the bulk decode' },
  )
}

/** The buffers batches are read into: one a consumed batch left, or one made here, up to one per lane. */
class Spares {
  private readonly free: ArrayBuffer[] = []
  private made = 0
  private readonly size: number
  private readonly most: number

  constructor(size: number, most: number) {
    this.size = size
    this.most = most
  }

  take(): ArrayBuffer | undefined {
    const spare = this.free.pop()
    if (spare || this.made >= this.most) return spare
    this.made++
    return new ArrayBuffer(this.size)
  }

  giveBack(cols: readonly ChunkColumns[]): void {
    for (const b of chunkBuffers(cols)) if (b.byteLength >= this.size && this.free.length < this.most) this.free.push(b)
  }
}

function batchBytes(batch: readonly ChunkRequest[], convention: NbytesConvention): number {
  const first = batch[0]
  const last = batch[batch.length - 1]
  return first && last ? last.offset + chunkSpan(last.nbytes, convention) - first.offset : 0
}
