import type { Semantics } from '../rad/semantics'
import type { Prelude } from '../rad/types'

export interface RecordColumns {
  /**
   * CSS grid-template-columns of a record row. Every track has a fixed width (the last one a
   * fixed minimum and a share of the rest), so laying a row out never measures its content.
   */
  template: string
  /** CSS min-width of a row: every track at its minimum, gaps and padding (see .row in app.css). */
  minWidth: string
  headers: string[]
  /** Names of the read tags shown in their own columns after barcodes/UMI/mapping type. */
  otherReadTags: string[]
}

/**
 * Sequences up to this long fit their column (len + 2 ch) unclipped, whatever the monospace
 * font's width and the letter spacing; longer ones are clipped with an ellipsis.
 */
export const SEQ_FIT = 24
/** Other read tags: a fixed column, clipped with an ellipsis (the full value is the cell's title). */
const OTHER_WIDTH = '14ch'
/** The first alignment: at least this, and the rest of the row. */
const LAST_MIN = '14em'
/** .row's column-gap and horizontal padding in app.css. */
const COLUMN_GAP_PX = 14
const ROW_PADDING_PX = 14

function seqWidth(len: number): string {
  return `${String(Math.max(8, Math.min(len > 0 ? len : 16, 40)) + 2)}ch`
}

/** Record-table columns for a file: #, chunk, alignments, barcodes, UMI, other read tags, first alignment. */
export function recordColumns(prelude: Prelude, sem: Semantics): RecordColumns {
  // Record and chunk numbers up to 9,999,999,999 and 9,999,999 fit unclipped.
  const widths = ['0.8em', '7.5em', '5.5em', '3.5em']
  const headers = ['', 'Record', 'Chunk', 'Aln']
  const used = new Set<number>()
  for (const b of sem.barcodes) {
    used.add(b.tag)
    widths.push(seqWidth(b.len))
    headers.push(sem.barcodes.length > 1 ? `Barcode ${b.name}` : 'Barcode')
  }
  if (sem.umi) {
    used.add(sem.umi.tag)
    widths.push(seqWidth(sem.umi.len))
    headers.push('UMI')
  }
  if (sem.mappingType?.level === 'read') {
    used.add(sem.mappingType.tag)
    widths.push('9em')
    headers.push('Mapping')
  }
  const otherReadTags = prelude.readTags.filter((_, i) => !used.has(i)).map((t) => t.name)
  for (const name of otherReadTags) {
    widths.push(OTHER_WIDTH)
    headers.push(name)
  }
  const mins = [...widths, LAST_MIN]
  widths.push(`minmax(${LAST_MIN}, 1fr)`)
  headers.push('First alignment')
  const minWidth = `calc(${mins.join(' + ')} + ${String((mins.length - 1) * COLUMN_GAP_PX + 2 * ROW_PADDING_PX)}px)`
  return { template: widths.join(' '), minWidth, headers, otherReadTags }
}
