/**
 * One barcode level (or the combined identity) counted in a capped table, and the barcodes that
 * arrive once it is full counted apart, in a HyperLogLog (docs/stats.md "Memory").
 */
import { CountTable, hashWords } from './countTable'
import { hllAdd, hllMerge, newHll } from './hll'
import type { BarcodeTableState } from './statsTypes'

const HLL_SEED = 0x5bd1e995

export class BarcodeCounter {
  readonly table: CountTable
  hll = newHll()
  untrackedRecords = 0

  constructor(keyWords: number, max: number) {
    this.table = new CountTable(keyWords, max)
  }

  add(words: Uint32Array, at: number, n: number): void {
    if (this.table.add(words, at, n) < 0) this.untracked(words, at, n)
  }

  /** Records of a barcode the full table refused: counted, and its key into the sketch. */
  untracked(words: Uint32Array, at: number, n: number): void {
    this.untrackedRecords += n
    hllAdd(this.hll, hashWords(words, at, this.table.keyWords, HLL_SEED))
  }

  exportState(): BarcodeTableState {
    return { table: this.table.exportState(), hll: this.hll.slice(), untrackedRecords: this.untrackedRecords }
  }

  merge(s: BarcodeTableState): void {
    // Into an empty table (a partial report's sum, the end's), room for them and a quarter more at
    // once: a chain of doublings up to a million barcodes left ~30 MB of copies behind each report.
    if (this.table.size === 0) this.table.reserve(Math.ceil(1.25 * s.table.size))
    const W = this.table.keyWords
    for (let id = 0; id < s.table.size; id++) this.add(s.table.keys, id * W, s.table.counts[id]!)
    hllMerge(this.hll, s.hll)
    this.untrackedRecords += s.untrackedRecords
  }
}

/** A pair is sampled when the top `shift` bits of its hash are 0 (a ½^shift share of all pairs). */
export function inSample(hash: number, shift: number): boolean {
  return shift === 0 || hash >>> (32 - shift) === 0
}
