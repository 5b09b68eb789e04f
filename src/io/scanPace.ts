import { throwIfAborted } from './byteSource'
import { yieldTask } from './yieldTask'

/** Where a chunk scan's time went (the benchmark prints it: what bounds the index, docs/adr/0002). */
export interface ScanTiming {
  /** From the start of the scan to its end. */
  walkMs: number
  /** Waiting for bytes not yet read. */
  readWaitMs: number
  /** In yields: the thread's other tasks, such as the reads in flight taking in their bytes. */
  yieldMs: number
  /** Paused at the page's request (`held`). */
  heldMs: number
  /** Waiting for the statistics feed to take a clean run (onCleanRun; absent without one). */
  feedWaitMs?: number
}

/** Longest stretch of computing between yields to the thread's tasks, where the reads in flight make progress (yieldTask). */
const YIELD_MS = 1
/** A pause asked for by `held` is re-checked at least this often. */
const MAX_HOLD_MS = 250

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * Paces a scan on its thread: yields every YIELD_MS of computing so the
 * reads in flight take in their bytes (docs/adr/0002), stays paused while
 * `held` asks, and times the waits.
 */
export class ScanPace {
  readonly timing: ScanTiming = { walkMs: 0, readWaitMs: 0, yieldMs: 0, heldMs: 0 }
  private readonly started = performance.now()
  private lastYield = this.started
  private readonly signal: AbortSignal | undefined
  private readonly held: (() => number) | undefined

  constructor(signal: AbortSignal | undefined, held: (() => number) | undefined) {
    this.signal = signal
    this.held = held
  }

  /** Awaits a read, counting the time as waiting for bytes. */
  async waitFor(read: Promise<Uint8Array>): Promise<Uint8Array> {
    const asked = performance.now()
    try {
      return await read
    } finally {
      this.timing.readWaitMs += performance.now() - asked
    }
  }

  /** Awaits `work` (the statistics feed taking a run), counting the time as feedWaitMs. */
  async waitForFeed(work: Promise<void>): Promise<void> {
    const asked = performance.now()
    try {
      await work
    } finally {
      this.timing.feedWaitMs = (this.timing.feedWaitMs ?? 0) + performance.now() - asked
    }
  }

  /** Yields to the thread's tasks when it has computed for YIELD_MS, and stays paused while `held` asks. */
  async pause(): Promise<void> {
    if (performance.now() - this.lastYield < YIELD_MS) return
    const asked = performance.now()
    for (let hold = this.held?.() ?? 0; hold > 0; hold = this.held?.() ?? 0) {
      await sleep(Math.min(hold, MAX_HOLD_MS))
      throwIfAborted(this.signal)
    }
    const resumed = performance.now()
    this.timing.heldMs += resumed - asked
    await yieldTask()
    throwIfAborted(this.signal)
    this.lastYield = performance.now()
    this.timing.yieldMs += this.lastYield - resumed
  }

  /** The timing, with the scan's whole time, once it has ended. */
  finish(): ScanTiming {
    this.timing.walkMs = performance.now() - this.started
    return this.timing
  }
}
