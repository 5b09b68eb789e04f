/**
 * A byte array as a ByteSource that records every read and refuses nonsense
 * ones (negative, fractional or non-finite offsets and lengths), so a test
 * can check a reader never reads past a bound, nor more than it should.
 */
import type { ByteSource } from '../../src/io/byteSource'

export class RecordingSource implements ByteSource {
  readonly name = 'recorded.rad'
  readonly bytes: Uint8Array
  readonly reads: { offset: number; length: number; got: number }[] = []

  constructor(bytes: Uint8Array) {
    this.bytes = bytes
  }

  get size(): number {
    return this.bytes.length
  }

  /** Bytes handed out so far. */
  get bytesRead(): number {
    let n = 0
    for (const r of this.reads) n += r.got
    return n
  }

  /** Reads that start beyond the end of the file (one at exactly the end is an empty read, allowed). */
  get readsPastEnd(): { offset: number; length: number }[] {
    return this.reads.filter((r) => r.offset > this.size)
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      // A plain Error: the property tests fail on anything that is not a RadError.
      return Promise.reject(new Error(`RecordingSource.read(${String(offset)}, ${String(length)}): not a valid range`))
    }
    const end = Math.min(this.size, offset + length)
    const out = this.bytes.slice(Math.min(offset, end), end)
    this.reads.push({ offset, length, got: out.length })
    return Promise.resolve(out)
  }
}
