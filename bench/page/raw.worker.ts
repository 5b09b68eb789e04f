// The browser's own limit: read a File front to back with Blob.slice, `depth` reads in flight.
import { expose } from 'comlink'

/** CPU work on the reading thread, for probing how reads and work share it: `passes` OR passes over the words. */
function work(buffer: ArrayBuffer, passes: number): number {
  const words = new Uint32Array(buffer, 0, buffer.byteLength >>> 2)
  let x = 0
  for (let p = 0; p < passes; p++) for (let i = 0; i < words.length; i++) x |= 1000 - ((words[i] ?? 0) & 0x3fffffff)
  return x
}

/** The same work in 1 MiB slices with a yield to the thread's tasks between them (when `sliced`). */
async function workSliced(buffer: ArrayBuffer, passes: number): Promise<void> {
  const step = 1 << 20
  for (let at = 0; at < buffer.byteLength; at += step) {
    const words = new Uint32Array(buffer, at, Math.min(step, buffer.byteLength - at) >>> 2)
    let x = 0
    for (let p = 0; p < passes; p++) for (let i = 0; i < words.length; i++) x |= 1000 - ((words[i] ?? 0) & 0x3fffffff)
    if (x === 42) console.warn(x)
    await (globalThis as unknown as { scheduler: { yield(): Promise<void> } }).scheduler.yield()
  }
}

async function readAll(file: Blob, block: number, depth: number, passes = 0, sliced = false): Promise<number> {
  const started = performance.now()
  let next = 0
  let bytes = 0
  const inFlight: Promise<ArrayBuffer>[] = []
  const issue = (): void => {
    if (next >= file.size) return
    inFlight.push(file.slice(next, Math.min(file.size, next + block)).arrayBuffer())
    next += block
  }
  for (let i = 0; i < depth; i++) issue()
  while (inFlight.length > 0) {
    const buffer = await (inFlight.shift() as Promise<ArrayBuffer>)
    bytes += buffer.byteLength
    issue()
    if (passes > 0 && sliced) await workSliced(buffer, passes)
    else if (passes > 0) work(buffer, passes)
  }
  if (bytes !== file.size) throw new Error(`read ${String(bytes)} of ${String(file.size)} bytes`)
  return performance.now() - started
}

expose({ readAll })
