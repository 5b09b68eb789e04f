import type { Semantics } from '../rad/semantics'
import type { Prelude } from '../rad/types'

export interface RecordColumns {
  /** CSS grid-template-columns of a record row. */
  template: string
  headers: string[]
  /** Names of the read tags shown in their own columns after barcodes/UMI/mapping type. */
  otherReadTags: string[]
}

function seqWidth(len: number): string {
  return `${String(Math.max(8, Math.min(len > 0 ? len : 16, 40)) + 2)}ch`
}

/** Record-table columns for a file: #, chunk, alignments, barcodes, UMI, other read tags, first alignment. */
export function recordColumns(prelude: Prelude, sem: Semantics): RecordColumns {
  const widths = ['0.8em', '7.5em', '4.5em', '3.5em']
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
    widths.push('minmax(6em, max-content)')
    headers.push(name)
  }
  widths.push('minmax(14em, 1fr)')
  headers.push('First alignment')
  return { template: widths.join(' '), headers, otherReadTags }
}
