/**
 * Rows of the Parquet table (parquetSchema.ts) gathered from decoded chunks,
 * a column at a time, until the writer takes them as one row group. Rows
 * follow `view` (viewLine.ts): one per alignment, one per record for a file
 * without alignment tags (a record with no alignment in a file with alignment
 * tags has none, as in `view`); with `perRecord`, one per record and its
 * alignments as a list. Values are decoded as `view` decodes them (display.ts):
 * the same sequences, reference names and orientations.
 */
import { columnValue } from '../decode/columns'
import { canonicalJson, unpackAlignment, valueText } from '../text/display'
import { ALIGNMENTS_COLUMN } from './parquetSchema'
import type { ParquetColumn, ParquetKind, ParquetPlan } from './parquetSchema'
import { DictionaryValues } from './parquetDictionary'
import { encodeUtf8 } from '../runtime'
import { ColumnValues, PlainByteArrays } from './parquetValues'
import type { AlignmentRow, ParquetData, PlainValue } from './parquetValues'
import { SequenceReader } from './parquetSequences'
import type { Semantics, SequenceField } from '../prelude/semantics'
import type { ChunkColumns, Column, Prelude, TagValue } from '../types'

export type { ParquetData } from './parquetValues'

/** The rows one chunk adds: for row i, its record (chunk-relative), alignment (chunk-wide) and rank in the record. */
interface ChunkRows {
  cols: ChunkColumns
  firstRecord: number
  n: number
  r: Int32Array
  k: Int32Array
  a: Int32Array
}

/** What gathers a column's values: typed or plain values for the writer, or pages encoded here. */
type Builder = ColumnValues | DictionaryValues | PlainByteArrays

function builder(c: ParquetColumn, capacity: number): Builder {
  if (c.encoding === 'RLE_DICTIONARY') return new DictionaryValues()
  if (c.source.from === 'sequence') return new PlainByteArrays()
  return new ColumnValues(c.kind, capacity)
}

const ORIENTATIONS = [encodeUtf8('rc'), encodeUtf8('fw')] as const

/** A tag value for a column of `kind` when it is not copied typed array to typed array. */
function tagValue(col: Column, i: number, kind: ParquetKind): PlainValue {
  const v: TagValue = columnValue(col, i)
  if (kind === 'bool') return v === true
  if (Array.isArray(v)) return JSON.stringify(canonicalJson(v))
  return valueText(v)
}

/** Whether a decoded column's typed values can be copied as they are into a column of `kind`. */
function copiesTyped(col: Column, kind: ParquetKind): boolean {
  switch (col.kind) {
    case 'u8':
    case 'u16':
    case 'i8':
    case 'i16':
    case 'i32':
      return kind === 'i32'
    case 'u32':
    case 'u64':
    case 'i64':
    case 'f32':
    case 'f64':
      return kind === col.kind
    default:
      return false
  }
}

/** Appends `col`'s entries at `index[0..n)` to `out`. */
function appendTag(out: ColumnValues, col: Column, index: Int32Array, n: number): void {
  if (copiesTyped(col, out.kind) && col.kind !== 'values') {
    const dst = out.reserve(n) as Float64Array
    const src = col.values as Float64Array
    const at = out.length
    for (let i = 0; i < n; i++) dst[at + i] = src[index[i] ?? 0] ?? 0
    out.length += n
    return
  }
  for (let i = 0; i < n; i++) out.push(tagValue(col, index[i] ?? 0, out.kind))
}

/** Builds the rows of one table; `take()` hands them to the writer as one row group. */
export class ParquetRows {
  rows = 0
  readonly plan: ParquetPlan
  private readonly prelude: Prelude
  private readonly sem: Semantics
  private readonly values: Builder[]
  private readonly list: ColumnValues | undefined
  /** Reference names as UTF-8, encoded when first met. */
  private readonly refBytes: (Uint8Array | undefined)[] = []
  /** Rows a record of `naln` alignments has. */
  private readonly rowsOf: (naln: number) => number
  private index = { r: new Int32Array(0), k: new Int32Array(0), a: new Int32Array(0) }

  constructor(plan: ParquetPlan, prelude: Prelude, sem: Semantics, capacity: number) {
    this.plan = plan
    this.prelude = prelude
    this.sem = sem
    this.values = plan.columns.map((c) => builder(c, capacity))
    this.list = plan.alignmentFields.length > 0 ? new ColumnValues('string', capacity) : undefined
    // As view: with no alignment tags, one line per record that has alignments (viewLine.ts).
    this.rowsOf = plan.perRecord ? () => 1 : prelude.alnTags.length === 0 ? (n) => Math.min(n, 1) : (n) => n
  }

  /** Adds the rows of records `records` (chunk-relative, ascending) of a chunk whose record 0 is `firstRecord`. */
  addChunk(cols: ChunkColumns, firstRecord: number, records: ArrayLike<number>): void {
    const rows = this.chunkRows(cols, firstRecord, records)
    this.plan.columns.forEach((c, i) => {
      const out = this.values[i] as Builder
      if (out instanceof DictionaryValues) this.fillDictionary(c, out, rows)
      else if (out instanceof PlainByteArrays) this.fillPlainSequence(c, out, rows)
      else this.fill(c, out, rows)
    })
    if (this.list) {
      for (let i = 0; i < rows.n; i++) this.list.push(this.alignmentList(cols, rows.r[i] ?? 0))
    }
    this.rows += rows.n
  }

  /** The end of the `records` from `from` on whose rows fit in `room` more (at least one record). */
  fitEnd(cols: ChunkColumns, records: ArrayLike<number>, from: number, room: number): number {
    let n = 0
    let to = from
    for (; to < records.length; to++) {
      const r = records[to] ?? 0
      n += this.rowsOf((cols.alnStart[r + 1] ?? 0) - (cols.alnStart[r] ?? 0))
      if (n > room && to > from) break
    }
    return to
  }

  /** Which record and alignment each of the chunk's new rows shows. */
  private chunkRows(cols: ChunkColumns, firstRecord: number, records: ArrayLike<number>): ChunkRows {
    const { alnStart } = cols
    let n = 0
    for (let i = 0; i < records.length; i++) {
      const r = records[i] ?? 0
      n += this.rowsOf((alnStart[r + 1] ?? 0) - (alnStart[r] ?? 0))
    }
    if (this.index.r.length < n) {
      const size = Math.max(n, this.index.r.length * 2)
      this.index = { r: new Int32Array(size), k: new Int32Array(size), a: new Int32Array(size) }
    }
    const { r: rs, k: ks, a: as } = this.index
    let row = 0
    for (let i = 0; i < records.length; i++) {
      const r = records[i] ?? 0
      const start = alnStart[r] ?? 0
      const shown = this.rowsOf((alnStart[r + 1] ?? 0) - start)
      for (let a = 0; a < shown; a++, row++) {
        rs[row] = r
        ks[row] = start + a
        as[row] = a
      }
    }
    return { cols, firstRecord, n, r: rs, k: ks, a: as }
  }

  private fill(c: ParquetColumn, out: ColumnValues, rows: ChunkRows): void {
    const s = c.source
    const { cols, n, r } = rows
    switch (s.from) {
      case 'record': {
        this.fillNumbers(out, n, (i) => rows.firstRecord + (r[i] ?? 0))
        return
      }
      case 'chunk': {
        this.fillNumbers(out, n, () => cols.chunk)
        return
      }
      case 'readTag': {
        appendTag(out, cols.readColumns[s.tag] as Column, r, n)
        return
      }
      case 'alnTag': {
        appendTag(out, cols.alnColumns[s.tag] as Column, rows.k, n)
        return
      }
      default:
        // alignment, n_alignments, barcodes, references, orientations: fillDictionary; UMIs: fillPlainSequence.
        throw new Error(`internal: column ${c.name} is not built as values for the writer`)
    }
  }

  /** A dictionary column: numbers, barcodes, reference names, orientations (parquetDictionary.ts). */
  private fillDictionary(c: ParquetColumn, out: DictionaryValues, rows: ChunkRows): void {
    const s = c.source
    const { cols, n, r } = rows
    const { alnStart } = cols
    const idx = out.reserve(n)
    const at = out.length
    out.length += n
    if (s.from === 'alignment' || s.from === 'n_alignments') {
      for (let i = 0; i < n; i++) {
        const ri = r[i] ?? 0
        const v = s.from === 'alignment' ? (rows.a[i] ?? 0) : (alnStart[ri + 1] ?? 0) - (alnStart[ri] ?? 0)
        const e = out.find(v, 0)
        idx[at + i] = e >= 0 ? e : out.addInt32(v)
      }
    } else if (s.from === 'sequence') {
      this.fillBarcode(out, rows, s.field, at)
    } else if (s.from === 'reference' || s.from === 'orientation') {
      if (this.fillBit31(out, rows, s.from, at)) return
      for (let i = 0; i < n; i++) idx[at + i] = out.text(this.alignmentWord(cols, r[i] ?? 0, rows.k[i] ?? 0, s.from))
    } else {
      throw new Error(`internal: column ${c.name} has no dictionary`)
    }
  }

  /**
   * Reference names and orientations straight from a u32 word with the
   * orientation in bit 31 and the reference id below (§5.3, §7.1), as
   * unpackAlignment reads it, keyed by id or bit; false for any other layout.
   */
  private fillBit31(out: DictionaryValues, rows: ChunkRows, what: 'reference' | 'orientation', at: number): boolean {
    const { orientation, reference } = this.sem
    const col = orientation ? rows.cols.alnColumns[orientation.tag] : undefined
    if (orientation?.encoding !== 'bit31' || col?.kind !== 'u32') return false
    if (what === 'reference' && reference?.packed !== 'bit31') return false
    const words = col.values
    const idx = out.indices
    for (let i = 0; i < rows.n; i++) {
      const word = words[rows.k[i] ?? 0] ?? 0
      const key = what === 'orientation' ? word >>> 31 : word & 0x7fffffff
      const e = out.find(key, 0)
      if (e >= 0) idx[at + i] = e
      else if (what === 'orientation') idx[at + i] = out.addBytes(key, 0, ORIENTATIONS[key === 1 ? 1 : 0])
      else idx[at + i] = out.addBytes(key, 0, this.referenceBytes(key))
    }
    return true
  }

  private referenceBytes(ref: number): Uint8Array {
    let bytes = this.refBytes[ref]
    if (bytes === undefined) {
      const name = this.prelude.refNames[ref] ?? `<ref ${String(ref)} out of range>`
      bytes = encodeUtf8(name)
      if (ref < this.prelude.refNames.length) this.refBytes[ref] = bytes
    }
    return bytes
  }

  private fillNumbers(out: ColumnValues, n: number, value: (i: number) => number): void {
    const dst = out.reserve(n) as Float64Array
    const at = out.length
    for (let i = 0; i < n; i++) dst[at + i] = value(i)
    out.length += n
  }

  /** Barcodes: one dictionary lookup per record, by its packed words (its text when not packed). */
  private fillBarcode(out: DictionaryValues, rows: ChunkRows, field: SequenceField, at: number): void {
    const reader = new SequenceReader(rows.cols.readColumns[field.tag] as Column, field)
    const idx = out.indices
    let lastRecord = -1
    let e = 0
    for (let i = 0; i < rows.n; i++) {
      const r = rows.r[i] ?? 0
      if (r !== lastRecord) {
        lastRecord = r
        if (!reader.load(r)) e = out.text(reader.text(r))
        else if ((e = out.find(reader.lo, reader.hi)) < 0) e = out.addSequence(reader.lo, reader.hi, reader.len)
      }
      idx[at + i] = e
    }
  }

  /** UMIs: each record's decoded once, then written for each of its rows. */
  private fillPlainSequence(c: ParquetColumn, out: PlainByteArrays, rows: ChunkRows): void {
    if (c.source.from !== 'sequence') throw new Error(`internal: column ${c.name} is not a sequence`)
    const reader = new SequenceReader(rows.cols.readColumns[c.source.field.tag] as Column, c.source.field)
    let lastRecord = -1
    let value: Uint8Array | string = ''
    for (let i = 0; i < rows.n; i++) {
      const r = rows.r[i] ?? 0
      if (r !== lastRecord) {
        value = reader.bytes(r)
        lastRecord = r
      }
      out.push(value)
    }
  }

  /** The reference name or the orientation of alignment `k` of record `r`, as `view` shows them. */
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

  /** Record `r`'s alignments as list elements (`--per record`). */
  private alignmentList(cols: ChunkColumns, r: number): AlignmentRow[] {
    const start = cols.alnStart[r] ?? 0
    const end = cols.alnStart[r + 1] ?? 0
    const list: AlignmentRow[] = []
    for (let k = start; k < end; k++) {
      const row: AlignmentRow = {}
      for (const f of this.plan.alignmentFields) row[f.name] = this.alignmentField(f, cols, r, k)
      list.push(row)
    }
    return list
  }

  private alignmentField(f: ParquetColumn, cols: ChunkColumns, r: number, k: number): AlignmentRow[string] {
    const s = f.source
    if (s.from === 'reference' || s.from === 'orientation') return this.alignmentWord(cols, r, k, s.from)
    if (s.from !== 'alnTag') return 0
    const col = cols.alnColumns[s.tag] as Column
    if (f.kind === 'string' || f.kind === 'bool') return tagValue(col, k, f.kind) as string | boolean
    const v = columnValue(col, k)
    return typeof v === 'number' || typeof v === 'bigint' ? v : 0
  }

  /** The rows so far as `{ name, data }` per top-level column; the builder starts again empty. */
  take(): { name: string; data: ParquetData }[] {
    const out = this.plan.columns.map((c, i) => ({ name: c.name, data: (this.values[i] as Builder).take() }))
    if (this.list) out.push({ name: ALIGNMENTS_COLUMN, data: this.list.take() })
    this.rows = 0
    return out
  }
}
