/**
 * Barcodes counted through their pairs (barcodeUmiCounts.ts, tables only): while the pair table
 * is exact, a record with a UMI is counted once, in the pair table, and a barcode's records are
 * the sum of its pairs' counts, added to the barcode table when asked (`move`). Once the pair
 * table may refuse or drop pairs, barcodes are counted apart (`stop`).
 */
import type { BarcodeCounter } from './barcodeCounter'
import type { CountTable } from './countTable'

export class BarcodesFromPairs {
  /** Whether barcodes are still counted through their pairs. */
  active: boolean
  private readonly pairs: CountTable | undefined
  private readonly whole: BarcodeCounter | undefined
  /** `moved[id]`: how much of pair id's count the barcode table already holds. */
  private moved = new Float64Array(0)

  constructor(active: boolean, pairs: CountTable | undefined, whole: BarcodeCounter | undefined) {
    this.active = active
    this.pairs = pairs
    this.whole = whole
  }

  /** Adds to the barcode table what the pair table counted since the last call. */
  move(): void {
    const { pairs, whole } = this
    if (!this.active || !pairs || !whole) return
    if (this.moved.length < pairs.size) {
      const grown = new Float64Array(Math.max(pairs.size, 2 * this.moved.length))
      grown.set(this.moved)
      this.moved = grown
    }
    const moved = this.moved
    const PW = pairs.keyWords
    for (let id = 0; id < pairs.size; id++) {
      const d = pairs.counts[id]! - moved[id]!
      if (d > 0) whole.add(pairs.keys, id * PW, d)
      moved[id] = pairs.counts[id]!
    }
  }

  /** Takes the pair counts as they are now as already in the barcode table. */
  markMoved(): void {
    const pairs = this.pairs
    if (!this.active || !pairs) return
    if (this.moved.length < pairs.size) this.moved = new Float64Array(pairs.size)
    this.moved.set(pairs.counts.subarray(0, pairs.size))
  }

  /** Barcodes are counted apart from now on (the pair table may refuse or drop pairs). */
  stop(): void {
    this.move()
    this.active = false
    this.moved = new Float64Array(0)
  }
}
