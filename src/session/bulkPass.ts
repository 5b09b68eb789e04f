import { chunkSpan } from '../rad/chunk'
import { RadError } from '../rad/errors'
import type { ChunkColumns, NbytesConvention } from '../rad/types'
import type { ChunkRequest } from '../workers/protocol'
import { chunkBuffers } from '../workers/transfer'
import { BULK_BATCH_BYTES } from '../workers/protocol'

export interface BulkOptions {
  /** Told of each chunk that could not be decoded; the pass goes on. Without it, the pass rejects. */
  onChunkError?: (req: ChunkRequest, error: Error) => void
  /** Stops issuing batches; the pass then rejects with CANCELLED. */
  signal?: AbortSignal
}

/**
 * One lane of the pass: decodes a run of back-to-back chunks (reading them
 * into `spare` when given), and returns the first ones up to a bad chunk
 * (decodeBatch); a bad first chunk rejects with its RadError.
 */
export type BulkLane = (batch: ChunkRequest[], spare: ArrayBuffer | undefined) => Promise<ChunkColumns[]>

/**
 * A pass over many chunks (DecodePool.bulk): back-to-back chunks in
 * ~BULK_BATCH_BYTES batches, one call in flight per lane. Each chunk reaches
 * `onChunk` once, in no set order, and its columns are valid only during
 * that call: their buffer then goes back to a lane to be read into again (in
 * Chromium, faulting in fresh memory costs the worker about as much as
 * decoding), so copy what must outlive it. At most one buffer per lane
 * exists at once. Resolves when every chunk was seen or reported to
 * `onChunkError`; rejects when a lane fails otherwise.
 */
export async function bulkPass(
  lanes: readonly BulkLane[],
  reqs: readonly ChunkRequest[],
  convention: NbytesConvention,
  onChunk: (cols: ChunkColumns) => void,
  opts: BulkOptions = {},
): Promise<void> {
  const batches = bulkBatches(reqs, convention)
  let largest = 0
  for (const b of batches) largest = Math.max(largest, batchBytes(b, convention))
  const spares = new Spares(largest, lanes.length)
  let next = 0
  let failed = false
  const run = async (lane: BulkLane): Promise<void> => {
    for (;;) {
      if (failed) return
      if (opts.signal?.aborted) throw new RadError('CANCELLED', 'the bulk pass was cancelled')
      const batch = batches[next++]
      if (!batch) return
      let rest = batch
      while (rest.length > 0) {
        let cols: ChunkColumns[]
        try {
          cols = await lane(rest, spares.take())
        } catch (e) {
          rest = skipBadChunk(rest, e, opts)
          continue
        }
        if (failed) return
        if (cols.length === 0) throw new Error('internal: a decode call returned nothing')
        for (const c of cols) onChunk(c)
        spares.giveBack(cols)
        rest = rest.slice(cols.length)
      }
    }
  }
  await Promise.all(
    lanes.map((lane) =>
      run(lane).catch((e: unknown) => {
        failed = true
        throw e
      }),
    ),
  )
}

/**
 * The buffers batches are read into: one a consumed batch left, or one made
 * here (faulted in once, by the worker), up to one per lane. Layouts decoded
 * by copying give none back; then the worker reads into fresh memory.
 */
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

  /** Keeps the buffers of consumed columns that are large enough to hold any batch. */
  giveBack(cols: readonly ChunkColumns[]): void {
    for (const b of chunkBuffers(cols)) if (b.byteLength >= this.size && this.free.length < this.most) this.free.push(b)
  }
}

/** A bad first chunk is reported and the batch goes on after it; anything else ends the pass. */
function skipBadChunk(rest: ChunkRequest[], e: unknown, opts: BulkOptions): ChunkRequest[] {
  const error = e instanceof Error ? e : new Error(String(e))
  const first = rest[0]
  const chunkFault = error instanceof RadError && error.code !== 'WORKER_FAILED' && error.code !== 'CANCELLED'
  if (!chunkFault || !opts.onChunkError || !first) throw error
  opts.onChunkError(first, error)
  return rest.slice(1)
}

function batchBytes(batch: readonly ChunkRequest[], convention: NbytesConvention): number {
  const first = batch[0]
  const last = batch[batch.length - 1]
  return first && last ? last.offset + chunkSpan(last.nbytes, convention) - first.offset : 0
}

/** Runs of back-to-back chunks of at most BULK_BATCH_BYTES (a larger chunk alone). */
export function bulkBatches(reqs: readonly ChunkRequest[], convention: NbytesConvention): ChunkRequest[][] {
  const out: ChunkRequest[][] = []
  let batch: ChunkRequest[] = []
  let end = -1
  let start = 0
  for (const req of reqs) {
    const span = chunkSpan(req.nbytes, convention)
    if (batch.length > 0 && (req.offset !== end || req.offset + span - start > BULK_BATCH_BYTES)) {
      out.push(batch)
      batch = []
    }
    if (batch.length === 0) start = req.offset
    batch.push(req)
    end = req.offset + span
  }
  if (batch.length > 0) out.push(batch)
  return out
}
