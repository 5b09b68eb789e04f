import { alignmentView, recordView } from './display'
import type { Semantics } from '../prelude/semantics'
import type { ChunkColumns, Prelude } from '../types'

/**
 * Text lines, one per alignment, in the shape `alevin-fry view` prints for
 * scRNA (docs/format.md §9.1):
 * `ID:<rec>\tHI:<n>\tNH:<naln>\tCB:<bc>\tUMI:<umi>\tDIR:<bool>\t<ref name>`.
 * Other assays get the decoded equivalent: their barcodes, orientation,
 * position, fragment length, mapping type and remaining tags as NAME:value,
 * with the reference name always last. `records` (indices in the chunk, from
 * a filter) limits the lines to those records.
 */
export function viewLines(
  cols: ChunkColumns,
  firstRecord: number,
  prelude: Prelude,
  sem: Semantics,
  records?: ArrayLike<number>,
): string[] {
  const lines: string[] = []
  const count = records ? records.length : cols.recordCount
  for (let i = 0; i < count; i++) {
    const r = records ? (records[i] ?? 0) : i
    lines.push(...viewRecordLines(cols, r, firstRecord + r, prelude, sem))
  }
  return lines
}

/** The `view` lines of record `r` of a chunk, whose global record number (`ID`) is `id`. */
export function viewRecordLines(cols: ChunkColumns, r: number, id: number, prelude: Prelude, sem: Semantics): string[] {
  const lines: string[] = []
  const rec = recordView(cols, r, prelude, sem)
  const readFields: string[] = []
  if (rec.barcodes.length === 1) readFields.push(`CB:${rec.barcodes[0] ?? ''}`)
  else rec.barcodes.forEach((b, i) => readFields.push(`CB${String(i)}:${b}`))
  if (rec.umi !== undefined) readFields.push(`UMI:${rec.umi}`)
  if (rec.mappingType !== undefined) readFields.push(`MT:${String(rec.mappingType)}`)
  for (const [name, text] of rec.other) readFields.push(`${name}:${text}`)
  const start = cols.alnStart[r] ?? 0
  // With no alignment tags there is nothing per alignment to show: one line per record
  // (a corrupt naln of 2^32−1 must not become 4 billion lines).
  const shown = prelude.alnTags.length > 0 ? rec.naln : Math.min(rec.naln, 1)
  for (let a = 0; a < shown; a++) {
    const aln = alignmentView(cols, start + a, prelude, sem, rec.mappingType)
    const fields = [`ID:${String(id)}`, `HI:${String(a + 1)}`, `NH:${String(rec.naln)}`, ...readFields]
    if (sem.orientation?.encoding === 'bit31') fields.push(`DIR:${String(aln.dir)}`)
    else if (aln.ori !== undefined) fields.push(`ORI:${aln.ori}`)
    if (aln.position !== undefined) fields.push(`POS:${String(aln.position)}`)
    if (aln.fragmentLength !== undefined) fields.push(`FL:${String(aln.fragmentLength)}`)
    if (sem.mappingType?.level === 'alignment' && aln.mappingType !== undefined) {
      fields.push(`MT:${String(aln.mappingType)}`)
    }
    for (const [name, text] of aln.other) fields.push(`${name}:${text}`)
    fields.push(aln.refName)
    lines.push(fields.join('\t'))
  }
  return lines
}
