/**
 * The index walk's side of one read for the index and the statistics (ADR 0017): the chunks a
 * clean run has checked (scanChunks' onCleanRun) are copied into buffers lent to the decode
 * workers counting the statistics pass, one channel each (ScanRequest.feed; statsFeed.ts is the
 * other end). A worker gives each buffer back once counted, so the memory is the buffers', never
 * the file's; when none is free the walk waits for one: the index then moves at the counting's
 * pace, and the file is read once instead of twice. A worker that gives nothing back for
 * FEED_STALL_MS (a pass that died or was cancelled) stops the feed, and the walk goes on alone:
 * the pass reads what was not fed itself (FedRanges), as it always could.
 */
import type { NbytesConvention } from '../rad/types'
import type { FedRanges, FeedAnswer, FeedMessage } from './statsProtocol'

/** Bytes a fed buffer holds: a few clean runs (≤ 1 MiB each), ~30–60 ms of a worker's counting. */
export const FEED_BUFFER_BYTES = 8 << 20
/** Buffers lent to each worker: one counted while the next fills. */
const BUFFERS_PER_WORKER = 2
/** With no buffer back for this long, the feed stops and the walk goes on without it. */
export const FEED_STALL_MS = 5000

interface Filling {
  buffer: ArrayBuffer
  worker: number
  length: number
  segments: number[]
}

export class WalkFeed {
  private readonly ports: readonly MessagePort[]
  private readonly bufferBytes: number
  private readonly stallMs: number
  /** Buffers given back (or never lent), each with the worker it goes to. */
  private readonly free: { buffer: ArrayBuffer | undefined; worker: number }[] = []
  private filling: Filling | undefined
  private convention: NbytesConvention = 'header-inclusive'
  private wake: (() => void) | undefined
  private stopped = false
  private ended = false
  private readonly fed: FedRanges = { ranges: [], bytes: 0, chunks: 0 }

  /** `bufferBytes`, `stallMs`: the tests' smaller ones. */
  constructor(ports: readonly MessagePort[], bufferBytes = FEED_BUFFER_BYTES, stallMs = FEED_STALL_MS) {
    this.ports = ports
    this.bufferBytes = bufferBytes
    this.stallMs = stallMs
    for (let round = 0; round < BUFFERS_PER_WORKER; round++) {
      ports.forEach((_, worker) => this.free.push({ buffer: undefined, worker }))
    }
    ports.forEach((port, worker) => {
      port.onmessage = (e: MessageEvent<FeedAnswer>) => {
        this.free.push({ buffer: e.data.buffer, worker })
        this.wake?.()
      }
    })
  }

  /** What was fed so far. */
  get bytes(): number {
    return this.fed.bytes
  }

  /**
   * Takes a clean run's chunks (`bytes`, from file offset `start`, chunk `firstChunk` on):
   * copied into the buffer filling, or a promise while the walk must wait for a free one.
   */
  offer = (
    bytes: Uint8Array,
    start: number,
    firstChunk: number,
    chunks: number,
    convention: NbytesConvention,
  ): Promise<void> | undefined => {
    if (this.stopped || bytes.length > this.bufferBytes) return undefined
    this.convention = convention
    if (this.filling && this.filling.length + bytes.length > this.bufferBytes) this.post()
    if (this.filling || this.take()) {
      this.place(bytes, start, firstChunk, chunks)
      return undefined
    }
    return this.waitForBuffer().then(() => {
      if (!this.stopped && this.take()) this.place(bytes, start, firstChunk, chunks)
    })
  }

  /** Sends what is filling and tells every worker the walk sends no more; what was fed. */
  finish(): FedRanges {
    if (!this.ended) {
      this.ended = true
      if (this.filling) this.post()
      this.stop()
      for (const port of this.ports) port.postMessage({ kind: 'end' } satisfies FeedMessage)
    }
    return this.fed
  }

  /** Feeds nothing more (the pass is gone); a walk waiting for a buffer goes on. */
  stop(): void {
    this.stopped = true
    this.wake?.()
  }

  private take(): boolean {
    const next = this.free.shift()
    if (!next) return false
    this.filling = {
      buffer: next.buffer ?? new ArrayBuffer(this.bufferBytes),
      worker: next.worker,
      length: 0,
      segments: [],
    }
    return true
  }

  private place(bytes: Uint8Array, start: number, firstChunk: number, chunks: number): void {
    const f = this.filling
    if (!f) return
    new Uint8Array(f.buffer, f.length, bytes.length).set(bytes)
    f.length += bytes.length
    const { segments } = f
    const last = segments.length - 3
    // Back to back with the segment before: one segment (its chunks are consecutive too).
    if (last >= 0 && segments[last]! + segments[last + 1]! === start) {
      segments[last + 1] = segments[last + 1]! + bytes.length
    } else segments.push(start, bytes.length, firstChunk)
    const { ranges } = this.fed
    if (ranges.length > 0 && ranges[ranges.length - 1] === start) ranges[ranges.length - 1] = start + bytes.length
    else ranges.push(start, start + bytes.length)
    this.fed.bytes += bytes.length
    this.fed.chunks += chunks
  }

  private post(): void {
    const f = this.filling
    if (!f) return
    this.filling = undefined
    const message: FeedMessage = {
      kind: 'bytes',
      buffer: f.buffer,
      length: f.length,
      segments: f.segments,
      convention: this.convention,
    }
    this.ports[f.worker]?.postMessage(message, [f.buffer])
  }

  /** Waits for a buffer back; none within `stallMs` stops the feed. */
  private async waitForBuffer(): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined
    await new Promise<void>((resolve) => {
      this.wake = resolve
      timer = setTimeout(resolve, this.stallMs)
    })
    clearTimeout(timer)
    this.wake = undefined
    if (this.free.length === 0) this.stopped = true
  }
}
