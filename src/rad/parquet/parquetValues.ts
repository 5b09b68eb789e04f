/**
 * The values of one Parquet column (parquetSchema.ts) as they gather before a
 * row group is written: a growing typed array for numbers, an array for
 * strings, booleans and lists. `take()` hands them over in the form the
 * writer (hyparquet-writer, ADR 0012) takes fastest.
 */
import { Bytes } from './parquetDictionary'
import { encodeUtf8 } from '../runtime'
import type { EncodedPages } from './parquetDictionary'
import type { ParquetKind } from './parquetSchema'

/** A list element of `--per record` tables: one alignment's fields. */
export type AlignmentRow = Record<string, number | bigint | boolean | string>

/** One value held in an array (not a typed array). */
export type PlainValue = boolean | string | AlignmentRow[]

/** A column's values for the writer, or its pages encoded here (parquetDictionary.ts). */
export type ParquetData =
  Int32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array | number[] | PlainValue[] | EncodedPages

export type TypedValues = Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array

function alloc(kind: ParquetKind, n: number): TypedValues | undefined {
  switch (kind) {
    case 'i32':
      return new Int32Array(n)
    case 'u32':
      return new Uint32Array(n)
    case 'i64':
      return new BigInt64Array(n)
    case 'u64':
      return new BigUint64Array(n)
    case 'f32':
      return new Float32Array(n)
    case 'f64':
    case 'n64':
      return new Float64Array(n)
    default:
      return undefined
  }
}

function allBelow(values: Float64Array, n: number, limit: number): boolean {
  for (let i = 0; i < n; i++) if ((values[i] ?? 0) >= limit) return false
  return true
}

export class ColumnValues {
  /** Typed storage for numeric kinds; entries [0, length) are set. */
  typed: TypedValues | undefined
  /** Storage for strings, booleans and lists; entries [0, length) are set. */
  plain: PlainValue[]
  length = 0
  readonly kind: ParquetKind
  private readonly capacity: number

  constructor(kind: ParquetKind, capacity: number) {
    this.kind = kind
    this.capacity = Math.max(capacity, 1024)
    this.typed = alloc(kind, this.capacity)
    this.plain = this.typed ? [] : new Array<PlainValue>(this.capacity)
  }

  /** Room for `extra` more typed entries; returns the typed array to write at `length`. */
  reserve(extra: number): TypedValues {
    const old = this.typed
    if (!old) throw new Error(`internal: column of kind ${this.kind} has no typed storage`)
    if (this.length + extra <= old.length) return old
    const next = alloc(this.kind, Math.max(old.length * 2, this.length + extra)) as TypedValues
    ;(next as Float64Array).set(old as Float64Array)
    this.typed = next
    return next
  }

  push(value: PlainValue): void {
    this.plain[this.length++] = value
  }

  /** The values so far; the column starts again empty. */
  take(): ParquetData {
    const n = this.length
    const typed = this.typed
    this.length = 0
    if (!typed) {
      const out = this.plain
      out.length = n
      this.plain = new Array<PlainValue>(this.capacity)
      return out
    }
    this.typed = alloc(this.kind, this.capacity)
    // UINT_32 goes as plain numbers: hyparquet-writer 0.17.0 checks a Uint32Array's values
    // against the signed INT32 range and rejects those ≥ 2^31 (ADR 0012).
    if (typed instanceof Uint32Array) return Array.from(typed.subarray(0, n))
    // Record numbers below 2^31 go as an Int32Array: the writer's delta encoder then needs no BigInt.
    if (this.kind === 'n64' && allBelow(typed as Float64Array, n, 2 ** 31)) {
      return Int32Array.from(typed.subarray(0, n) as Float64Array)
    }
    return typed.subarray(0, n)
  }
}

/**
 * Byte arrays written PLAIN (UMIs: hardly any comes back beyond its record, so
 * a dictionary would hold nearly every one again): each row's length and ASCII
 * go straight into the data page's body, no value object per row.
 */
export class PlainByteArrays {
  length = 0
  private readonly page = new Bytes()

  /** Appends `value` as the next row. */
  push(value: Uint8Array | string): void {
    const bytes = typeof value === 'string' ? encodeUtf8(value) : value
    const n = bytes.length
    const at = this.page.grow(4 + n)
    this.page.u32(at, n)
    const b = this.page.buf
    for (let i = 0; i < n; i++) b[at + 4 + i] = bytes[i] ?? 0
    this.length++
  }

  /** The row group's data page (a view valid until the next push); the column starts again empty. */
  take(): EncodedPages {
    const rows = this.length
    const data = this.page.buf.subarray(0, this.page.at)
    this.length = 0
    this.page.at = 0
    return { encoding: 'PLAIN', rows, data, compress: true }
  }
}
