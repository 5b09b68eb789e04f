/**
 * One job in a worker of its own, or a few (an export; a cells pass, one a
 * core): a small store of its state for the UI, a worker's crash turned into
 * an error, and cancel by terminating the workers, so nothing of the job keeps
 * running (ADR 0006).
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
  private readonly workers: readonly Worker[]
  private readonly what: string
  /** Resolves with the job's result; rejects on an error or a cancel. */
  readonly done: Promise<R>

  /**
   * `start` sends the job to the first worker and any others (its progress calls update());
   * `finished` is the state's patch when it resolves. `what` names the worker in errors ("the
   * export worker stopped").
   */
  constructor(
    initial: S,
    workers: readonly [Worker, ...Worker[]],
    what: string,
    start: (lead: Worker, others: readonly Worker[]) => Promise<R>,
    finished: (result: R) => Partial<S>,
  ) {
    this.store = new Store(initial)
    const [lead, ...others] = workers
    this.workers = workers
    this.what = what
    const stopped = new Promise<never>((_, reject) => {
      this.settle = reject
      for (const worker of this.workers) {
        worker.onerror = (e) => {
          e.preventDefault()
          reject(new RadError('WORKER_FAILED', `the ${what} worker stopped (${e.message || 'it crashed'})`))
        }
      }
    })
    this.done = Promise.race([start(lead, others), stopped]).then(
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
    for (const worker of this.workers) worker.terminate()
    this.store.update(patch)
  }

  /** Stops the job: the workers are terminated and `done` rejects with CANCELLED. */
  cancel(): void {
    if (this.store.getState().phase !== 'running') return
    this.finish({ phase: 'cancelled' } as Partial<S>)
    this.settle?.(new RadError('CANCELLED', `the ${this.what} was cancelled`))
  }
}
