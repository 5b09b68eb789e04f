/**
 * Lets the thread's other tasks run, then resumes (a macrotask, not a
 * microtask). In a browser worker a Blob read's bytes arrive through tasks on
 * the reading thread itself, so a walk that computes for tens of
 * milliseconds stalls its own reads in flight (issue 4, measured: the index
 * overlapped little with its reads until it yielded every few milliseconds).
 * Uses `scheduler.yield` where there is one (Chromium, in pages and workers),
 * else `setImmediate` (Node), else a MessageChannel round trip (no 4 ms clamp
 * as nested setTimeout has).
 */
interface YieldScheduler {
  yield(): Promise<void>
}

const scheduler = (globalThis as { scheduler?: Partial<YieldScheduler> }).scheduler
const setImmediateFn = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate

export function yieldTask(): Promise<void> {
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  if (setImmediateFn) return new Promise((resolve) => setImmediateFn(resolve))
  return new Promise((resolve) => {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      resolve()
    }
    channel.port2.postMessage(undefined)
  })
}
