/**
 * A statistics worker's end of the index walk's feed (walkFeed.ts, ADR 0017): each buffer of
 * checked chunks is counted as it comes (`count`) and given back to the walk, which fills it again.
 * Messages on a port arrive in order, so once `end` has come everything the walk sent is counted.
 */
import type { NbytesConvention } from '../rad/types'
import type { FedTotals, FeedAnswer, FeedMessage } from './statsProtocol'

/** Counts one buffer: `segments` are triples (file offset, length, first chunk) over `bytes`. */
export type CountFed = (bytes: Uint8Array, segments: readonly number[], convention: NbytesConvention) => FedTotals

export class FeedIn {
  private readonly port: MessagePort
  private readonly totals: FedTotals = { chunks: 0, bytes: 0, records: 0, bad: [] }
  private ended = false
  private onEnd: (() => void) | undefined
  private failure: Error | undefined

  constructor(port: MessagePort, count: CountFed) {
    this.port = port
    port.onmessage = (e: MessageEvent<FeedMessage>) => {
      const message = e.data
      if (message.kind === 'end') {
        this.ended = true
        this.onEnd?.()
        return
      }
      try {
        if (!this.failure) {
          this.add(count(new Uint8Array(message.buffer, 0, message.length), message.segments, message.convention))
        }
      } catch (err) {
        this.failure = err instanceof Error ? err : new Error('the chunks the index walk sent could not be counted')
      }
      port.postMessage({ kind: 'free', buffer: message.buffer } satisfies FeedAnswer, [message.buffer])
    }
  }

  private add(t: FedTotals): void {
    this.totals.chunks += t.chunks
    this.totals.bytes += t.bytes
    this.totals.records += t.records
    this.totals.bad.push(...t.bad)
  }

  /** Everything the walk fed, counted, once it said it ended. */
  async done(): Promise<FedTotals> {
    if (!this.ended) {
      await new Promise<void>((resolve) => {
        this.onEnd = resolve
      })
    }
    if (this.failure) throw this.failure
    return this.totals
  }

  close(): void {
    this.port.close()
  }
}
