import { once } from 'node:events'
import type { Writable } from 'node:stream'

/** Raised to unwind when the reader of our stdout went away (`| head`). */
export class BrokenPipe extends Error {}

const FLUSH_AT = 1 << 20

/** Buffered stdout with backpressure; a closed pipe ends output quietly. */
export class Output {
  private parts: string[] = []
  private size = 0
  brokenPipe = false
  private readonly stream: Writable

  constructor(stream: Writable) {
    this.stream = stream
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') this.brokenPipe = true
    })
  }

  write(text: string): void {
    this.parts.push(text)
    this.size += text.length
  }

  /** Flushes when enough text has gathered; await between chunks. */
  async maybeFlush(): Promise<void> {
    if (this.size >= FLUSH_AT) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.brokenPipe) throw new BrokenPipe()
    if (this.size === 0) return
    const data = this.parts.join('')
    this.parts = []
    this.size = 0
    if (!this.stream.write(data)) {
      await Promise.race([once(this.stream, 'drain'), once(this.stream, 'error')])
    }
    if (this.brokenPipe) throw new BrokenPipe()
  }

  async close(): Promise<void> {
    try {
      await this.flush()
    } catch (e) {
      if (!(e instanceof BrokenPipe)) throw e
    }
  }
}
