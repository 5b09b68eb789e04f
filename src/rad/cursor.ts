import { RadError, fmtInt, truncatedError } from './errors'

/**
 * Thrown by a cursor whose window ends before the file does: the caller reads
 * a larger window and tries again (sans-IO "need more", ARCHITECTURE §4.2).
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
 * (RAD-FORMAT.md: all multi-byte values are LE). Positions are absolute file
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

  skip(n: number): void {
    this.need(n)
    this.pos += n
  }

  u8(): number {
    const i = this.need(1)
    this.pos += 1
    return this.view.getUint8(i)
  }

  u16(): number {
    const i = this.need(2)
    this.pos += 2
    return this.view.getUint16(i, true)
  }

  u32(): number {
    const i = this.need(4)
    this.pos += 4
    return this.view.getUint32(i, true)
  }

  /** A u64 that must fit a Number exactly (counts, sizes): hi*2^32+lo. */
  u64Number(what: string): number {
    const at = this.pos
    const i = this.need(8)
    this.pos += 8
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

  bytesOf(n: number): Uint8Array {
    const i = this.need(n)
    this.pos += n
    return this.bytes.subarray(i, i + n)
  }

  /** str16: u16 byte length, then that many UTF-8 bytes (RAD-FORMAT.md conventions). */
  str16(): string {
    const len = this.u16()
    return decodeUtf8(this.bytesOf(len))
  }
}

interface Utf8Decoder {
  decode(input: Uint8Array): string
}
// TextDecoder exists in every runtime we target (browsers, workers, Node), but
// the core compiles against ES2022 alone, which does not declare it.
const utf8 = new (globalThis as unknown as { TextDecoder: new (label: string) => Utf8Decoder }).TextDecoder('utf-8')

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
  return utf8.decode(bytes)
}
