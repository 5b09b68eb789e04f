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
    if (!this.stream.write(data)) await this.drained()
    if (this.brokenPipe) throw new BrokenPipe()
  }

  /**
   * Waits for 'drain'. `events.once` also settles on 'error' and removes both
   * of its listeners either way: racing two `once` calls left one behind per
   * wait, and a pipe that backed up 11 times warned MaxListenersExceeded.
   */
  private async drained(): Promise<void> {
    try {
      await once(this.stream, 'drain')
    } catch (e) {
      // EPIPE was noted by the constructor's listener; anything else is real.
      if (!this.brokenPipe) throw e
    }
  }

  async close(): Promise<void> {
    try {
      await this.flush()
    } catch (e) {
      if (!(e instanceof BrokenPipe)) throw e
    }
  }
}

/** One line of a report, `error at byte N (chunk K): MESSAGE`, with the offset and chunk when known. */
export function reportLine(word: string, where: { offset?: number; chunk?: number; message: string }): string {
  const at = where.offset !== undefined ? ` at byte ${String(where.offset)}` : ''
  const chunk = where.chunk !== undefined ? ` (chunk ${String(where.chunk)})` : ''
  return `${word}${at}${chunk}: ${where.message}`
}
