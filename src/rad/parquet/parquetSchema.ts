/**
 * The Parquet table of a RAD file (docs/engines.md, ADR 0012): which columns
 * it has and their Parquet types, from the prelude and its semantics alone.
 * One row per alignment, or (`perRecord`) one row per record with the
 * alignments as a list of structs. Pure data: the rows are filled by
 * parquetRows.ts and the bytes written by src/io/parquetExport.ts.
 */
import { canonicalJson } from '../text/display'
import type { Semantics, SequenceField } from '../prelude/semantics'
import type { Prelude, TagDesc } from '../types'
import { TYPE_ID } from '../types'

/**
 * How a column's values are held before they are written; `n64` is an INT64
 * held as Numbers (record numbers: exact below 2^53, docs/architecture.md §3).
 */
export type ParquetKind = 'bool' | 'i32' | 'u32' | 'i64' | 'n64' | 'u64' | 'f32' | 'f64' | 'string'

/** Encodings the export asks for; other columns get the writer's choice (dictionary when it halves the bytes). */
export type ParquetEncoding = 'DELTA_BINARY_PACKED' | 'RLE_DICTIONARY' | 'PLAIN'

/** One element of a Parquet schema (parquet-format's SchemaElement, the fields the export sets). */
export interface ParquetSchemaElement {
  name: string
  type?: 'BOOLEAN' | 'INT32' | 'INT64' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY'
  converted_type?: 'UTF8' | 'UINT_8' | 'UINT_16' | 'UINT_32' | 'UINT_64' | 'INT_8' | 'INT_16' | 'LIST'
  repetition_type: 'REQUIRED' | 'REPEATED'
  num_children?: number
}

/** Where a column's value comes from. */
export type ColumnSource =
  | { from: 'record' | 'chunk' | 'alignment' | 'n_alignments' | 'reference' | 'orientation' }
  /** A barcode or UMI; `repeats`: the same values come back (cells), so a dictionary pays. */
  | { from: 'sequence'; field: SequenceField; repeats: boolean }
  | { from: 'readTag' | 'alnTag'; tag: number }

export interface ParquetColumn {
  name: string
  kind: ParquetKind
  element: ParquetSchemaElement
  source: ColumnSource
  encoding?: ParquetEncoding
}

export interface ParquetPlan {
  perRecord: boolean
  /** Top-level columns, in order; with `perRecord`, the read-level ones. */
  columns: ParquetColumn[]
  /** With `perRecord`: the fields of each element of the `alignments` list. */
  alignmentFields: ParquetColumn[]
  /** The whole schema, root first, as Parquet wants it (depth-first). */
  schema: ParquetSchemaElement[]
}

/** The name of the list column of `--per record` tables. */
export const ALIGNMENTS_COLUMN = 'alignments'

const ELEMENT_OF: Record<ParquetKind, Pick<ParquetSchemaElement, 'type' | 'converted_type'>> = {
  bool: { type: 'BOOLEAN' },
  i32: { type: 'INT32' },
  u32: { type: 'INT32', converted_type: 'UINT_32' },
  i64: { type: 'INT64' },
  n64: { type: 'INT64' },
  u64: { type: 'INT64', converted_type: 'UINT_64' },
  f32: { type: 'FLOAT' },
  f64: { type: 'DOUBLE' },
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
}

/** A RAD tag type (docs/format.md §3) as the narrowest Parquet type that holds every value. */
function tagKind(tag: TagDesc): { kind: ParquetKind; converted?: ParquetSchemaElement['converted_type'] } {
  switch (tag.type.id) {
    case TYPE_ID.bool:
      return { kind: 'bool' }
    case TYPE_ID.u8:
      return { kind: 'i32', converted: 'UINT_8' }
    case TYPE_ID.u16:
      return { kind: 'i32', converted: 'UINT_16' }
    case TYPE_ID.i8:
      return { kind: 'i32', converted: 'INT_8' }
    case TYPE_ID.i16:
      return { kind: 'i32', converted: 'INT_16' }
    case TYPE_ID.i32:
      return { kind: 'i32' }
    case TYPE_ID.u32:
      return { kind: 'u32' }
    case TYPE_ID.i64:
      return { kind: 'i64' }
    case TYPE_ID.u64:
      return { kind: 'u64' }
    case TYPE_ID.f32:
      return { kind: 'f32' }
    case TYPE_ID.f64:
      return { kind: 'f64' }
    default:
      // Strings as themselves; arrays as JSON text and 128-bit integers as decimal text
      // (Parquet has no 128-bit integer that DuckDB and Spark both read as one).
      return { kind: 'string' }
  }
}

/**
 * Encodings by source: record and chunk numbers climb, so deltas take a bit or
 * two; barcodes, references, orientations and alignment numbers repeat, so a
 * dictionary, built by this project from integer keys (parquetDictionary.ts,
 * ADR 0012): no string per row.
 */
function encodingOf(source: ColumnSource): ParquetEncoding | undefined {
  if (source.from === 'record' || source.from === 'chunk') return 'DELTA_BINARY_PACKED'
  // UMIs hardly repeat beyond their record: a dictionary would hold nearly every value once more.
  if (source.from === 'sequence') return source.repeats ? 'RLE_DICTIONARY' : 'PLAIN'
  // Small numbers that repeat: a dictionary built here from the numbers themselves (parquetDictionary.ts).
  if (source.from === 'alignment' || source.from === 'n_alignments') return 'RLE_DICTIONARY'
  return source.from === 'reference' || source.from === 'orientation' ? 'RLE_DICTIONARY' : undefined
}

function column(name: string, kind: ParquetKind, source: ColumnSource, converted?: string): ParquetColumn {
  const element: ParquetSchemaElement = { name, repetition_type: 'REQUIRED', ...ELEMENT_OF[kind] }
  if (converted !== undefined) element.converted_type = converted as ParquetSchemaElement['converted_type']
  const encoding = encodingOf(source)
  return encoding ? { name, kind, element, source, encoding } : { name, kind, element, source }
}

/** Tags whose values the fixed columns already show (barcodes, UMI, reference and orientation words). */
function shownTags(sem: Semantics): { read: Set<number>; aln: Set<number> } {
  const read = new Set(sem.barcodes.map((f) => f.tag))
  if (sem.umi) read.add(sem.umi.tag)
  const aln = new Set<number>()
  if (sem.reference) aln.add(sem.reference.tag)
  if (sem.orientation) aln.add(sem.orientation.tag)
  return { read, aln }
}

/** A tag's column, renamed with `_tag` when its name is taken by a fixed column. */
function tagColumn(tag: TagDesc, source: ColumnSource, taken: Set<string>): ParquetColumn {
  let name = tag.name
  while (taken.has(name)) name = `${name}_tag`
  taken.add(name)
  const { kind, converted } = tagKind(tag)
  return column(name, kind, source, converted)
}

function readColumns(sem: Semantics, perRecord: boolean): ParquetColumn[] {
  const cols = [column('record', 'n64', { from: 'record' }), column('chunk', 'i32', { from: 'chunk' })]
  if (!perRecord) cols.push(column('alignment', 'i32', { from: 'alignment' }))
  cols.push(column('n_alignments', 'i32', { from: 'n_alignments' }))
  const single = sem.barcodes.length === 1
  for (const field of sem.barcodes) {
    cols.push(column(single ? 'barcode' : field.name, 'string', { from: 'sequence', field, repeats: true }))
  }
  if (sem.umi) cols.push(column('umi', 'string', { from: 'sequence', field: sem.umi, repeats: false }))
  return cols
}

function alignmentColumns(sem: Semantics): ParquetColumn[] {
  const cols: ParquetColumn[] = []
  if (sem.reference) cols.push(column('reference', 'string', { from: 'reference' }))
  if (sem.orientation) cols.push(column('orientation', 'string', { from: 'orientation' }))
  return cols
}

/** The list column of `--per record`: alignments (LIST) → list (REPEATED) → element (struct). */
function listSchema(fields: readonly ParquetColumn[]): ParquetSchemaElement[] {
  return [
    { name: ALIGNMENTS_COLUMN, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'REQUIRED', num_children: fields.length },
    ...fields.map((f) => f.element),
  ]
}

/**
 * The table of a file: `record`, `chunk`, `alignment`, `n_alignments`, the
 * barcodes (`barcode`, or one column per barcode tag in multi-barcode files),
 * `umi`, then every other read tag; `reference`, `orientation`, then every
 * other alignment tag (docs/format.md §7.7 says which tag is which).
 */
export function parquetPlan(prelude: Prelude, sem: Semantics, perRecord = false): ParquetPlan {
  const shown = shownTags(sem)
  const columns = readColumns(sem, perRecord)
  const taken = new Set(columns.map((c) => c.name))
  prelude.readTags.forEach((tag, t) => {
    if (!shown.read.has(t)) columns.push(tagColumn(tag, { from: 'readTag', tag: t }, taken))
  })
  const alns = alignmentColumns(sem)
  const alnTaken = perRecord ? new Set(alns.map((c) => c.name)) : taken
  alns.forEach((c) => alnTaken.add(c.name))
  prelude.alnTags.forEach((tag, t) => {
    if (!shown.aln.has(t)) alns.push(tagColumn(tag, { from: 'alnTag', tag: t }, alnTaken))
  })
  const withList = perRecord && alns.length > 0
  const top = perRecord ? columns : [...columns, ...alns]
  const children = top.length + (withList ? 1 : 0)
  const schema: ParquetSchemaElement[] = [
    { name: 'root', repetition_type: 'REQUIRED', num_children: children },
    ...top.map((c) => c.element),
  ]
  if (withList) schema.push(...listSchema(alns))
  return { perRecord, columns: top, alignmentFields: perRecord ? alns : [], schema }
}

/**
 * The Parquet key-value metadata: the RAD version, the producer, the assay,
 * the source file's name and every file-level tag (JSON, as `dump` writes values).
 */
export function parquetMetadata(
  prelude: Prelude,
  sem: Semantics,
  producer: string,
  source: string,
): { key: string; value: string }[] {
  const fileTags: Record<string, unknown> = {}
  prelude.fileTags.forEach((tag, i) => {
    fileTags[tag.name] = canonicalJson(prelude.fileTagValues[i] ?? '')
  })
  return [
    { key: 'rad.version', value: prelude.version.join('.') },
    { key: 'rad.producer', value: producer },
    { key: 'rad.assay', value: sem.assay },
    { key: 'rad.source', value: source },
    { key: 'rad.file_tags', value: JSON.stringify(fileTags) },
  ]
}
