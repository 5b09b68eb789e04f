/**
 * Lets the thread's other tasks run, then resumes (a macrotask, not a
 * microtask). In a browser worker a Blob read's bytes are taken in by tasks
 * on the reading thread itself, so a walk that computes without pause stalls
 * its own reads in flight. Measured in this machine's Chromium (bench/results.md,
 * bench/page/raw.worker.ts spinProbe: 3 reads of 32 MiB, 200 ms of work):
 * with no yield the reads still needed ~150 ms after the work; yielding
 * through a MessageChannel every 0.25–2 ms, 0 ms. `scheduler.yield()` does
 * not help: its continuation runs before the waiting read tasks.
 * `setImmediate` in Node (whose file reads run on other threads anyway).
 */
const setImmediateFn = (globalThis as { setImmediate?: (fn: () => void) => unknown }).setImmediate

export function yieldTask(): Promise<void> {
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
