/**
 * Barcodes and (barcode, UMI) pairs of the statistics pass (docs/stats.md, docs/adr/0009).
 * Two ways, the first while it can:
 * - exact, by radix partitioning (pairPartitions.ts): one barcode level and a UMI, both ≤ 32
 *   bits, and at most `maxExactPairs` distinct pairs;
 * - otherwise capped tables: barcodes exact up to `maxBarcodes` (then a HyperLogLog), pairs
 *   exact up to `maxPairs`, then sampled by hash. Leaving the partitions moves what they hold
 *   into the tables; a pair goes in with 1 read if its reads were odd, else 2 (the tables use a
 *   pair's count for its parity only, Good–Toulmin; barcodes keep their true reads).
 */
import type { ChunkColumns } from '../types'
import { BarcodeCounter, inSample } from './barcodeCounter'
import { CountTable, hash2, hash4, hashWords } from './countTable'
import { newHll } from './hll'
import { foldIntoDigest } from './barcodeDigest'
import { copyWords } from './keys'
import {
  PairPartitions,
  anyPairsLeftOut,
  forEachPartitionPair,
  partitionBarcodeTable,
  partitionBarcodes,
} from './pairPartitions'
import type { AlignmentTallies, ScRnaChunkCounts, ScRnaShape } from './pairCountingCore'
import type {
  BarcodeUmiOptions,
  BarcodeUmiShape,
  CountTableState,
  PartitionState,
  StateExport,
  StatsState,
} from './statsTypes'

const PAIR_SEED = 0x1b873593

export class BarcodeUmiCounts {
  private readonly shape: BarcodeUmiShape
  private readonly keyWords: number
  /** Words per row of `rows`: the barcode key, then two UMI words. */
  private readonly rowWords: number
  /** The current chunk's keys, one row per record (fillRows). */
  private rows: Uint32Array = new Uint32Array(0)
  private hashes = new Uint32Array(0)
  /** Whether `rows` holds the current chunk's UMIs. */
  private hasUmi = false
  private readonly maxExactPairs: number
  readonly barcodes: BarcodeCounter[] = []
  readonly pairs: CountTable | undefined
  pairShift = 0
  private partitions: PairPartitions | undefined
  /** Rows for other owners, kept when the partitions are left (takeForeignRows). */
  private leftOutbox: (Uint32Array | undefined)[] = []
  /**
   * While true (tables only), the barcodes of records with a UMI are not counted apart: every
   * such record is in the exact pair table, and a barcode's records are the sum of its pairs'
   * counts. `movedToBarcodes[id]` is how much of pair id's count the barcode table already holds.
   */
  private barcodesFromPairs: boolean
  private movedToBarcodes = new Float64Array(0)
  /** Takes the core's alignment tallies (addScRnaChunk) when they are folded. */
  private readonly tallySink: (t: AlignmentTallies) => void
  /** The references of the tallies not yet folded (foldTallies), or -1 when there are none. */
  private talliedRefs = -1

  constructor(shape: BarcodeUmiShape, opts: BarcodeUmiOptions, tallySink: (t: AlignmentTallies) => void = () => {}) {
    this.shape = shape
    this.tallySink = tallySink
    const levels = shape.barcodeTags.length
    this.keyWords = 2 * levels
    this.rowWords = this.keyWords + 2
    // Lists that spill to disk past their budget stay exact at any size.
    this.maxExactPairs = opts.spill ? Infinity : opts.maxExactPairs
    if (levels > 0) {
      this.barcodes.push(new BarcodeCounter(this.keyWords, opts.maxBarcodes))
      if (levels > 1) for (let l = 0; l < levels; l++) this.barcodes.push(new BarcodeCounter(2, opts.maxBarcodes))
    }
    const withUmi = levels > 0 && shape.umiTag !== undefined
    this.pairs = withUmi ? new CountTable(this.keyWords + 2, opts.maxPairs, undefined, PAIR_SEED) : undefined
    this.pairShift = withUmi ? opts.pairShift : 0
    const exact = withUmi && levels === 1 && this.pairShift === 0 && opts.maxExactPairs > 0
    const owners = opts.bucketOwners
    this.partitions = exact ? new PairPartitions(owners.count, owners.index, opts.pendingKeys, opts.spill) : undefined
    this.barcodesFromPairs = withUmi && levels === 1 && this.pairShift === 0
  }

  /** Counts a chunk's barcodes and pairs; false when its barcode columns cannot be read as words. */
  addChunk(cols: ChunkColumns): boolean {
    const n = cols.recordCount
    if (this.barcodes.length === 0 || !this.fillRows(cols)) return false
    let from = 0
    const parts = this.partitions
    if (parts && this.hasUmi) {
      from = parts.addRows(this.rows, this.rowWords, 0, n)
      if (from === n && parts.held <= this.maxExactPairs) return true
    }
    if (this.partitions) this.leavePartitions()
    if (from === n) return true
    if (this.barcodesFromPairs && this.hasUmi && this.pairs!.size + n <= this.pairs!.maxEntries) {
      this.countPairs(from, n) // no record can be refused: every barcode is counted through its pair
      return true
    }
    if (this.hasUmi) this.stopBarcodesFromPairs() // this chunk's pairs may be refused
    this.countBarcodes(from, n)
    if (this.pairs && this.hasUmi) this.countPairs(from, n)
    return true
  }

  /**
   * Copies the chunk's barcode (and UMI) columns into `rows`, one row of `rowWords` words per
   * record: the levels' words (low, high), then the UMI's. A row's first keyWords words are its
   * barcode key, all of them its pair key.
   */
  private fillRows(cols: ChunkColumns): boolean {
    const n = cols.recordCount
    const stride = this.rowWords
    if (this.rows.length < n * stride) {
      this.rows = new Uint32Array(Math.max(n, 2 * (this.rows.length / stride)) * stride)
    }
    const tags = this.shape.barcodeTags
    for (let l = 0; l < tags.length; l++) {
      if (!copyWords(cols.readColumns[tags[l]!], this.rows, stride, 2 * l, n)) return false
    }
    const umi = this.shape.umiTag
    this.hasUmi = umi !== undefined && copyWords(cols.readColumns[umi], this.rows, stride, this.keyWords, n)
    return true
  }

  /**
   * A plain scRNA chunk's records counted in the exact pairs' core in one walk (its keys, and its
   * alignments into the core's tallies: foldTallies); undefined when the pairs are no longer
   * exact or the records do not suit, and nothing is counted. Past maxExactPairs the partitions
   * are left, as addChunk leaves them.
   */
  addScRnaChunk(records: Uint8Array, nrec: number, shape: ScRnaShape): ScRnaChunkCounts | undefined {
    const parts = this.partitions
    const counted = parts?.addScRnaChunk(records, nrec, shape)
    if (!parts || !counted) return undefined
    this.talliedRefs = shape.refCount
    if (parts.held > this.maxExactPairs) this.leavePartitions()
    return counted
  }

  /**
   * Hands the core's alignment tallies to the sink and zeroes them: before the counts are read,
   * and when the partitions are left (the core goes with them).
   */
  foldTallies(): void {
    if (this.talliedRefs < 0) return
    this.partitions?.foldTallies(this.talliedRefs, this.tallySink)
    this.talliedRefs = -1
  }

  /** Whether the chunk's `n` records have more than one barcode (collated files have one a chunk). */
  mixedChunk(n: number): boolean {
    const rows = this.rows
    const stride = this.rowWords
    const W = this.keyWords
    for (let r = 1, at = stride; r < n; r++, at += stride) {
      for (let i = 0; i < W; i++) if (rows[at + i] !== rows[i]) return true
    }
    return false
  }

  private countBarcodes(from: number, n: number): void {
    const rows = this.rows
    const stride = this.rowWords
    const whole = this.barcodes[0]!
    if (this.keyWords === 2) {
      const table = whole.table
      const hashes = this.rowHashes(n)
      for (let r = from, at = from * stride; r < n; r++, at += stride) {
        hashes[r] = hash2(rows[at]!, rows[at + 1]!, table.seed)
      }
      for (
        let r = table.addRows(rows, stride, hashes, from, n);
        r < n;
        r = table.addRows(rows, stride, hashes, r + 1, n)
      ) {
        whole.untracked(rows, r * stride, 1)
      }
      return
    }
    for (let r = from, at = from * stride; r < n; r++, at += stride) whole.add(rows, at, 1)
    for (let l = 1; l < this.barcodes.length; l++) {
      const level = this.barcodes[l]!
      for (let r = from, at = from * stride + 2 * (l - 1); r < n; r++, at += stride) level.add(rows, at, 1)
    }
  }

  /**
   * Hashes first, then probes: consecutive probes do not wait on each other (bench/results.md,
   * ADR 0009's first round).
   */
  private countPairs(from: number, n: number): void {
    const rows = this.rows
    const stride = this.rowWords
    const hashes = this.rowHashes(n)
    for (let r = from, at = from * stride; r < n; r++, at += stride) {
      hashes[r] =
        stride === 4
          ? hash4(rows[at]!, rows[at + 1]!, rows[at + 2]!, rows[at + 3]!, PAIR_SEED)
          : hashWords(rows, at, stride, PAIR_SEED)
    }
    const pairs = this.pairs!
    for (let r = pairs.addRows(rows, stride, hashes, from, n, this.pairShift); r < n;) {
      this.addPairHashed(rows, r * stride, 1, hashes[r]!)
      r = pairs.addRows(rows, stride, hashes, r + 1, n, this.pairShift)
    }
  }

  private rowHashes(n: number): Uint32Array {
    if (this.hashes.length < n) this.hashes = new Uint32Array(Math.max(n, 2 * this.hashes.length))
    return this.hashes
  }

  /** Adds a pair if its hash is in the sample; halves the sample while the table is full. */
  private addPair(words: Uint32Array, at: number, n: number): void {
    this.addPairHashed(words, at, n, hashWords(words, at, this.pairs!.keyWords, PAIR_SEED))
  }

  private addPairHashed(words: Uint32Array, at: number, n: number, h: number): void {
    const pairs = this.pairs!
    for (;;) {
      if (!inSample(h, this.pairShift)) return
      if (pairs.addHashed(words, at, n, h) >= 0) return
      this.halvePairs(this.pairShift + 1)
    }
  }

  /** Adds to the barcode table what the pair table counted since the last call (barcodesFromPairs). */
  private moveCountsToBarcodes(): void {
    const pairs = this.pairs
    if (!this.barcodesFromPairs || !pairs) return
    if (this.movedToBarcodes.length < pairs.size) {
      const grown = new Float64Array(Math.max(pairs.size, 2 * this.movedToBarcodes.length))
      grown.set(this.movedToBarcodes)
      this.movedToBarcodes = grown
    }
    const moved = this.movedToBarcodes
    const whole = this.barcodes[0]!
    const PW = pairs.keyWords
    for (let id = 0; id < pairs.size; id++) {
      const d = pairs.counts[id]! - moved[id]!
      if (d > 0) whole.add(pairs.keys, id * PW, d)
      moved[id] = pairs.counts[id]!
    }
  }

  /** Takes the pair counts as they are now as already in the barcode table. */
  private markPairCountsMoved(): void {
    const pairs = this.pairs
    if (!this.barcodesFromPairs || !pairs) return
    if (this.movedToBarcodes.length < pairs.size) this.movedToBarcodes = new Float64Array(pairs.size)
    this.movedToBarcodes.set(pairs.counts.subarray(0, pairs.size))
  }

  /** Barcodes are counted apart from now on (the pair table may refuse or drop pairs). */
  private stopBarcodesFromPairs(): void {
    this.moveCountsToBarcodes()
    this.barcodesFromPairs = false
    this.movedToBarcodes = new Float64Array(0)
  }

  private halvePairs(shift: number): void {
    this.stopBarcodesFromPairs()
    this.pairShift = shift
    this.pairs!.retain((_id, hash) => inSample(hash, shift))
  }

  /** Moves what the partitions hold into the tables, which count from now on. */
  private leavePartitions(): void {
    const parts = this.partitions
    if (!parts) return
    this.foldTallies()
    this.partitions = undefined
    this.leftOutbox = parts.takeOutbox()
    this.stopBarcodesFromPairs()
    this.addPartitionState(parts.exportState(), true)
  }

  /** A partition state into the tables (its barcodes too, unless they come another way). */
  private addPartitionState(s: PartitionState, withBarcodes: boolean, withPairs = true): void {
    if (withBarcodes) {
      const { keys, counts } = partitionBarcodes(s)
      for (let id = 0; id < counts.length; id++) this.barcodes[0]!.add(keys, 2 * id, counts[id]!)
    }
    if (!withPairs) return
    const words = new Uint32Array(4)
    forEachPartitionPair(s, (barcode, umi, odd) => {
      words[0] = barcode
      words[2] = umi
      this.addPair(words, 0, odd ? 1 : 2)
    })
  }

  /** Pairs (barcode, UMI) of other owners' buckets met since the last call, by owner. */
  takeForeignRows(): (Uint32Array | undefined)[] {
    if (this.partitions) return this.partitions.takeOutbox()
    const left = this.leftOutbox
    this.leftOutbox = []
    return left
  }

  /**
   * Counts pairs (barcode, UMI) another owner handed over (their records are counted where they
   * were decoded). The array is this counter's from then on (PairPartitions.addPairs).
   */
  addForeignRows(pairs: Uint32Array): void {
    const parts = this.partitions
    if (parts) {
      parts.addPairs(pairs)
      if (parts.held > this.maxExactPairs) this.leavePartitions()
      return
    }
    const n = pairs.length / 2
    const rows = new Uint32Array(4 * n) // the tables' rows: barcode, 0, UMI, 0
    for (let i = 0; i < n; i++) {
      rows[4 * i] = pairs[2 * i]!
      rows[4 * i + 2] = pairs[2 * i + 1]!
    }
    const saved = this.rows
    this.rows = rows
    this.stopBarcodesFromPairs()
    this.countBarcodes(0, n)
    if (this.pairs) this.countPairs(0, n)
    this.rows = saved
  }

  /** The StatsState fields of barcodes and pairs (`what`: PairPartitions.exportState). */
  exportState(what: StateExport = 'whole'): Pick<StatsState, 'barcodes' | 'pairs' | 'pairShift' | 'partitions'> {
    const noPairs = emptyTable(this.keyWords + 2)
    if (this.partitions) {
      const s = this.partitions.exportState(what)
      // A partial report's state is only summed for a report, which needs no row per barcode:
      // folded into a digest (ADR 0016), a few kilobytes where rows and their table cost ~36 bytes
      // a barcode at each report (bench/results.md, issue 35), and the same JSON.
      if (what === 'partial') foldIntoDigest(s)
      const table = partitionBarcodeTable(s)
      return { barcodes: [{ table, hll: newHll(), untrackedRecords: 0 }], pairs: noPairs, pairShift: 0, partitions: s }
    }
    this.moveCountsToBarcodes()
    return {
      barcodes: this.barcodes.map((b) => b.exportState()),
      pairs: (this.pairs ?? new CountTable(this.keyWords + 2, 0, 0)).exportState(),
      pairShift: this.pairShift,
      partitions: null,
    }
  }

  /** Merges the spilled exact pairs now (PairPartitions.settle). */
  settle(what: Exclude<StateExport, 'partial'>, maxRows?: number): void {
    this.partitions?.settle(what, maxRows)
  }

  /** Whether the pairs are counted exactly so far (in the partitions, not sampled in tables). */
  get exactPairs(): boolean {
    return this.partitions !== undefined
  }

  /**
   * Adds another accumulator's barcodes and pairs. A state whose pairs were left out
   * (StateExport `figures`) keeps the partitions whatever they hold: leaving them would need
   * its pairs, and its memory is spent already.
   */
  merge(s: StatsState): void {
    if (this.partitions && s.partitions) {
      this.partitions.merge(s.partitions)
      if (this.partitions.held > this.maxExactPairs && !anyPairsLeftOut(s.partitions)) this.leavePartitions()
      return
    }
    this.leavePartitions()
    this.moveCountsToBarcodes()
    const pairs = this.pairs
    if (pairs && (s.partitions || s.pairShift > this.pairShift || pairs.size + s.pairs.size > pairs.maxEntries)) {
      this.stopBarcodesFromPairs() // the merge may halve the pairs
    }
    // A state of partitions lists its barcodes there (its table is the same, or left out: `partial`).
    if (s.partitions) this.addPartitionState(s.partitions, true, pairs !== undefined)
    else s.barcodes.forEach((b, i) => this.barcodes[i]?.merge(b))
    this.mergePairs(s)
    this.markPairCountsMoved() // s's barcodes came with s.barcodes: its pairs' counts are not moved again
  }

  private mergePairs(s: StatsState): void {
    if (!this.pairs || s.pairs.size === 0) return
    if (s.pairShift > this.pairShift) this.halvePairs(s.pairShift)
    const PW = this.pairs.keyWords
    for (let id = 0; id < s.pairs.size; id++) this.addPair(s.pairs.keys, id * PW, s.pairs.counts[id]!)
  }
}

/** An empty count table's state (`keyWords` words a key). */
function emptyTable(keyWords: number): CountTableState {
  return new CountTable(keyWords, 0, 0).exportState()
}
