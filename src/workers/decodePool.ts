import { transfer, wrap } from 'comlink'
import type { Remote } from 'comlink'
import './comlinkErrors'
import { chunkSpan } from '../rad/chunk'
import { RadError, fmtInt } from '../rad/errors'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'
import type { ChunkRequest, DecodeApi, OpenedFile } from './protocol'
import { chunkBuffers } from './transfer'

/** clamp(hardwareConcurrency − 1, 1, 4): one core stays with the page and the index worker. */
export function poolSize(hardwareConcurrency: number | undefined): number {
  return Math.min(4, Math.max(1, (hardwareConcurrency ?? 2) - 1))
}

/** One Blob read and one call for a run of small chunks, up to this many bytes… */
const BATCH_BYTES = 4 << 20
/** …and this many chunks (collated files have ~1 chunk per cell). */
const BATCH_CHUNKS = 64

/**
 * A bulk pass (DecodePool.bulk) reads this much per call: a Blob read costs
 * the worker's thread ~0.8 ms before its first byte, and the browser's own
 * read work per byte falls with size (one worker: 4 MiB reads 0.63 GB/s,
 * 16 MiB 1.07, 64 MiB 1.2)…
 */
export const BULK_BATCH_BYTES = 32 << 20
/** …with this many calls in flight per worker (the next batch's read overlaps this one's decoding). */
export const BULK_DEPTH = 2

export interface BulkOptions {
  /** Told of each chunk that could not be decoded; the pass goes on. Without it, the pass rejects. */
  onChunkError?: (req: ChunkRequest, error: Error) => void
  /** Stops issuing batches; the pass then rejects with CANCELLED. */
  signal?: AbortSignal
}

export interface PoolOptions {
  size: number
  createWorker: () => Worker
  /** Told when a worker died and was replaced (plain words for the user). */
  onWorkerFailed: (message: string) => void
  /** A call without an answer for this long means the worker is gone. */
  callTimeoutMs?: number
}

interface Pending {
  req: ChunkRequest
  priority: number
  seq: number
  resolve: (cols: ChunkColumns) => void
  reject: (e: Error) => void
}

interface Slot {
  worker: Worker
  api: Remote<DecodeApi>
  batch: Pending[] | undefined
  timer: ReturnType<typeof setTimeout> | undefined
  dead: boolean
  /** Rejecters of this worker's bulk calls in flight (a dead worker never answers them). */
  bulk: Set<(e: Error) => void>
}

/**
 * N decode workers behind one priority queue (lower number = sooner; the UI
 * gives what is on screen the lowest). Each worker gets the File and the
 * prelude once; requests for back-to-back chunks are batched into one call.
 * A worker that errors or stops answering is terminated and replaced, its
 * requests fail with WORKER_FAILED, and the failure is reported.
 */
export class DecodePool {
  private readonly file: Blob
  private readonly opts: PoolOptions
  private slots: Slot[] = []
  private readonly queue = new Map<number, Pending>()
  private opened: { prelude: Prelude; container: OpenedFile['container'] } | undefined
  private convention: NbytesConvention | undefined
  private seq = 0
  private disposed = false
  private started = false

  constructor(file: Blob, opts: PoolOptions) {
    this.file = file
    this.opts = opts
  }

  /**
   * Workers start with the first request, not with the file: the first screen
   * of records comes from the index worker, and starting threads while it
   * works only competes with it for the CPU.
   */
  private ensureWorkers(): void {
    if (this.started || this.disposed) return
    this.started = true
    for (let i = 0; i < this.opts.size; i++) this.slots.push(this.spawn())
  }

  private spawn(): Slot {
    const worker = this.opts.createWorker()
    const slot: Slot = {
      worker,
      api: wrap<DecodeApi>(worker),
      batch: undefined,
      timer: undefined,
      dead: false,
      bulk: new Set(),
    }
    worker.addEventListener('error', (ev) => {
      ev.preventDefault()
      this.fail(slot, ev.message || 'the worker crashed')
    })
    worker.addEventListener('messageerror', () => {
      this.fail(slot, 'a message could not be read')
    })
    if (this.opened) this.openSlot(slot)
    return slot
  }

  private openSlot(slot: Slot): void {
    const o = this.opened
    if (!o) return
    slot.api.open(this.file, o.prelude, o.container).catch(() => {
      // The same error reaches every decode call made on this worker.
    })
  }

  open(prelude: Prelude, container: OpenedFile['container']): void {
    this.opened = { prelude, container }
    for (const slot of this.slots) this.openSlot(slot)
    this.dispatch()
  }

  setConvention(convention: NbytesConvention): void {
    if (this.convention === convention) return
    this.convention = convention
    this.dispatch()
  }

  /** Decodes a chunk; asking again for a queued chunk only updates its priority. */
  request(req: ChunkRequest, priority: number): Promise<ChunkColumns> {
    if (this.disposed) return Promise.reject(new RadError('CANCELLED', 'the file was closed'))
    this.ensureWorkers()
    return new Promise<ChunkColumns>((resolve, reject) => {
      this.queue.set(req.chunk, { req, priority, seq: this.seq++, resolve, reject })
      this.dispatch()
    })
  }

  /** Moves a queued chunk up or down; false if it is not queued (decoding or done). */
  reprioritize(chunk: number, priority: number): boolean {
    const p = this.queue.get(chunk)
    if (!p) return false
    p.priority = priority
    p.seq = this.seq++
    return true
  }

  /** Drops queued requests the UI no longer needs (they reject with CANCELLED). */
  drop(keep: (chunk: number) => boolean): void {
    for (const [chunk, p] of this.queue) {
      if (!keep(chunk)) {
        this.queue.delete(chunk)
        p.reject(new RadError('CANCELLED', `chunk ${fmtInt(chunk)} is no longer needed`, undefined, chunk))
      }
    }
  }

  get queued(): number {
    return this.queue.size
  }

  private next(): Pending | undefined {
    let best: Pending | undefined
    for (const p of this.queue.values()) {
      if (!best || p.priority < best.priority || (p.priority === best.priority && p.seq > best.seq)) best = p
    }
    return best
  }

  private takeBatch(convention: NbytesConvention): Pending[] | undefined {
    const head = this.next()
    if (!head) return undefined
    const batch = [head]
    this.queue.delete(head.req.chunk)
    let bytes = chunkSpan(head.req.nbytes, convention)
    for (let k = head.req.chunk + 1; batch.length < BATCH_CHUNKS; k++) {
      const p = this.queue.get(k)
      if (!p) break
      bytes += chunkSpan(p.req.nbytes, convention)
      if (bytes > BATCH_BYTES) break
      this.queue.delete(k)
      batch.push(p)
    }
    return batch
  }

  private dispatch(): void {
    const convention = this.convention
    if (this.disposed || !this.opened || convention === undefined) return
    for (const slot of this.slots) {
      if (slot.batch || slot.dead) continue
      const batch = this.takeBatch(convention)
      if (!batch) return
      this.run(slot, batch, convention)
    }
  }

  private run(slot: Slot, batch: Pending[], convention: NbytesConvention): void {
    slot.batch = batch
    slot.timer = setTimeout(() => {
      this.fail(slot, `no answer after ${String((this.opts.callTimeoutMs ?? 60_000) / 1000)} s`)
    }, this.opts.callTimeoutMs ?? 60_000)
    const settle = (): void => {
      clearTimeout(slot.timer)
      slot.batch = undefined
    }
    slot.api
      .decode(
        batch.map((p) => p.req),
        convention,
      )
      .then(
        (results) => {
          if (slot.dead) return
          settle()
          results.forEach((cols, i) => batch[i]?.resolve(cols))
          const rest = batch.slice(results.length)
          if (results.length === 0) rest.shift()?.reject(new Error('internal: a decode call returned nothing'))
          this.requeue(rest)
          this.dispatch()
        },
        (e: unknown) => {
          if (slot.dead) return
          settle()
          batch[0]?.reject(e instanceof Error ? e : new Error(String(e)))
          this.requeue(batch.slice(1))
          this.dispatch()
        },
      )
  }

  private requeue(rest: Pending[]): void {
    for (const p of rest) if (!this.queue.has(p.req.chunk)) this.queue.set(p.req.chunk, p)
  }

  private fail(slot: Slot, why: string): void {
    if (slot.dead || this.disposed) return
    slot.dead = true
    clearTimeout(slot.timer)
    slot.worker.terminate()
    const stopped = new RadError('WORKER_FAILED', `a decode worker stopped (${why}) during a bulk pass`)
    for (const reject of slot.bulk) reject(stopped)
    const batch = slot.batch ?? []
    for (const p of batch) {
      p.reject(
        new RadError(
          'WORKER_FAILED',
          `a decode worker stopped (${why}) while decoding chunk ${fmtInt(p.req.chunk)} at byte ${fmtInt(p.req.offset)}`,
          p.req.offset,
          p.req.chunk,
        ),
      )
    }
    this.slots = this.slots.filter((s) => s !== slot)
    this.slots.push(this.spawn())
    const first = batch[0]
    this.opts.onWorkerFailed(
      `A decode worker stopped (${why})${first ? ` while decoding chunk ${fmtInt(first.req.chunk)}` : ''}; it was replaced.`,
    )
    this.dispatch()
  }

  /**
   * A pass over many chunks (a whole file's statistics, the benchmark's full
   * decode): back-to-back chunks in ~BULK_BATCH_BYTES calls, BULK_DEPTH calls
   * in flight per worker, beside (not through) the on-screen queue. Each
   * chunk reaches `onChunk` once, in no set order, and its columns are valid
   * only during that call: their buffer then goes back to a worker to be read
   * into again (in Chromium, faulting in fresh memory costs the worker about
   * as much as decoding), so copy what must outlive it. At most
   * workers × BULK_DEPTH buffers exist at once. Resolves when every chunk was
   * seen or reported to `onChunkError`; rejects when a worker stops.
   */
  async bulk(
    reqs: readonly ChunkRequest[],
    onChunk: (cols: ChunkColumns) => void,
    opts: BulkOptions = {},
  ): Promise<void> {
    const convention = this.convention
    if (this.disposed) throw new RadError('CANCELLED', 'the file was closed')
    if (!this.opened || convention === undefined) throw new Error('internal: bulk() before open() and setConvention()')
    this.ensureWorkers()
    const batches = bulkBatches(reqs, convention)
    let largest = 0
    for (const b of batches) largest = Math.max(largest, batchBytes(b, convention))
    const laneCount = this.slots.length * BULK_DEPTH
    const spares: ArrayBuffer[] = []
    let made = 0
    let next = 0
    let failed = false
    const lane = async (slot: Slot): Promise<void> => {
      for (;;) {
        if (failed) return
        if (opts.signal?.aborted) throw new RadError('CANCELLED', 'the bulk pass was cancelled')
        const batch = batches[next++]
        if (!batch) return
        let rest = batch
        while (rest.length > 0) {
          // Read into a buffer a consumed batch left, or one made here (faulted in once, by the worker).
          // Layouts decoded by copying give none back; then the worker reads into fresh memory.
          let spare = spares.pop()
          if (!spare && made < laneCount) {
            spare = new ArrayBuffer(largest)
            made++
          }
          let cols: ChunkColumns[]
          try {
            cols = await this.bulkCall(slot, rest, convention, spare)
          } catch (e) {
            const error = e instanceof Error ? e : new Error(String(e))
            const first = rest[0]
            const chunkFault = error instanceof RadError && error.code !== 'WORKER_FAILED' && error.code !== 'CANCELLED'
            if (!chunkFault || !opts.onChunkError || !first) throw error
            opts.onChunkError(first, error)
            rest = rest.slice(1)
            continue
          }
          if (failed) return
          if (cols.length === 0) throw new Error('internal: a decode call returned nothing')
          for (const c of cols) onChunk(c)
          for (const b of chunkBuffers(cols)) if (b.byteLength >= largest && spares.length < laneCount) spares.push(b)
          rest = rest.slice(cols.length)
        }
      }
    }
    const lanes: Promise<void>[] = []
    for (const slot of this.slots) {
      for (let d = 0; d < BULK_DEPTH; d++) {
        lanes.push(
          lane(slot).catch((e: unknown) => {
            failed = true
            throw e
          }),
        )
      }
    }
    await Promise.all(lanes)
  }

  private bulkCall(
    slot: Slot,
    batch: ChunkRequest[],
    convention: NbytesConvention,
    spare: ArrayBuffer | undefined,
  ): Promise<ChunkColumns[]> {
    if (slot.dead) return Promise.reject(new RadError('WORKER_FAILED', 'a decode worker stopped during a bulk pass'))
    return new Promise<ChunkColumns[]>((resolve, reject) => {
      slot.bulk.add(reject)
      const call = spare
        ? slot.api.decode(batch, convention, transfer(spare, [spare]))
        : slot.api.decode(batch, convention)
      call.then(
        (cols) => {
          slot.bulk.delete(reject)
          resolve(cols)
        },
        (e: unknown) => {
          slot.bulk.delete(reject)
          reject(e instanceof Error ? e : new Error(String(e)))
        },
      )
    })
  }

  /** Terminates every worker; queued and running requests reject with CANCELLED. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    const cancelled = new RadError('CANCELLED', 'the file was closed')
    for (const slot of this.slots) {
      slot.dead = true
      clearTimeout(slot.timer)
      slot.worker.terminate()
      for (const p of slot.batch ?? []) p.reject(cancelled)
      for (const reject of slot.bulk) reject(cancelled)
    }
    for (const p of this.queue.values()) p.reject(cancelled)
    this.queue.clear()
    this.slots = []
  }
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
