// The browser's own limit: read a File front to back with Blob.slice, `depth` reads in flight.
import { expose } from 'comlink'

async function readAll(file: Blob, block: number, depth: number): Promise<number> {
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
  }
  if (bytes !== file.size) throw new Error(`read ${String(bytes)} of ${String(file.size)} bytes`)
  return performance.now() - started
}

expose({ readAll })
