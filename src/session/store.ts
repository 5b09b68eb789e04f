/**
 * The one small store the page's state lives in (a session, a statistics pass, a filter, a
 * worker's job), in the shape React's useSyncExternalStore reads: an immutable state replaced on
 * each change, and listeners told of it.
 */
export class Store<T extends object> {
  private state: T
  private readonly listeners = new Set<() => void>()

  constructor(initial: T) {
    this.state = initial
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }

  readonly getState = (): T => this.state

  /** Replaces the state by `patch` over it and tells every listener. */
  update(patch: Partial<T>): void {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l()
  }

  /** Forgets every listener (its owner is gone). */
  clear(): void {
    this.listeners.clear()
  }
}
