/**
 * The first record of a chunk with a given barcode or aligned to a given
 * reference: the statistics panel's click-through until the record filters
 * (issue 12 §2) land. Matches what the panel shows: a barcode as its
 * nucleotides (levels joined, with or without "+"), a reference by name.
 */
import { columnNumber } from '../columns'
import { recordView, unpackAlignment } from '../display'
import type { Semantics } from '../semantics'
import type { ChunkColumns, Column, Prelude } from '../types'

export interface RecordQuery {
  barcode?: string
  reference?: string
}

/** Record index within the chunk, or -1. */
export function firstMatch(cols: ChunkColumns, prelude: Prelude, sem: Semantics, q: RecordQuery): number {
  if (q.barcode !== undefined) return firstBarcode(cols, prelude, sem, q.barcode)
  if (q.reference !== undefined) return firstReference(cols, sem, prelude.refNames.indexOf(q.reference))
  return -1
}

function firstBarcode(cols: ChunkColumns, prelude: Prelude, sem: Semantics, seq: string): number {
  for (let r = 0; r < cols.recordCount; r++) {
    const b = recordView(cols, r, prelude, sem).barcodes
    if (b.join('') === seq || b.join('+') === seq) return r
  }
  return -1
}

function firstReference(cols: ChunkColumns, sem: Semantics, ref: number): number {
  if (ref < 0 || !sem.reference) return -1
  for (let r = 0; r < cols.recordCount; r++) {
    for (let k = cols.alnStart[r] ?? 0; k < (cols.alnStart[r + 1] ?? 0); k++) {
      if (refIdOf(cols, sem, k) === ref) return r
    }
  }
  return -1
}

/** Alignment k's reference id (RAD-FORMAT.md §5.3: plain, or packed with the orientation). */
function refIdOf(cols: ChunkColumns, sem: Semantics, k: number): number | undefined {
  const ref = sem.reference
  if (!ref) return undefined
  const word = columnNumber(cols.alnColumns[ref.tag] as Column, k)
  if (word === undefined) return undefined
  return ref.packed ? unpackAlignment(word, ref.packed).ref : word
}
