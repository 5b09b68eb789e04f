import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'

const FIRST_BLOCK = 1 << 20

interface Window {
  start: number
  /** Requested size (the last window may come back shorter, at the end of the source). */
  size: number
  bytes: Promise<Uint8Array>
  /** The bytes once the read has finished (lets `peek` answer without awaiting). */
  done?: Uint8Array
  /** `done` handed out by `block`, made once on first use. */
  arrived?: ArrivedBlock
}

/** A block that has arrived, as `SequentialReader.block` hands it out (nothing copied). */
export interface ArrivedBlock {
  /** Source offset of bytes[0]. */
  readonly start: number
  readonly bytes: Uint8Array
  /** The same bytes as little-endian u32 words (word i = bytes 4i..4i+3), or undefined when unaligned. */
  readonly words: Uint32Array | undefined
}

/**
 * Reads a source front to back in fixed blocks with several reads in flight
 * (bench/results.md: Blob reads reach ~1 GB/s only with large blocks and more than one
 * outstanding), and hands out byte ranges that only move forward. A range
 * inside one block is a view; one that straddles blocks is copied (at most a
 * chunk). Blocks start small (1 MiB, so the first chunks arrive fast and a file
 * of huge chunks does not prefetch 100 MB before the walk decides to hop) and
 * grow ×4 up to `blockSize`. Every block size is a multiple of 4 and the grid
 * starts at `origin`, so ranges at the same alignment as `origin` keep it
 * (4-byte aligned records stay aligned).
 */
export class SequentialReader {
  private readonly windows: Window[] = []
  private next: number
  private readonly source: ByteSource
  private readonly blockSize: number
  private readonly depth: number
  private readonly signal: AbortSignal | undefined
  private nextSize: number
  /** Whole blocks read before and left behind, to read into again (`reuse`). */
  private readonly spare: ArrayBuffer[] | undefined

  /**
   * `reuse`: read whole blocks into the buffers of blocks left behind (the source's readInto),
   * not fresh memory: a caller that keeps no view of a block it has moved past (the walk while it
   * feeds the statistics, which copies what it hands on; ADR 0017).
   */
  constructor(
    source: ByteSource,
    origin: number,
    blockSize: number,
    depth: number,
    signal?: AbortSignal,
    reuse = false,
  ) {
    this.source = source
    this.next = origin
    this.blockSize = blockSize
    this.depth = Math.max(1, depth)
    this.signal = signal
    this.nextSize = Math.min(FIRST_BLOCK, blockSize)
    this.spare = reuse && source.readInto ? [] : undefined
  }

  /** A read of [start, start+size): into a spare buffer when there is one for a whole block. */
  private read(start: number, size: number): Promise<Uint8Array> {
    const into = size === this.blockSize ? this.spare?.pop() : undefined
    const readInto = into && this.source.readInto?.bind(this.source)
    if (!into || !readInto) return this.source.read(start, size, this.signal)
    return readInto(start, size, into, this.signal).then((bytes) => bytes ?? this.source.read(start, size, this.signal))
  }

  /** Drops the first window; its buffer is read into again when it held a whole block. */
  private dropFirst(): void {
    const gone = this.windows.shift()
    const buffer = gone?.done?.buffer
    if (
      this.spare &&
      buffer instanceof ArrayBuffer &&
      buffer.byteLength === this.blockSize &&
      this.spare.length < this.depth
    ) {
      this.spare.push(buffer)
    }
  }

  /** Keeps `depth` reads in flight, or at least `count` windows when a range needs them. */
  private fill(count = this.depth): void {
    while (this.windows.length < count && this.next < this.source.size) {
      const start = this.next
      const size = this.nextSize
      const window: Window = { start, size, bytes: this.read(start, size) }
      window.bytes.then(
        (bytes) => (window.done = bytes),
        () => undefined,
      )
      this.windows.push(window)
      this.next += size
      this.nextSize = Math.min(size * 4, this.blockSize)
    }
  }

  /**
   * Bytes [at, at+length) when they lie in the first window and it has
   * arrived; undefined otherwise (then call `get`). Saves two awaits per chunk
   * when chunks are tiny (a collated file has a million).
   */
  peek(at: number, length: number): Uint8Array | undefined {
    const first = this.windows[0]
    const bytes = first?.done
    if (!first || !bytes || at < first.start || at + length > first.start + bytes.length) return undefined
    return bytes.subarray(at - first.start, at + length - first.start)
  }

  /**
   * Like `peek`, without making a view: the first window, when it has arrived
   * and holds [at, at+length), for walks that index it themselves (a million
   * tiny chunks must not cost a million views).
   */
  block(at: number, length: number): ArrivedBlock | undefined {
    const first = this.windows[0]
    const bytes = first?.done
    if (!first || !bytes || at < first.start || at + length > first.start + bytes.length) return undefined
    first.arrived ??= {
      start: first.start,
      bytes,
      words:
        bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2) : undefined,
    }
    return first.arrived
  }

  /** Bytes [at, at+length), clipped at the end of the source. `at` never goes back. */
  async get(at: number, length: number): Promise<Uint8Array> {
    const end = Math.min(at + length, this.source.size)
    while (this.windows.length > 0 && (this.windows[0]?.start ?? 0) + (this.windows[0]?.size ?? 0) <= at) {
      this.dropFirst()
    }
    // Skipped ahead past everything read: restart there, on the same 4-byte grid.
    if (this.windows.length === 0 && at > this.next) this.next = at - ((at - this.next) % 4)
    this.fill()
    const first = this.windows[0]
    if (!first) return new Uint8Array(0)
    const firstBytes = await first.bytes
    throwIfAborted(this.signal)
    if (end <= first.start + firstBytes.length) return firstBytes.subarray(at - first.start, end - first.start)
    const out = new Uint8Array(end - at)
    let pos = at
    for (let i = 0; pos < end; i++) {
      this.fill(i + 1)
      const w = this.windows[i]
      if (!w) break
      const bytes = await w.bytes
      const piece = bytes.subarray(pos - w.start, Math.min(bytes.length, end - w.start))
      if (piece.length === 0) break
      out.set(piece, pos - at)
      pos += piece.length
    }
    throwIfAborted(this.signal)
    return pos === end ? out : out.subarray(0, pos - at)
  }
}
