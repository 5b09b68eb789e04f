import { RadError, fmtInt } from '../rad/errors'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'

/**
 * Chrome fails single Blob reads of 2 GiB or more with a misleading
 * NotReadableError; callers keep reads well below this.
 */
export const MAX_BLOB_READ = 1 << 30

/**
 * A Blob or File read with `Blob.slice(...).arrayBuffer()`, or with a BYOB
 * reader of `Blob.stream()` into the caller's buffer (readInto).
 */
export class BlobSource implements ByteSource {
  private readonly blob: Blob
  /** `arrayBuffer()` resolves to new memory on every read. */
  readonly ownedReads = true
  /** The BYOB read under way, if any (readInto). */
  private byobQueue: Promise<void> = Promise.resolve()

  constructor(blob: Blob) {
    this.blob = blob
  }

  get size(): number {
    return this.blob.size
  }

  get name(): string {
    return 'name' in this.blob && typeof this.blob.name === 'string' ? this.blob.name : 'blob'
  }

  async read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfAborted(signal)
    const end = Math.min(this.size, offset + length)
    if (end <= offset) return new Uint8Array(0)
    if (end - offset > MAX_BLOB_READ) {
      throw new Error(`internal: Blob read of ${String(end - offset)} bytes is too large`)
    }
    let buffer: ArrayBuffer
    try {
      buffer = await this.blob.slice(offset, end).arrayBuffer()
    } catch (e) {
      throw readFailed(e, offset, end - offset)
    }
    throwIfAborted(signal)
    return new Uint8Array(buffer)
  }

  /**
   * Reads into `into` with a BYOB reader; undefined when `into` is too small
   * or the browser's Blob stream is not a byte stream (then `into` is
   * untouched). Once reading starts `into` is detached: the bytes come back
   * on the buffer the stream moved it to.
   */
  readInto(offset: number, length: number, into: ArrayBuffer, signal?: AbortSignal): Promise<Uint8Array | undefined> {
    // One BYOB read at a time: in Chromium a second Blob byte stream read at once can stall for
    // good (a statistics pass stood still at its second batch). One read still overlaps the other
    // lane's decoding, which is what two calls in flight are for (BULK_DEPTH).
    const read = this.byobQueue.then(() => this.readIntoNow(offset, length, into, signal))
    this.byobQueue = read.then(
      () => undefined,
      () => undefined,
    )
    return read
  }

  private async readIntoNow(
    offset: number,
    length: number,
    into: ArrayBuffer,
    signal?: AbortSignal,
  ): Promise<Uint8Array | undefined> {
    throwIfAborted(signal)
    const end = Math.min(this.size, offset + length)
    if (end - offset > into.byteLength) return undefined
    if (end <= offset) return new Uint8Array(into, 0, 0)
    let reader: ReadableStreamBYOBReader
    try {
      reader = this.blob.slice(offset, end).stream().getReader({ mode: 'byob' })
    } catch {
      return undefined
    }
    const want = end - offset
    let buffer = into
    let got = 0
    try {
      while (got < want) {
        const step = await stallGuard(reader.read(new Uint8Array(buffer, got, want - got)))
        if (step === 'stalled' || (step.value?.byteLength === 0 && !step.done)) {
          reader.cancel().catch(() => undefined)
          return await this.read(offset, length, signal)
        }
        const { value, done } = step
        if (!value) break
        buffer = value.buffer
        got += value.byteLength
        if (done) break
      }
    } catch (e) {
      throw e instanceof RadError ? e : readFailed(e, offset, want)
    } finally {
      releaseQuietly(reader)
    }
    throwIfAborted(signal)
    return new Uint8Array(buffer, 0, got)
  }
}

/**
 * A BYOB read step that has not answered in this long has stalled (Chromium, now and then, even
 * one read at a time), as has one that answers with no bytes: the read is made again with
 * arrayBuffer(), so a pass never stands still.
 */
const BYOB_STALL_MS = 10_000

function stallGuard<T>(step: Promise<T>): Promise<T | 'stalled'> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const stalled = new Promise<'stalled'>((resolve) => {
    timer = setTimeout(() => {
      resolve('stalled')
    }, BYOB_STALL_MS)
  })
  return Promise.race([step, stalled]).finally(() => {
    clearTimeout(timer)
  })
}

/** Releases the reader; a read still pending after a stall makes some engines throw here. */
function releaseQuietly(reader: ReadableStreamBYOBReader): void {
  try {
    reader.releaseLock()
  } catch {
    // The stream was cancelled; nothing is held.
  }
}

function readFailed(e: unknown, offset: number, length: number): RadError {
  const why = e instanceof Error ? e.message : String(e)
  return new RadError(
    'READ_FAILED',
    `could not read ${fmtInt(length)} bytes at byte ${fmtInt(offset)}: ${why} (was the file moved or changed?)`,
    offset,
  )
}
