/**
 * Rows of the Parquet table (parquetSchema.ts) gathered from decoded chunks,
 * column by column, until the writer takes them as one row group. Rows follow
 * `view` (viewLine.ts): one per alignment, and one per record for a file
 * without alignment tags; with `perRecord`, one per record and its alignments
 * as a list. Values are decoded as `view` decodes them (display.ts): the same
 * sequences, reference names and orientations.
 */
import { columnValue } from './columns'
import { canonicalJson, sequenceText, unpackAlignment, valueText } from './display'
import { ALIGNMENTS_COLUMN } from './parquetSchema'
import type { ParquetColumn, ParquetKind, ParquetPlan } from './parquetSchema'
import type { Semantics, SequenceField } from './semantics'
import type { ChunkColumns, Column, Prelude, TagValue } from './types'

/** One value as the writer takes it. */
export type ParquetValue = number | bigint | boolean | string | AlignmentRow[]
type AlignmentRow = Record<string, number | bigint | boolean | string>

/** A column's values for the writer: typed arrays for numbers, arrays otherwise. */
export type ParquetData = Int32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array | ParquetValue[]

/** Values of one column, growing as rows come. */
class ColumnValues {
  private typed: Int32Array | Uint32Array | BigInt64Array | BigUint64Array | Float32Array | Float64Array | undefined
  private plain: ParquetValue[] = []
  length = 0
  private readonly kind: ParquetKind
  private readonly capacity: number

  constructor(kind: ParquetKind, capacity: number) {
    this.kind = kind
    this.capacity = capacity
    this.typed = ColumnValues.alloc(kind, capacity)
  }

  private static alloc(kind: ParquetKind, n: number): ColumnValues['typed'] {
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
        return new Float64Array(n)
      default:
        return undefined
    }
  }

  push(value: ParquetValue): void {
    const typed = this.typed
    if (!typed) {
      this.plain.push(value)
      this.length++
      return
    }
    if (this.length === typed.length) this.grow()
    ;(this.typed as { [i: number]: ParquetValue })[this.length++] = value
  }

  private grow(): void {
    const old = this.typed
    const next = ColumnValues.alloc(this.kind, Math.max(1024, (old?.length ?? 0) * 2))
    if (old && next) (next as Int32Array).set(old as Int32Array)
    this.typed = next
  }

  /** The values so far, for the writer; the column starts again empty. */
  take(): ParquetData {
    const n = this.length
    const typed = this.typed
    this.length = 0
    if (!typed) {
      const out = this.plain
      this.plain = []
      return out
    }
    this.typed = ColumnValues.alloc(this.kind, Math.max(this.capacity, 1024))
    // UINT_32 goes as plain numbers: hyparquet-writer 0.17.0 checks a Uint32Array's values
    // against the signed INT32 range and rejects those ≥ 2^31 (ADR 0012).
    if (typed instanceof Uint32Array) return Array.from(typed.subarray(0, n))
    return typed.subarray(0, n) as ParquetData
  }
}

/** Cached sequences (barcodes repeat on every alignment and across records); cleared when large. */
const SEQUENCE_CACHE_LIMIT = 1 << 20

/** A tag value as its column kind holds it: 128-bit integers as decimal text, arrays as JSON. */
function tagValue(col: Column, i: number, kind: ParquetKind): ParquetValue {
  const v: TagValue = columnValue(col, i)
  if (kind !== 'string') return typeof v === 'object' ? 0 : v
  if (Array.isArray(v)) return JSON.stringify(canonicalJson(v))
  return valueText(v)
}

/** Builds the rows of one table; `take()` hands them to the writer as one row group. */
export class ParquetRows {
  private readonly values: ColumnValues[]
  private readonly fields: ParquetColumn[]
  private readonly caches = new Map<number, Map<number | bigint, string>>()
  private readonly oneRowPerRecord: boolean
  rows = 0
  readonly plan: ParquetPlan
  private readonly prelude: Prelude
  private readonly sem: Semantics

  constructor(plan: ParquetPlan, prelude: Prelude, sem: Semantics, capacity: number) {
    this.plan = plan
    this.prelude = prelude
    this.sem = sem
    this.fields = plan.alignmentFields
    this.values = plan.columns.map((c) => new ColumnValues(c.kind, capacity))
    if (plan.schema.length > plan.columns.length + 1) this.values.push(new ColumnValues('string', capacity))
    this.oneRowPerRecord = plan.perRecord || prelude.alnTags.length === 0
  }

  /** Adds the rows of records `records` (chunk-relative) of a chunk whose record 0 is `firstRecord`. */
  addChunk(cols: ChunkColumns, firstRecord: number, records: ArrayLike<number>): void {
    for (let i = 0; i < records.length; i++) {
      const r = records[i] ?? 0
      const start = cols.alnStart[r] ?? 0
      const naln = (cols.alnStart[r + 1] ?? 0) - start
      if (this.plan.perRecord) {
        this.addRow(cols, firstRecord + r, r, naln, start, 0)
        this.values[this.plan.columns.length]?.push(this.alignmentList(cols, r, start, naln))
        this.rows++
        continue
      }
      const shown = this.oneRowPerRecord ? Math.min(naln, 1) : naln
      for (let a = 0; a < shown; a++) this.addRow(cols, firstRecord + r, r, naln, start + a, a)
      this.rows += shown
    }
  }

  private addRow(cols: ChunkColumns, record: number, r: number, naln: number, k: number, a: number): void {
    const columns = this.plan.columns
    for (let c = 0; c < columns.length; c++) {
      const col = columns[c] as ParquetColumn
      ;(this.values[c] as ColumnValues).push(this.valueOf(col, cols, record, r, naln, k, a))
    }
  }

  private valueOf(
    col: ParquetColumn,
    cols: ChunkColumns,
    record: number,
    r: number,
    naln: number,
    k: number,
    a: number,
  ): ParquetValue {
    const s = col.source
    switch (s.from) {
      case 'record':
        return BigInt(record)
      case 'chunk':
        return cols.chunk
      case 'alignment':
        return a
      case 'n_alignments':
        return naln
      case 'sequence':
        return this.sequence(cols, r, s.field)
      case 'readTag':
        return tagValue(cols.readColumns[s.tag] as Column, r, col.kind)
      case 'alnTag':
        return tagValue(cols.alnColumns[s.tag] as Column, k, col.kind)
      default:
        return this.alignmentWord(cols, r, k, s.from)
    }
  }

  /** The reference name or the orientation of alignment `k`, as `view` shows them. */
  private alignmentWord(cols: ChunkColumns, r: number, k: number, what: 'reference' | 'orientation'): string {
    const { reference, orientation, mappingType } = this.sem
    // The mapping type tells a bulk pair's orientations apart (display.ts, unpackAlignment).
    const type =
      mappingType === undefined
        ? undefined
        : mappingType.level === 'alignment'
          ? columnValue(cols.alnColumns[mappingType.tag] as Column, k)
          : columnValue(cols.readColumns[mappingType.tag] as Column, r)
    const packed = orientation
      ? unpackAlignment(
          Number(columnValue(cols.alnColumns[orientation.tag] as Column, k)),
          orientation.encoding,
          typeof type === 'number' ? type : undefined,
        )
      : undefined
    if (what === 'orientation') return packed?.ori ?? '?'
    const ref =
      reference && !reference.packed ? Number(columnValue(cols.alnColumns[reference.tag] as Column, k)) : packed?.ref
    if (ref === undefined) return '?'
    return this.prelude.refNames[ref] ?? `<ref ${String(ref)} out of range>`
  }

  private sequence(cols: ChunkColumns, r: number, field: SequenceField): string {
    const col = cols.readColumns[field.tag] as Column
    const packed = col.kind === 'u8' || col.kind === 'u16' || col.kind === 'u32' || col.kind === 'u64'
    const key = packed ? col.values[r] : undefined
    if (key === undefined) return sequenceText(col, r, field)
    let cache = this.caches.get(field.tag)
    if (!cache || cache.size > SEQUENCE_CACHE_LIMIT) {
      cache = new Map<number | bigint, string>()
      this.caches.set(field.tag, cache)
    }
    let text = cache.get(key)
    if (text === undefined) cache.set(key, (text = sequenceText(col, r, field)))
    return text
  }

  private alignmentList(cols: ChunkColumns, r: number, start: number, naln: number): AlignmentRow[] {
    const list: AlignmentRow[] = []
    if (this.prelude.alnTags.length === 0) return list
    for (let k = start; k < start + naln; k++) {
      const row: AlignmentRow = {}
      for (const f of this.fields) {
        const v = this.valueOf(f, cols, 0, r, naln, k, k - start)
        row[f.name] = v as AlignmentRow[string]
      }
      list.push(row)
    }
    return list
  }

  /** The rows so far as `{ name, data }` per top-level column; the builder starts again empty. */
  take(): { name: string; data: ParquetData }[] {
    const out = this.plan.columns.map((c, i) => ({ name: c.name, data: (this.values[i] as ColumnValues).take() }))
    const list = this.values[this.plan.columns.length]
    if (list) out.push({ name: ALIGNMENTS_COLUMN, data: list.take() })
    this.rows = 0
    return out
  }
}
