/**
 * A set of cell barcodes taken from the statistics' barcode table (the cells
 * above a cut-off on the knee plot, docs/subsets.md), and a record selection
 * that keeps the records whose barcode is in it. Keys are the table's own
 * (barcodeKey: two words per barcode level, §7.8 packed), so no barcode is
 * ever turned into text.
 */
import type { Semantics } from '../prelude/semantics'
import type { ChunkColumns } from '../types'
import { barcodeKey, wordsOf } from './accumulator'
import { CountTable } from './countTable'
import type { StatsState } from './statsTypes'

/** Barcode keys, `keyWords` words each (plain data: crosses to the export worker). */
export interface BarcodeSet {
  keyWords: number
  size: number
  keys: Uint32Array
}

/** The barcodes (combined identity) with at least `minCount` records in the statistics' table. */
export function barcodesAtLeast(state: StatsState, minCount: number): BarcodeSet {
  // A digest keeps only its top barcodes (ADR 0016): the cells would be a handful, silently.
  if (state.partitions?.digest) throw new Error('the cells need a row per barcode: a digest was asked for (perBarcode)')
  const t = state.barcodes[0]?.table
  if (!t) return { keyWords: 0, size: 0, keys: new Uint32Array(0) }
  const W = t.keyWords
  let size = 0
  for (let id = 0; id < t.size; id++) if ((t.counts[id] ?? 0) >= minCount) size++
  const keys = new Uint32Array(size * W)
  let at = 0
  for (let id = 0; id < t.size; id++) {
    if ((t.counts[id] ?? 0) < minCount) continue
    keys.set(t.keys.subarray(id * W, id * W + W), at)
    at += W
  }
  return { keyWords: W, size, keys }
}

/**
 * A RecordSelection.match for the set: the records (chunk-relative, ascending)
 * whose barcode is one of the set's. Throws when the file's barcode levels do
 * not make keys of the set's width (a set from another file).
 */
export function matchBarcodeSet(set: BarcodeSet, sem: Semantics): (cols: ChunkColumns) => Uint32Array {
  const tags = sem.barcodes.map((f) => f.tag)
  if (set.size > 0 && 2 * tags.length !== set.keyWords) {
    throw new Error(`internal: a barcode set of ${String(set.keyWords)}-word keys for ${String(tags.length)} levels`)
  }
  const table = new CountTable(set.keyWords, Math.max(1, set.size), Math.max(1, set.size))
  for (let i = 0; i < set.size; i++) table.add(set.keys, i * set.keyWords, 1)
  const key = new Uint32Array(Math.max(1, set.keyWords))
  return (cols) => {
    const out: number[] = []
    if (set.size === 0) return new Uint32Array(0)
    const bc = tags.map((t) => wordsOf(cols.readColumns[t]))
    for (let r = 0; r < cols.recordCount; r++) {
      if (barcodeKey(bc, r, key) && table.find(key, 0) >= 0) out.push(r)
    }
    return Uint32Array.from(out)
  }
}
