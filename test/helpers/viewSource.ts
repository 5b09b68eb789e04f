/**
 * A byte array as a ByteSource whose reads are views on that array, not
 * copies (as a source with a cache hands them out), and which does not claim
 * `ownedReads`: a reader that writes into what it read changes `bytes`, and a
 * test sees it.
 */
import type { ByteSource } from '../../src/io/byteSource'

export class ViewSource implements ByteSource {
  readonly name = 'views.rad'
  /** A copy of the bytes given, placed so that byte `alignAt` sits on a 4-byte boundary of its buffer. */
  readonly bytes: Uint8Array

  /**
   * `alignAt`: a file position whose views should be word-aligned, e.g. the
   * first chunk's, so that a reader could decode those views in place
   * (decodeChunkInPlace needs 4-byte alignment) if it wrongly tried.
   */
  constructor(bytes: Uint8Array, alignAt = 0) {
    const pad = (4 - (alignAt % 4)) % 4
    this.bytes = new Uint8Array(pad + bytes.length).subarray(pad)
    this.bytes.set(bytes)
  }

  get size(): number {
    return this.bytes.length
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(this.size, offset + length)
    return Promise.resolve(this.bytes.subarray(Math.min(offset, end), end))
  }
}
