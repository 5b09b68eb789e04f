import { RadError, fmtInt } from '../rad/errors'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'

/**
 * Chrome fails single Blob reads of 2 GiB or more with a misleading
 * NotReadableError; callers keep reads well below this.
 */
export const MAX_BLOB_READ = 1 << 30

/** A Blob or File read with `Blob.slice(...).arrayBuffer()`. */
export class BlobSource implements ByteSource {
  private readonly blob: Blob

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
      const why = e instanceof Error ? e.message : String(e)
      throw new RadError(
        'READ_FAILED',
        `could not read ${fmtInt(end - offset)} bytes at byte ${fmtInt(offset)}: ${why} (was the file moved or changed?)`,
        offset,
      )
    }
    throwIfAborted(signal)
    return new Uint8Array(buffer)
  }
}

/**
 * Reads blob[offset, offset + length) into `into` (from its byte 0) with a
 * BYOB reader, or returns undefined when the browser's Blob stream is not a
 * byte stream. `into` is detached; the bytes come back on its memory.
 */
export async function readBlobInto(
  blob: Blob,
  offset: number,
  length: number,
  into: ArrayBuffer,
): Promise<Uint8Array | undefined> {
  let reader: ReadableStreamBYOBReader
  try {
    reader = blob
      .slice(offset, offset + length)
      .stream()
      .getReader({ mode: 'byob' })
  } catch {
    return undefined
  }
  let buffer = into
  let got = 0
  try {
    while (got < length) {
      const { value, done } = await reader.read(new Uint8Array(buffer, got, length - got))
      if (!value) break
      buffer = value.buffer
      got += value.byteLength
      if (done) break
    }
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    throw new RadError(
      'READ_FAILED',
      `could not read ${fmtInt(length)} bytes at byte ${fmtInt(offset)}: ${why} (was the file moved or changed?)`,
      offset,
    )
  } finally {
    reader.releaseLock()
  }
  return new Uint8Array(buffer, 0, got)
}
