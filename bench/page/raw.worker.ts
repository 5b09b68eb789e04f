// The browser's own limit: read a File front to back with Blob.slice, `depth` reads in flight.
import { expose } from 'comlink'
import { BlobSource } from '../../src/io/blobSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { yieldTask } from '../../src/io/yieldTask'
import type { ScanTiming } from '../../src/io/scanPace'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'

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
    await yieldTask()
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

/** The index walk alone (no first chunks, no messages), with or without the record checks. */
async function walk(file: Blob, check: boolean, blockSize?: number): Promise<{ ms: number; timing: ScanTiming }> {
  const started = performance.now()
  const { source, prelude } = await openRad(new BlobSource(file))
  const plan = check ? makeCheckPlan(prelude, inferSemantics(prelude)) : undefined
  const result = await scanChunks(source, prelude, {
    ...(plan ? { check: plan } : {}),
    ...(blockSize ? { blockSize } : {}),
  })
  return { ms: performance.now() - started, timing: result.timing }
}

/**
 * Mechanism probe (see src/io/yieldTask.ts): issues `n` reads of `block`,
 * computes for `spinMs` (in `sliceMs` slices with a yield between, when > 0),
 * then times the wait for the reads. Returns [wait ms, total ms, yields].
 */
async function spinProbe(file: Blob, block: number, n: number, spinMs: number, sliceMs = 0): Promise<number[]> {
  const t0 = performance.now()
  const reads = Array.from({ length: n }, (_, i) => file.slice(i * block, (i + 1) * block).arrayBuffer())
  const until = performance.now() + spinMs
  let yields = 0
  while (performance.now() < until) {
    if (sliceMs > 0) {
      const stop = Math.min(until, performance.now() + sliceMs)
      while (performance.now() < stop) {
        // busy
      }
      await yieldTask()
      yields++
    }
  }
  const t = performance.now()
  await Promise.all(reads)
  return [performance.now() - t, performance.now() - t0, yields]
}

expose({ readAll, walk, spinProbe })
