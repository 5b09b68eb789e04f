/**
 * Dictionary-encoded Parquet columns built by this project, not by the writer
 * (ADR 0012): each row's value is looked up by an integer key (a barcode's
 * 2-bit words, a reference id, an orientation bit, a small number) in an
 * open-addressing table, so no string is made or hashed per row; a value new
 * to the row group is written once, PLAIN, into the dictionary page's bytes.
 * `take()` gives the two pages' bodies (the dictionary page and the data
 * page's bit-packed indices); io/parquetRowGroup.ts writes them with headers.
 * Buffers are reused from one row group to the next.
 */
import type { ParquetEncoding } from './parquetSchema'
import { writeBases } from './parquetSequences'
import { encodeUtf8 } from '../runtime'

/** A column chunk's page bodies, encoded here; the writer adds headers and metadata. */
export interface EncodedPages {
  encoding: ParquetEncoding
  rows: number
  /** The dictionary page's PLAIN values and their count (RLE_DICTIONARY). */
  dictionary?: { bytes: Uint8Array; count: number }
  /** The data page: the indices' bit width then one bit-packed run, or the PLAIN values. */
  data: Uint8Array
  /** Whether the data page is worth compressing (PLAIN byte arrays are; bit-packed indices are not). */
  compress: boolean
}

const EMPTY = 0

function hash(lo: number, hi: number): number {
  let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b)
  h ^= h >>> 13
  return Math.imul(h, 0xc2b2ae35) ^ (h >>> 16)
}

/** A growing byte buffer, reused: `at` bytes are set. */
export class Bytes {
  buf = new Uint8Array(1 << 16)
  at = 0

  /** Makes room for `n` more bytes and returns the offset to write them at. */
  grow(n: number): number {
    if (this.at + n > this.buf.length) {
      const next = new Uint8Array(Math.max(this.buf.length * 2, this.at + n))
      next.set(this.buf.subarray(0, this.at))
      this.buf = next
    }
    const at = this.at
    this.at += n
    return at
  }

  u32(at: number, v: number): void {
    const b = this.buf
    b[at] = v & 255
    b[at + 1] = (v >>> 8) & 255
    b[at + 2] = (v >>> 16) & 255
    b[at + 3] = v >>> 24
  }
}

/** `indices[0..n)` as a data page body: the bit width, then one bit-packed run (parquet-format Encodings.md). */
function bitPacked(out: Bytes, indices: Int32Array, n: number, width: number): Uint8Array {
  const groups = Math.ceil(n / 8)
  out.at = 0
  out.buf[out.grow(1)] = width
  for (let v = groups * 2 + 1; ; v = Math.floor(v / 128)) {
    const at = out.grow(1)
    out.buf[at] = v < 128 ? v : (v & 127) | 128
    if (v < 128) break
  }
  const start = out.grow(groups * width)
  const b = out.buf
  b.fill(0, start, start + groups * width)
  let at = start
  let acc = 0
  let bits = 0
  for (let i = 0; i < n; i++) {
    acc |= (indices[i] ?? 0) << bits
    bits += width
    while (bits >= 8) {
      b[at++] = acc & 255
      acc >>>= 8
      bits -= 8
    }
  }
  if (bits > 0) b[at] = acc & 255
  return b.subarray(0, out.at)
}

/** The values of one dictionary-encoded column in the row group being gathered. */
export class DictionaryValues {
  /** Per row, its value's index in the dictionary; [0, length) are set. */
  indices: Int32Array = new Int32Array(1 << 16)
  length = 0
  /** Values in the dictionary. */
  count = 0
  private readonly values = new Bytes()
  private readonly page = new Bytes()
  /** Open addressing: entry + 1 per slot (0 empty), the entry's key in keyLo/keyHi. */
  private slots = new Int32Array(1 << 12)
  private keyLo: Int32Array = new Int32Array(1 << 11)
  private keyHi: Int32Array = new Int32Array(1 << 11)
  /** The slot a missed `find` left for the value added next. */
  private pending = -1
  private readonly texts = new Map<string, number>()

  /** Room for `n` more rows; returns the indices array to write at `length`. */
  reserve(n: number): Int32Array {
    if (this.length + n > this.indices.length) {
      const next = new Int32Array(Math.max(this.indices.length * 2, this.length + n))
      next.set(this.indices.subarray(0, this.length))
      this.indices = next
    }
    return this.indices
  }

  /** The index of the value keyed (lo, hi), or -1: then an `add…` call must follow, for that value. */
  find(lo: number, hi: number): number {
    const mask = this.slots.length - 1
    for (let s = hash(lo, hi) & mask; ; s = (s + 1) & mask) {
      const e = (this.slots[s] ?? EMPTY) - 1
      if (e < 0) {
        this.pending = s
        return -1
      }
      if (this.keyLo[e] === (lo | 0) && this.keyHi[e] === (hi | 0)) return e
    }
  }

  /** Adds the value `find` missed: a `len`-base sequence packed in (lo, hi), as ACGT text. */
  addSequence(lo: number, hi: number, len: number): number {
    const at = this.values.grow(4 + len)
    this.values.u32(at, len)
    writeBases(this.values.buf, at + 4, lo, hi, len)
    return this.keyed(lo, hi)
  }

  /** Adds the value `find` missed: a byte array (UTF-8 text). */
  addBytes(lo: number, hi: number, bytes: Uint8Array): number {
    const at = this.values.grow(4 + bytes.length)
    this.values.u32(at, bytes.length)
    this.values.buf.set(bytes, at + 4)
    return this.keyed(lo, hi)
  }

  /** Adds the value `find` missed: the INT32 `lo`. */
  addInt32(lo: number): number {
    this.values.u32(this.values.grow(4), lo)
    return this.keyed(lo, 0)
  }

  /** The index of a text value (for values without an integer key). */
  text(s: string): number {
    let e = this.texts.get(s)
    if (e === undefined) {
      const bytes = encodeUtf8(s)
      const at = this.values.grow(4 + bytes.length)
      this.values.u32(at, bytes.length)
      this.values.buf.set(bytes, at + 4)
      e = this.count++
      this.texts.set(s, e)
    }
    return e
  }

  private keyed(lo: number, hi: number): number {
    const e = this.count++
    if (e >= this.keyLo.length) {
      const size = this.keyLo.length * 2
      const grown = (a: Int32Array): Int32Array => {
        const b = new Int32Array(size)
        b.set(a)
        return b
      }
      this.keyLo = grown(this.keyLo)
      this.keyHi = grown(this.keyHi)
    }
    this.keyLo[e] = lo
    this.keyHi[e] = hi
    this.slots[this.pending] = e + 1
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2)
    return e
  }

  private rehash(size: number): void {
    const old = this.slots
    this.slots = new Int32Array(size)
    const mask = size - 1
    for (const slot of old) {
      if (slot === EMPTY) continue
      let s = hash(this.keyLo[slot - 1] ?? 0, this.keyHi[slot - 1] ?? 0) & mask
      while (this.slots[s] !== EMPTY) s = (s + 1) & mask
      this.slots[s] = slot
    }
  }

  /** The row group's pages (views valid until the next row is added); the column starts again empty. */
  take(): EncodedPages {
    const rows = this.length
    const width = this.count > 1 ? Math.ceil(Math.log2(this.count)) : 0
    const data = bitPacked(this.page, this.indices, rows, width)
    const dictionary = { bytes: this.values.buf.subarray(0, this.values.at), count: this.count }
    this.length = 0
    this.count = 0
    this.values.at = 0
    this.slots.fill(EMPTY)
    this.texts.clear()
    return { encoding: 'RLE_DICTIONARY', rows, dictionary, data, compress: false }
  }
}
