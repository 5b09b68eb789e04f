import type { Semantics } from '../rad/semantics'
import type { Prelude } from '../rad/types'

/** What a record-table column shows; RecordRow renders one cell per column, in this order. */
export type ColumnKind = 'caret' | 'record' | 'chunk' | 'aln' | 'barcode' | 'umi' | 'mapping' | 'other' | 'preview'

export interface TableColumn {
  kind: ColumnKind
  header: string
  /** Track width in px (for the last column, its minimum). */
  width: number
}

/** A grid layout of the row: the header row and every record row use the same one. */
export interface ColumnLayout {
  /**
   * CSS grid-template-columns. Every track has a fixed width in px (the last one a fixed minimum
   * and a share of the rest), so header and rows line up whatever their font size, and laying a
   * row out never measures its content.
   */
  template: string
  /** The row's minimum width: every track at its minimum, gaps and padding (see .row in app.css). */
  minWidth: number
}

export interface RecordColumns {
  columns: TableColumn[]
  /** Every column. */
  full: ColumnLayout
  /** The essential columns only, for tables narrower than `full.minWidth` (phones, a narrow window). */
  compact: ColumnLayout
  /** Names of the read tags shown in their own columns after barcodes/UMI/mapping type. */
  otherReadTags: string[]
  /**
   * Whether an expanded record lists its read-level tags in a row above its alignments: when the
   * file has read tags in optional columns, which a narrow table hides (every tag stays visible).
   */
  tagRow: boolean
}

/**
 * Sequences up to this long fit their column unclipped, whatever the monospace font's width and
 * the letter spacing; longer ones are clipped with an ellipsis.
 */
export const SEQ_FIT = 24
/**
 * One character of the table's monospace text (12.5 px, letter-spacing 0.03em in app.css): DejaVu
 * Sans Mono measures 7.53 px + 0.38 px spacing in Chromium, SF Mono, Menlo and Consolas less.
 */
const MONO_CHAR_PX = 8
/** Columns a narrow table drops first: the record's chunk, its mapping type and the other read tags. */
const OPTIONAL: ReadonlySet<ColumnKind> = new Set<ColumnKind>(['chunk', 'mapping', 'other'])
/** .row's column-gap and horizontal padding in app.css. */
const COLUMN_GAP_PX = 14
const ROW_PADDING_PX = 14

const mono = (chars: number) => chars * MONO_CHAR_PX
/** The caret (11 px glyph), record numbers up to 9,999,999,999, chunks up to 9,999,999, 5-digit counts. */
const FIXED: Record<'caret' | 'record' | 'chunk' | 'aln', number> = {
  caret: 12,
  record: mono(13),
  chunk: mono(9),
  aln: mono(6),
}
/** "Mapping" names (13 px sans): "spliced+unspliced" measures 108 px. */
const MAPPING_WIDTH = 120
/** Other read tags: a fixed column, clipped with an ellipsis (the full value is the cell's title). */
const OTHER_WIDTH = mono(14)
/** The first alignment: at least this (an orientation badge and ~15 characters of a name), and the rest of the row. */
const PREVIEW_MIN = 150

function seqWidth(len: number): number {
  return mono(Math.max(8, Math.min(len > 0 ? len : 16, 40)) + 2)
}

/** ' opt' for the cells a narrow table hides (app.css `.compact .opt`), '' for essential ones. */
export function optionalClass(kind: ColumnKind): string {
  return OPTIONAL.has(kind) ? ' opt' : ''
}

function layoutOf(columns: TableColumn[]): ColumnLayout {
  const widths = columns.map((c) => `${String(c.width)}px`)
  widths[widths.length - 1] = `minmax(${widths.at(-1) ?? '0px'}, 1fr)`
  const sum = columns.reduce((s, c) => s + c.width, 0)
  return {
    template: widths.join(' '),
    minWidth: sum + (columns.length - 1) * COLUMN_GAP_PX + 2 * ROW_PADDING_PX,
  }
}

/** Record-table columns for a file: #, chunk, alignments, barcodes, UMI, other read tags, first alignment. */
export function recordColumns(prelude: Prelude, sem: Semantics): RecordColumns {
  const columns: TableColumn[] = [
    { kind: 'caret', header: '', width: FIXED.caret },
    { kind: 'record', header: 'Record', width: FIXED.record },
    { kind: 'chunk', header: 'Chunk', width: FIXED.chunk },
    { kind: 'aln', header: 'Aln', width: FIXED.aln },
  ]
  const used = new Set<number>()
  for (const b of sem.barcodes) {
    used.add(b.tag)
    const header = sem.barcodes.length > 1 ? `Barcode ${b.name}` : 'Barcode'
    columns.push({ kind: 'barcode', header, width: seqWidth(b.len) })
  }
  if (sem.umi) {
    used.add(sem.umi.tag)
    columns.push({ kind: 'umi', header: 'UMI', width: seqWidth(sem.umi.len) })
  }
  if (sem.mappingType?.level === 'read') {
    used.add(sem.mappingType.tag)
    columns.push({ kind: 'mapping', header: 'Mapping', width: MAPPING_WIDTH })
  }
  const otherReadTags = prelude.readTags.filter((_, i) => !used.has(i)).map((t) => t.name)
  for (const name of otherReadTags) columns.push({ kind: 'other', header: name, width: OTHER_WIDTH })
  columns.push({ kind: 'preview', header: 'First alignment', width: PREVIEW_MIN })
  return {
    columns,
    full: layoutOf(columns),
    compact: layoutOf(columns.filter((c) => !OPTIONAL.has(c.kind))),
    otherReadTags,
    tagRow: columns.some((c) => c.kind === 'mapping' || c.kind === 'other'),
  }
}
