import type { FileFingerprint } from '../../io/fileFingerprint'
import type { RemoteVersion, SourceSpec } from '../../io/sourceSpec'
import { RadError, fmtInt } from '../../rad/errors'
import type { ChunkColumns, NbytesConvention, Prelude } from '../../rad/types'
import { DecodeQueue } from './decodeQueue'
import type { Queued } from './decodeQueue'
import { DecodeSlots, WorkerStopped } from './decodeSlots'
import type { Slot } from './decodeSlots'
import type { DecodedBatch, DecodeWorkerApi } from '../../workers/protocol'
import type { ChunkRequest, OpenedFile } from '../../workers/protocol'
import type { SnappyFrameTable } from '../../io/snappySource'
import type { Remote } from 'comlink'

/** One call on one decode worker; rejects with WORKER_FAILED when the worker stops first. */
export type WorkerCall = <T>(run: (api: Remote<DecodeWorkerApi>) => Promise<T>) => Promise<T>

/**
 * clamp(hardwareConcurrency, 1, 4): a worker a core. The statistics pass, what a user waits for
 * longest, runs after the index walk, when the index worker and the page are idle: with a core
 * left to them, a 2-core machine counted on one worker while the other core idled (drop → done
 * 0.137 → see bench/results.md). While the index is walked the decode workers decode only the
 * rows on screen.
 */
export function poolSize(hardwareConcurrency: number | undefined): number {
  return Math.min(4, Math.max(1, hardwareConcurrency ?? 2))
}

export interface PoolOptions {
  size: number
  createWorker: () => Worker
  /** Told when a worker died and was replaced (plain words for the user). */
  onWorkerFailed: (message: string) => void
  /** A call without an answer for this long means the worker is gone. */
  callTimeoutMs?: number
}

interface Pending extends Queued {
  resolve: (cols: ChunkColumns) => void
  reject: (e: Error) => void
}

/**
 * N decode workers (decodeSlots.ts) behind one priority queue
 * (decodeQueue.ts: lower number = sooner; the UI gives what is on screen the
 * lowest). Workers start with the first request; requests for back-to-back
 * chunks are batched into one call. A worker that errors or stops answering
 * is replaced, the requests it held fail with WORKER_FAILED, and the failure
 * is reported. Whole-file passes call the workers beside the queue (workers(), lanes.ts).
 */
export class DecodePool {
  private source: SourceSpec
  private readonly opts: PoolOptions
  private readonly slots: DecodeSlots
  private readonly queue = new DecodeQueue<Pending>()
  /** The queue batch each busy slot is decoding. */
  private readonly running = new Map<Slot, Pending[]>()
  private opened = false
  private convention: NbytesConvention | undefined
  private disposed = false

  /** The workers the pool runs (the cores a whole-file pass may use: cellsRun.ts). */
  get size(): number {
    return this.opts.size
  }

  constructor(source: SourceSpec, opts: PoolOptions) {
    this.source = source
    this.opts = opts
    this.slots = new DecodeSlots({
      size: opts.size,
      createWorker: opts.createWorker,
      ...(opts.callTimeoutMs !== undefined ? { callTimeoutMs: opts.callTimeoutMs } : {}),
      onStopped: (slot, why) => {
        this.reportStopped(slot, why)
      },
    })
  }

  /**
   * Workers start with the first request, not with the file: the first screen
   * of records comes from the index worker, and starting threads while it
   * works only competes with it for the CPU.
   */
  private ensureWorkers(): void {
    if (!this.disposed) this.slots.start()
  }

  /**
   * `remote`: a URL's version as the index worker read it (OpenedFile.remote); the workers read
   * against it. `frames`: a .sz file's frame table (OpenedFile.frames).
   */
  open(prelude: Prelude, container: OpenedFile['container'], remote?: RemoteVersion, frames?: SnappyFrameTable): void {
    this.opened = true
    if (remote && this.source.kind === 'url') this.source = { ...this.source, version: remote }
    this.slots.open(this.source, prelude, container, frames)
    this.dispatch()
  }

  setConvention(convention: NbytesConvention): void {
    if (this.convention === convention) return
    this.convention = convention
    this.dispatch()
  }

  /** Decodes a chunk; asking again for a queued chunk updates its priority, and both callers get the columns. */
  request(req: ChunkRequest, priority: number): Promise<ChunkColumns> {
    if (this.disposed) return Promise.reject(new RadError('CANCELLED', 'the file was closed'))
    this.ensureWorkers()
    return new Promise<ChunkColumns>((resolve, reject) => {
      const earlier = this.queue.get(req.chunk)
      this.queue.add({
        req,
        priority,
        seq: 0,
        resolve: (cols) => {
          earlier?.resolve(cols)
          resolve(cols)
        },
        reject: (e) => {
          earlier?.reject(e)
          reject(e)
        },
      })
      this.dispatch()
    })
  }

  /** Moves a queued chunk up or down; false if it is not queued (decoding or done). */
  reprioritize(chunk: number, priority: number): boolean {
    return this.queue.reprioritize(chunk, priority)
  }

  /** Drops queued requests the UI no longer needs (they reject with CANCELLED). */
  drop(keep: (chunk: number) => boolean): void {
    for (const p of this.queue.drop(keep)) {
      const chunk = p.req.chunk
      p.reject(new RadError('CANCELLED', `chunk ${fmtInt(chunk)} is no longer needed`, undefined, chunk))
    }
  }

  get queued(): number {
    return this.queue.size
  }

  private dispatch(): void {
    const convention = this.convention
    if (this.disposed || !this.opened || convention === undefined) return
    for (const slot of this.slots.all) {
      if (this.running.has(slot)) continue
      const batch = this.queue.takeBatch(convention)
      if (!batch) return
      this.run(slot, batch, convention)
    }
  }

  private run(slot: Slot, batch: Pending[], convention: NbytesConvention): void {
    this.running.set(slot, batch)
    const reqs = batch.map((p) => p.req)
    this.slots.decode(slot, reqs, convention, { timed: true }).then(
      (decoded) => {
        if (this.disposed) return
        this.running.delete(slot)
        settleBatch(batch, decoded)
        this.dispatch()
      },
      (e: unknown) => {
        if (this.disposed) return
        this.running.delete(slot)
        if (e instanceof WorkerStopped) {
          // Reported, and the slot replaced, already (reportStopped).
          for (const p of batch) p.reject(stoppedWhileDecoding(e.why, p.req))
          return
        }
        batch[0]?.reject(e instanceof Error ? e : new Error(String(e)))
        this.queue.putBack(batch.slice(1))
        this.dispatch()
      },
    )
  }

  private reportStopped(slot: Slot, why: string): void {
    if (this.disposed) return
    const first = this.running.get(slot)?.[0]
    this.opts.onWorkerFailed(
      `A decode worker stopped (${why})${first ? ` while decoding chunk ${fmtInt(first.req.chunk)}` : ''}; it was replaced.`,
    )
    this.dispatch()
  }

  /** The nbytes convention, once the index has found it (a filter pass batches chunks with it). */
  get nbytesConvention(): NbytesConvention | undefined {
    return this.convention
  }

  /**
   * The workers, for a whole-file pass that calls them directly beside the queue (the one pass
   * runner, lanes.ts: statistics, filters), and the nbytes convention to read with.
   */
  workers(): { calls: WorkerCall[]; convention: NbytesConvention } {
    const convention = this.convention
    if (this.disposed) throw new RadError('CANCELLED', 'the file was closed')
    if (!this.opened || convention === undefined) {
      throw new Error('internal: workers() before open() and setConvention()')
    }
    this.ensureWorkers()
    const calls = this.slots.all.map(
      (slot): WorkerCall =>
        (run) =>
          this.slots.call(slot, run).catch((e: unknown) => {
            if (!(e instanceof WorkerStopped)) throw e
            throw new RadError('WORKER_FAILED', `a decode worker stopped (${e.why}) during a whole-file pass`)
          }),
    )
    return { calls, convention }
  }

  /**
   * Confirms the file is still the one opened (DecodeApi.recheck, in a decode
   * worker: this thread never reads the file). Rejects with FILE_CHANGED or
   * READ_FAILED when it is not.
   */
  async recheck(fingerprint: FileFingerprint): Promise<void> {
    if (this.disposed) throw new RadError('CANCELLED', 'the file was closed')
    if (!this.opened) throw new Error('internal: recheck() before open()')
    this.ensureWorkers()
    const slot = this.slots.all[0]
    if (!slot) throw new Error('internal: no decode worker')
    await this.slots.recheck(slot, fingerprint)
  }

  /** Terminates every worker; queued and running requests reject with CANCELLED. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    const cancelled = new RadError('CANCELLED', 'the file was closed')
    for (const batch of this.running.values()) for (const p of batch) p.reject(cancelled)
    this.running.clear()
    for (const p of this.queue.clear()) p.reject(cancelled)
    this.slots.dispose(cancelled)
  }
}

/** Each request gets its chunk's columns, or its chunk's error when the walk listed it as bad (walkBatch.ts). */
function settleBatch(batch: readonly Pending[], decoded: DecodedBatch): void {
  const columns = new Map(decoded.columns.map((cols) => [cols.chunk, cols]))
  const bad = new Map(decoded.bad.map((b) => [b.chunk, b.error]))
  for (const p of batch) {
    const cols = columns.get(p.req.chunk)
    const error = bad.get(p.req.chunk)
    if (cols) p.resolve(cols)
    else p.reject(error ? RadError.fromData(error) : new Error(`internal: chunk ${fmtInt(p.req.chunk)} not decoded`))
  }
}

function stoppedWhileDecoding(why: string, req: ChunkRequest): RadError {
  return new RadError(
    'WORKER_FAILED',
    `a decode worker stopped (${why}) while decoding chunk ${fmtInt(req.chunk)} at byte ${fmtInt(req.offset)}`,
    req.offset,
    req.chunk,
  )
}
