import { transfer, wrap } from 'comlink'
import type { Remote } from 'comlink'
import '../../workers/comlinkErrors'
import type { FileFingerprint } from '../../io/fileFingerprint'
import type { SourceSpec } from '../../io/sourceSpec'
import type { NbytesConvention, Prelude } from '../../rad/types'
import type { ChunkRequest, DecodedBatch, OpenedFile } from '../../workers/protocol'
import type { SnappyFrameTable } from '../../io/snappySource'
import type { DecodeWorkerApi } from '../../workers/protocol'

/** A timed call without an answer for this long means the worker is gone (a 4 MiB batch takes milliseconds). */
const CALL_TIMEOUT_MS = 60_000

/** A call's worker stopped before answering: it crashed, sent a message that could not be read, or went silent. */
export class WorkerStopped extends Error {
  /** Plain words for the user: "the worker crashed", "no answer after 60 s"… */
  readonly why: string

  constructor(why: string) {
    super(`a decode worker stopped (${why})`)
    this.why = why
  }
}

/** One decode worker and the calls it has not answered yet. */
export interface Slot {
  readonly worker: Worker
  readonly api: Remote<DecodeWorkerApi>
  /** Why the worker stopped; undefined while it runs. */
  stopped: string | undefined
  readonly calls: Set<Call>
}

interface Call {
  reject: (e: Error) => void
  timer: ReturnType<typeof setTimeout> | undefined
}

export interface SlotsOptions {
  size: number
  createWorker: () => Worker
  /** A timed call without an answer for this long means the worker is gone. */
  callTimeoutMs?: number
  /**
   * A worker stopped: it was terminated, every call it had not answered
   * rejects with WorkerStopped, and a new slot has taken its place.
   */
  onStopped: (slot: Slot, why: string) => void
}

/**
 * The decode workers: `size` slots, each given the file and the prelude once.
 * A worker that errors, cannot read a message or misses a timed call's
 * deadline is terminated and replaced at once; what it was asked fails with
 * WorkerStopped, so the caller decides what to retry and what to tell.
 */
export class DecodeSlots {
  private readonly opts: SlotsOptions
  private slots: Slot[] = []
  private opened:
    | { source: SourceSpec; prelude: Prelude; container: OpenedFile['container']; frames: SnappyFrameTable | undefined }
    | undefined
  private started = false
  private closed = false

  constructor(opts: SlotsOptions) {
    this.opts = opts
  }

  /** The running slots (a stopped one is replaced in this list at once). */
  get all(): readonly Slot[] {
    return this.slots
  }

  /** Starts the workers, once. */
  start(): void {
    if (this.started || this.closed) return
    this.started = true
    for (let i = 0; i < this.opts.size; i++) this.slots.push(this.spawn())
  }

  /** Gives every worker, and every later replacement, the file to decode from. */
  open(
    source: SourceSpec,
    prelude: Prelude,
    container: OpenedFile['container'],
    frames: SnappyFrameTable | undefined,
  ): void {
    this.opened = { source, prelude, container, frames }
    for (const slot of this.slots) this.openSlot(slot)
  }

  /**
   * One decode call. `spare` is transferred for the worker to read the batch
   * into; `timed` calls stop the worker when it misses CALL_TIMEOUT_MS.
   */
  decode(
    slot: Slot,
    batch: ChunkRequest[],
    convention: NbytesConvention,
    opts: { spare?: ArrayBuffer; timed?: boolean } = {},
  ): Promise<DecodedBatch> {
    if (slot.stopped !== undefined) return Promise.reject(new WorkerStopped(slot.stopped))
    return new Promise<DecodedBatch>((resolve, reject) => {
      const ms = this.opts.callTimeoutMs ?? CALL_TIMEOUT_MS
      const call: Call = { reject, timer: undefined }
      if (opts.timed) {
        call.timer = setTimeout(() => {
          this.fail(slot, `no answer after ${String(ms / 1000)} s`)
        }, ms)
      }
      slot.calls.add(call)
      const done = (): void => {
        clearTimeout(call.timer)
        slot.calls.delete(call)
      }
      const { spare } = opts
      const pending = spare
        ? slot.api.decode(batch, convention, transfer(spare, [spare]))
        : slot.api.decode(batch, convention)
      pending.then(
        (cols) => {
          done()
          resolve(cols)
        },
        (e: unknown) => {
          done()
          reject(e instanceof Error ? e : new Error(String(e)))
        },
      )
    })
  }

  /** Any other call on a worker (a whole-file pass's, lanes.ts): rejects with WorkerStopped when the worker stops first. */
  call<T>(slot: Slot, run: (api: Remote<DecodeWorkerApi>) => Promise<T>): Promise<T> {
    if (slot.stopped !== undefined) return Promise.reject(new WorkerStopped(slot.stopped))
    return new Promise<T>((resolve, reject) => {
      const call: Call = { reject, timer: undefined }
      slot.calls.add(call)
      run(slot.api).then(
        (value) => {
          slot.calls.delete(call)
          resolve(value)
        },
        (e: unknown) => {
          slot.calls.delete(call)
          reject(e instanceof Error ? e : new Error(String(e)))
        },
      )
    })
  }

  /** Asks a worker to read both ends of the file again (DecodeApi.recheck). */
  recheck(slot: Slot, fingerprint: FileFingerprint): Promise<void> {
    if (slot.stopped !== undefined) return Promise.reject(new WorkerStopped(slot.stopped))
    return slot.api.recheck(fingerprint)
  }

  /** Terminates every worker; calls not yet answered reject with `error`. */
  dispose(error: Error): void {
    if (this.closed) return
    this.closed = true
    for (const slot of this.slots) this.stop(slot, 'closed', error)
    this.slots = []
  }

  private spawn(): Slot {
    const worker = this.opts.createWorker()
    const slot: Slot = { worker, api: wrap<DecodeWorkerApi>(worker), stopped: undefined, calls: new Set() }
    worker.addEventListener('error', (ev) => {
      ev.preventDefault()
      this.fail(slot, ev.message || 'the worker crashed')
    })
    worker.addEventListener('messageerror', () => {
      this.fail(slot, 'a message could not be read')
    })
    this.openSlot(slot)
    return slot
  }

  private openSlot(slot: Slot): void {
    const o = this.opened
    if (!o) return
    slot.api.open(o.source, o.prelude, o.container, o.frames).catch(() => {
      // The same error reaches every decode call made on this worker.
    })
  }

  private fail(slot: Slot, why: string): void {
    if (slot.stopped !== undefined || this.closed) return
    this.stop(slot, why, new WorkerStopped(why))
    this.slots = this.slots.map((s) => (s === slot ? this.spawn() : s))
    this.opts.onStopped(slot, why)
  }

  private stop(slot: Slot, why: string, error: Error): void {
    slot.stopped = why
    slot.worker.terminate()
    for (const call of slot.calls) {
      clearTimeout(call.timer)
      call.reject(error)
    }
    slot.calls.clear()
  }
}
