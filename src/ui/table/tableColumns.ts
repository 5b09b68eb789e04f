import type { Semantics } from '../../rad/prelude/semantics'
import type { Prelude } from '../../rad/types'

/** What a record-table column shows; RecordRow renders one cell per column, in this order. */
export type ColumnKind = 'caret' | 'record' | 'chunk' | 'aln' | 'barcode' | 'umi' | 'mapping' | 'other' | 'preview'

export interface TableColumn {
  kind: ColumnKind
  header: string
  /** Track width in px (for the last column, its minimum). */
  width: number
  /** 0 for an essential column; else when a narrow table drops it: 1 first, 2 next… (recordColumns). */
  drop: number
  /** The read tag a mapping-type or other-tag column shows. */
  tag?: string
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
  /**
   * layouts[k]: the columns left when the first k optional columns are dropped; layouts[0] is
   * `full`, the last one `compact`. A table takes the first that fits (useCompactColumns.ts), so
   * it loses one column at a time, as it narrows, rather than all its optional ones at once.
   */
  layouts: ColumnLayout[]
  /** Names of the read tags shown in their own columns after barcodes/UMI/mapping type. */
  otherReadTags: string[]
  /**
   * Whether the file has read tags in optional columns, which a narrow table drops: an expanded
   * record then lists those dropped, one row each above its alignments (`hiddenTags`), so every
   * tag stays visible, and a record without alignments expands too.
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

/** Which optional cells a row leaves out when `dropped` optional columns are dropped. */
export interface HiddenCells {
  chunk: boolean
  mapping: boolean
  /** By position among the other read tags (RecordColumns.otherReadTags). */
  other: readonly boolean[]
}

export function hiddenCells(columns: readonly TableColumn[], dropped: number): HiddenCells {
  const gone = (c: TableColumn) => c.drop > 0 && c.drop <= dropped
  return {
    chunk: columns.some((c) => c.kind === 'chunk' && gone(c)),
    mapping: columns.some((c) => c.kind === 'mapping' && gone(c)),
    other: columns.filter((c) => c.kind === 'other').map(gone),
  }
}

/** The read tags whose columns are dropped when `dropped` optional columns are, in column order. */
export function hiddenTags(columns: readonly TableColumn[], dropped: number): string[] {
  return columns.flatMap((c) => (c.tag !== undefined && c.drop > 0 && c.drop <= dropped ? [c.tag] : []))
}

/** The columns shown when `dropped` optional columns are dropped. */
export function shownColumns(columns: readonly TableColumn[], dropped: number): TableColumn[] {
  return columns.filter((c) => c.drop === 0 || c.drop > dropped)
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
    { kind: 'caret', header: '', width: FIXED.caret, drop: 0 },
    { kind: 'record', header: 'Record', width: FIXED.record, drop: 0 },
    { kind: 'chunk', header: 'Chunk', width: FIXED.chunk, drop: 0 },
    { kind: 'aln', header: 'Aln', width: FIXED.aln, drop: 0 },
  ]
  const used = new Set<number>()
  for (const b of sem.barcodes) {
    used.add(b.tag)
    const header = sem.barcodes.length > 1 ? `Barcode ${b.name}` : 'Barcode'
    columns.push({ kind: 'barcode', header, width: seqWidth(b.len), drop: 0 })
  }
  if (sem.umi) {
    used.add(sem.umi.tag)
    columns.push({ kind: 'umi', header: 'UMI', width: seqWidth(sem.umi.len), drop: 0 })
  }
  if (sem.mappingType?.level === 'read') {
    used.add(sem.mappingType.tag)
    const tag = prelude.readTags[sem.mappingType.tag]?.name
    columns.push({ kind: 'mapping', header: 'Mapping', width: MAPPING_WIDTH, drop: 0, tag })
  }
  const otherReadTags = prelude.readTags.filter((_, i) => !used.has(i)).map((t) => t.name)
  for (const name of otherReadTags) {
    columns.push({ kind: 'other', header: name, width: OTHER_WIDTH, drop: 0, tag: name })
  }
  columns.push({ kind: 'preview', header: 'First alignment', width: PREVIEW_MIN, drop: 0 })
  // The drop order: the chunk (also in the footer and the chunk list), the other read tags from
  // the last, then the mapping type.
  const optional = [
    ...columns.filter((c) => c.kind === 'chunk'),
    ...columns.filter((c) => c.kind === 'other').reverse(),
    ...columns.filter((c) => c.kind === 'mapping'),
  ]
  optional.forEach((c, i) => {
    c.drop = i + 1
  })
  const layouts = optional.map((_, k) => layoutOf(shownColumns(columns, k)))
  layouts.push(layoutOf(shownColumns(columns, optional.length)))
  return {
    columns,
    full: layouts[0] ?? layoutOf(columns),
    compact: layouts.at(-1) ?? layoutOf(columns),
    layouts,
    otherReadTags,
    tagRow: columns.some((c) => c.kind === 'mapping' || c.kind === 'other'),
  }
}
