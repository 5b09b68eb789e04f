/** The CLI's buffered stdout (src/cli/output.ts) against a consumer slower than the producer. */
import { Writable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { Output } from '../../src/cli/output'

/** A pipe that takes 1 byte of buffer and answers each write a millisecond later: every flush waits for 'drain'. */
function slowPipe(): { stream: Writable; received: () => number } {
  let received = 0
  const stream = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, done) {
      received += chunk.length
      setTimeout(done, 1)
    },
  })
  return { stream, received: () => received }
}

describe('Output', () => {
  it('waits for a backed-up pipe without piling up listeners (no MaxListenersExceededWarning)', async () => {
    const warnings: Error[] = []
    const onWarning = (w: Error): void => {
      warnings.push(w)
    }
    process.on('warning', onWarning)
    try {
      const { stream, received } = slowPipe()
      const out = new Output(stream)
      const errorListeners = stream.listenerCount('error')
      for (let i = 0; i < 50; i++) {
        out.write(`line ${String(i)}\n`)
        await out.flush()
        expect(stream.listenerCount('error')).toBe(errorListeners)
        expect(stream.listenerCount('drain')).toBe(0)
      }
      await out.close()
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(received()).toBe(50 * 'line 0\n'.length + 40)
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([])
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('ends quietly when the reader goes away while it waits (EPIPE)', async () => {
    const stream = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        const e: NodeJS.ErrnoException = new Error('write EPIPE')
        e.code = 'EPIPE'
        setTimeout(() => {
          done(e)
        }, 1)
      },
    })
    const out = new Output(stream)
    out.write('x'.repeat(100))
    await expect(out.flush()).rejects.toThrow()
    expect(out.brokenPipe).toBe(true)
    await out.close()
  })
})
