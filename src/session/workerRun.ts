/**
 * One job in a worker of its own (an export, a cells pass): a small store of
 * its state for the UI, the worker's crash turned into an error, and cancel by
 * terminating the worker, so nothing of the job keeps running (ADR 0006).
 */
import { RadError } from '../rad/errors'

export type RunPhase = 'running' | 'done' | 'error' | 'cancelled'

export interface RunState {
  phase: RunPhase
  /** Chunks walked so far, of `total`. */
  visited: number
  total: number | undefined
  error: Error | undefined
}

export class WorkerRun<S extends RunState, R> {
  private state: S
  private readonly listeners = new Set<() => void>()
  private settle: ((e: Error) => void) | undefined
  private readonly worker: Worker
  private readonly what: string
  /** Resolves with the job's result; rejects on an error or a cancel. */
  readonly done: Promise<R>

  /**
   * `start` sends the job (its progress calls update()); `finished` is the state's patch when it
   * resolves. `what` names the worker in errors ("the export worker stopped").
   */
  constructor(
    initial: S,
    worker: Worker,
    what: string,
    start: (worker: Worker) => Promise<R>,
    finished: (result: R) => Partial<S>,
  ) {
    this.state = initial
    this.worker = worker
    this.what = what
    const stopped = new Promise<never>((_, reject) => {
      this.settle = reject
      worker.onerror = (e) => {
        e.preventDefault()
        reject(new RadError('WORKER_FAILED', `the ${what} worker stopped (${e.message || 'it crashed'})`))
      }
    })
    this.done = Promise.race([start(worker), stopped]).then(
      (result) => {
        this.finish({ phase: 'done', ...finished(result) })
        return result
      },
      (e: unknown) => {
        const error = e instanceof Error ? e : new Error(String(e))
        if (this.state.phase === 'running') this.finish({ phase: 'error', error } as Partial<S>)
        throw error
      },
    )
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  readonly getState = (): S => this.state

  /** A progress report: ignored once the job is over. */
  protected progress(patch: Partial<S>): void {
    if (this.state.phase === 'running') this.update(patch)
  }

  private update(patch: Partial<S>): void {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l()
  }

  private finish(patch: Partial<S>): void {
    this.worker.terminate()
    this.update(patch)
  }

  /** Stops the job: the worker is terminated and `done` rejects with CANCELLED. */
  cancel(): void {
    if (this.state.phase !== 'running') return
    this.finish({ phase: 'cancelled' } as Partial<S>)
    this.settle?.(new RadError('CANCELLED', `the ${this.what} was cancelled`))
  }
}
