import type { Column, ColumnKind, TagDesc, TagValue } from '../types'
import { TYPE_ID } from '../types'

/** The column kind that stores a tag's values. */
export function columnKindOf(tag: TagDesc): ColumnKind {
  switch (tag.type.id) {
    case TYPE_ID.bool:
      return 'bool'
    case TYPE_ID.u8:
      return 'u8'
    case TYPE_ID.u16:
      return 'u16'
    case TYPE_ID.u32:
      return 'u32'
    case TYPE_ID.u64:
      return 'u64'
    case TYPE_ID.f32:
      return 'f32'
    case TYPE_ID.f64:
      return 'f64'
    case TYPE_ID.u128:
      return 'u128'
    case TYPE_ID.i8:
      return 'i8'
    case TYPE_ID.i16:
      return 'i16'
    case TYPE_ID.i32:
      return 'i32'
    case TYPE_ID.i64:
      return 'i64'
    case TYPE_ID.i128:
      return 'i128'
    default:
      return 'values'
  }
}

/** A fresh column for `n` entries (its buffer is ours to transfer). */
export function allocColumn(kind: ColumnKind, n: number): Column {
  switch (kind) {
    case 'bool':
      return { kind, values: new Uint8Array(n) }
    case 'u8':
      return { kind, values: new Uint8Array(n) }
    case 'u16':
      return { kind, values: new Uint16Array(n) }
    case 'u32':
      return { kind, values: new Uint32Array(n) }
    case 'u64':
      return { kind, values: new BigUint64Array(n) }
    case 'i8':
      return { kind, values: new Int8Array(n) }
    case 'i16':
      return { kind, values: new Int16Array(n) }
    case 'i32':
      return { kind, values: new Int32Array(n) }
    case 'i64':
      return { kind, values: new BigInt64Array(n) }
    case 'f32':
      return { kind, values: new Float32Array(n) }
    case 'f64':
      return { kind, values: new Float64Array(n) }
    case 'u128':
    case 'i128':
      return { kind, values: new BigUint64Array(2 * n) }
    case 'values':
      return { kind, values: new Array<TagValue>(n) }
  }
}

const TWO_128 = 1n << 128n

/** Entry `i` of a column as a TagValue (bigint for 64/128-bit, boolean for bool). */
export function columnValue(col: Column, i: number): TagValue {
  switch (col.kind) {
    case 'bool':
      return (col.values[i] ?? 0) !== 0
    case 'u128':
    case 'i128': {
      const lo = col.values[2 * i] ?? 0n
      const hi = col.values[2 * i + 1] ?? 0n
      const v = (hi << 64n) | lo
      return col.kind === 'i128' && hi >= 1n << 63n ? v - TWO_128 : v
    }
    case 'values':
      return col.values[i] ?? 0
    default:
      return col.values[i] ?? 0
  }
}

/** Entry `i` as a Number when it is an integer that fits exactly, else undefined. */
export function columnNumber(col: Column, i: number): number | undefined {
  const v = columnValue(col, i)
  if (typeof v === 'number') return v
  if (typeof v === 'bigint' && v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= -BigInt(Number.MAX_SAFE_INTEGER)) {
    return Number(v)
  }
  return undefined
}

/** Stores a generically read value (variable-width record layouts). */
export function setColumnValue(col: Column, i: number, value: TagValue): void {
  switch (col.kind) {
    case 'values':
      col.values[i] = value
      return
    case 'bool':
      col.values[i] = value === true ? 1 : 0
      return
    case 'u64':
    case 'i64':
      col.values[i] = value as bigint
      return
    case 'u128':
    case 'i128': {
      const big = BigInt.asUintN(128, value as bigint)
      col.values[2 * i] = BigInt.asUintN(64, big)
      col.values[2 * i + 1] = big >> 64n
      return
    }
    default:
      col.values[i] = value as number
  }
}

/**
 * Fills a fixed-width column from `positions` (offsets into `view` of each
 * entry's record or alignment) plus `delta` (the tag's offset inside it).
 * One tight loop per kind keeps the hot path monomorphic.
 */
export function fillFixedColumn(col: Column, view: DataView, positions: Uint32Array, delta: number): void {
  const n = positions.length
  switch (col.kind) {
    case 'u32': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getUint32((positions[i] as number) + delta, true)
      return
    }
    case 'u8':
    case 'bool': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getUint8((positions[i] as number) + delta)
      return
    }
    case 'u16': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getUint16((positions[i] as number) + delta, true)
      return
    }
    case 'u64': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getBigUint64((positions[i] as number) + delta, true)
      return
    }
    case 'i8': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getInt8((positions[i] as number) + delta)
      return
    }
    case 'i16': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getInt16((positions[i] as number) + delta, true)
      return
    }
    case 'i32': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getInt32((positions[i] as number) + delta, true)
      return
    }
    case 'i64': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getBigInt64((positions[i] as number) + delta, true)
      return
    }
    case 'f32': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getFloat32((positions[i] as number) + delta, true)
      return
    }
    case 'f64': {
      const out = col.values
      for (let i = 0; i < n; i++) out[i] = view.getFloat64((positions[i] as number) + delta, true)
      return
    }
    case 'u128':
    case 'i128': {
      const out = col.values
      for (let i = 0; i < n; i++) {
        const p = (positions[i] as number) + delta
        out[2 * i] = view.getBigUint64(p, true)
        out[2 * i + 1] = view.getBigUint64(p + 8, true)
      }
      return
    }
    case 'values':
      throw new Error('internal: fillFixedColumn on a variable-width column')
  }
}

/** Every buffer a decoded chunk owns, de-duplicated, for a transfer list. */
export function columnBuffers(columns: readonly Column[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>()
  for (const col of columns) {
    if (col.kind !== 'values') out.add(col.values.buffer as ArrayBuffer)
  }
  return [...out]
}
