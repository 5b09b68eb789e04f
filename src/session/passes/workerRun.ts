/**
 * One job in a worker of its own (an export, a cells pass): a small store of
 * its state for the UI, the worker's crash turned into an error, and cancel by
 * terminating the worker, so nothing of the job keeps running (ADR 0006).
 */
import { RadError } from '../../rad/errors'
import { Store } from '../store'

export type RunPhase = 'running' | 'done' | 'error' | 'cancelled'

export interface RunState {
  phase: RunPhase
  /** Chunks walked so far, of `total`. */
  visited: number
  total: number | undefined
  error: Error | undefined
}

export class WorkerRun<S extends RunState, R> {
  private readonly store: Store<S>
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
    this.store = new Store(initial)
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
        if (this.store.getState().phase === 'running') this.finish({ phase: 'error', error } as Partial<S>)
        throw error
      },
    )
    // The state carries the error: a run nobody awaits (the cells pass) must not also throw it at
    // the page as an unhandled rejection. A caller awaiting `done` still gets the rejection.
    this.done.catch(() => undefined)
  }

  get subscribe(): Store<S>['subscribe'] {
    return this.store.subscribe
  }

  get getState(): Store<S>['getState'] {
    return this.store.getState
  }

  /** A progress report: ignored once the job is over. */
  protected progress(patch: Partial<S>): void {
    if (this.store.getState().phase === 'running') this.store.update(patch)
  }

  private finish(patch: Partial<S>): void {
    this.worker.terminate()
    this.store.update(patch)
  }

  /** Stops the job: the worker is terminated and `done` rejects with CANCELLED. */
  cancel(): void {
    if (this.store.getState().phase !== 'running') return
    this.finish({ phase: 'cancelled' } as Partial<S>)
    this.settle?.(new RadError('CANCELLED', `the ${this.what} was cancelled`))
  }
}
