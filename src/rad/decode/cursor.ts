import { RadError, fmtInt, truncatedError } from '../errors'
import { utf8Text } from '../runtime'

/**
 * Thrown by a cursor whose window ends before the file does: the caller reads
 * a larger window and tries again (sans-IO "need more", docs/architecture.md §3).
 * Never escapes the io layer.
 */
export class NeedMoreBytes extends Error {
  readonly until: number
  constructor(until: number) {
    super(`need bytes up to ${String(until)}`)
    this.until = until
  }
}

const TWO_32 = 2 ** 32

/**
 * Bounds-checked little-endian reader over a window of the file
 * (docs/format.md: all multi-byte values are LE). Positions are absolute file
 * offsets. Reading past the window throws `NeedMoreBytes` when more of the file
 * exists, and `RadError('TRUNCATED')` when the window reaches the end of file.
 */
export class Cursor {
  readonly view: DataView
  /** Absolute file offset of bytes[0]. */
  readonly base: number
  /** Absolute position of the next read. */
  pos: number
  /** What is being read, for error messages ("reference name 12"). */
  context = 'the file'

  readonly bytes: Uint8Array
  /** Total size of the file (or stream) the window belongs to. */
  readonly fileSize: number

  constructor(bytes: Uint8Array, base: number, fileSize: number) {
    this.bytes = bytes
    this.fileSize = fileSize
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    this.base = base
    this.pos = base
  }

  get end(): number {
    return this.base + this.bytes.byteLength
  }

  get remaining(): number {
    return this.end - this.pos
  }

  /** Throws unless `n` more bytes are available; returns the window index of pos. */
  need(n: number): number {
    if (this.pos + n > this.end) {
      if (this.end < this.fileSize) throw new NeedMoreBytes(this.pos + n)
      throw truncatedError(this.context, n, this.pos, this.fileSize)
    }
    return this.pos - this.base
  }

  /** Checks `n` bytes are there, moves past them, and returns the window index where they start. */
  private take(n: number): number {
    const i = this.need(n)
    this.pos += n
    return i
  }

  skip(n: number): void {
    this.take(n)
  }

  u8(): number {
    return this.view.getUint8(this.take(1))
  }

  u16(): number {
    return this.view.getUint16(this.take(2), true)
  }

  u32(): number {
    return this.view.getUint32(this.take(4), true)
  }

  /** A u64 value as a bigint (tag values, §3); counts and sizes use u64Number. */
  u64(): bigint {
    return this.view.getBigUint64(this.take(8), true)
  }

  /** A u64 that must fit a Number exactly (counts, sizes): hi*2^32+lo. */
  u64Number(what: string): number {
    const at = this.pos
    const i = this.take(8)
    const lo = this.view.getUint32(i, true)
    const hi = this.view.getUint32(i + 4, true)
    if (hi >= 0x200000) {
      const value = this.view.getBigUint64(i, true)
      throw new RadError(
        'VALUE_TOO_LARGE',
        `${what} at byte ${fmtInt(at)} is ${value.toString()}, larger than any real file could hold`,
        at,
      )
    }
    return hi * TWO_32 + lo
  }

  /** u128 (§3): two little-endian u64 halves, low first. */
  u128(): bigint {
    const i = this.take(16)
    return (this.view.getBigUint64(i + 8, true) << 64n) | this.view.getBigUint64(i, true)
  }

  i8(): number {
    return this.view.getInt8(this.take(1))
  }

  i16(): number {
    return this.view.getInt16(this.take(2), true)
  }

  i32(): number {
    return this.view.getInt32(this.take(4), true)
  }

  i64(): bigint {
    return this.view.getBigInt64(this.take(8), true)
  }

  /** i128 (§3): a u128 read as two's complement. */
  i128(): bigint {
    return BigInt.asIntN(128, this.u128())
  }

  f32(): number {
    return this.view.getFloat32(this.take(4), true)
  }

  f64(): number {
    return this.view.getFloat64(this.take(8), true)
  }

  bytesOf(n: number): Uint8Array {
    const i = this.take(n)
    return this.bytes.subarray(i, i + n)
  }

  /** str16: u16 byte length, then that many UTF-8 bytes (docs/format.md conventions). */
  str16(): string {
    const len = this.u16()
    return decodeUtf8(this.bytesOf(len))
  }
}

/** Fast path for the common all-ASCII name; TextDecoder otherwise. */
export function decodeUtf8(bytes: Uint8Array): string {
  if (bytes.length <= 64) {
    let ascii = true
    for (let i = 0; i < bytes.length; i++) {
      if ((bytes[i] ?? 0) >= 0x80) {
        ascii = false
        break
      }
    }
    if (ascii) return String.fromCharCode(...bytes)
  }
  return utf8Text(bytes)
}
