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
import { BarcodesFromPairs } from './barcodesFromPairs'
import { ChunkRows } from './chunkRows'
import { CountTable, hash2, hash4, hashWords } from './countTable'
import { newHll } from './hll'
import { foldIntoDigest } from './barcodeDigest'
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
  private readonly keyWords: number
  /** The current chunk's keys, one row per record. */
  private readonly rows: ChunkRows
  private readonly maxExactPairs: number
  readonly barcodes: BarcodeCounter[] = []
  readonly pairs: CountTable | undefined
  pairShift = 0
  private partitions: PairPartitions | undefined
  /** Rows for other owners, kept when the partitions are left (takeForeignRows). */
  private leftOutbox: (Uint32Array | undefined)[] = []
  /** Barcodes counted through their pairs while the pair table is exact (tables only). */
  private readonly fromPairs: BarcodesFromPairs
  /** Takes the core's alignment tallies (addScRnaChunk) when they are folded. */
  private readonly tallySink: (t: AlignmentTallies) => void
  /** The references of the tallies not yet folded (foldTallies), or -1 when there are none. */
  private talliedRefs = -1

  constructor(shape: BarcodeUmiShape, opts: BarcodeUmiOptions, tallySink: (t: AlignmentTallies) => void = () => {}) {
    this.tallySink = tallySink
    const levels = shape.barcodeTags.length
    this.keyWords = 2 * levels
    this.rows = new ChunkRows(shape, this.keyWords)
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
    this.fromPairs = new BarcodesFromPairs(
      withUmi && levels === 1 && this.pairShift === 0,
      this.pairs,
      this.barcodes[0],
    )
  }

  /** Counts a chunk's barcodes and pairs; false when its barcode columns cannot be read as words. */
  addChunk(cols: ChunkColumns): boolean {
    const n = cols.recordCount
    if (this.barcodes.length === 0 || !this.rows.fill(cols)) return false
    let from = 0
    const parts = this.partitions
    if (parts && this.rows.hasUmi) {
      from = parts.addRows(this.rows.words, this.rows.stride, 0, n)
      if (from === n && parts.held <= this.maxExactPairs) return true
    }
    if (this.partitions) this.leavePartitions()
    if (from === n) return true
    if (this.fromPairs.active && this.rows.hasUmi && this.pairs!.size + n <= this.pairs!.maxEntries) {
      this.countPairs(from, n) // no record can be refused: every barcode is counted through its pair
      return true
    }
    if (this.rows.hasUmi) this.fromPairs.stop() // this chunk's pairs may be refused
    this.countBarcodes(from, n)
    if (this.pairs && this.rows.hasUmi) this.countPairs(from, n)
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
    return this.rows.mixed(n)
  }

  private countBarcodes(from: number, n: number): void {
    const rows = this.rows.words
    const stride = this.rows.stride
    const whole = this.barcodes[0]!
    if (this.keyWords === 2) {
      const table = whole.table
      const hashes = this.rows.hashRoom(n)
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
    const rows = this.rows.words
    const stride = this.rows.stride
    const hashes = this.rows.hashRoom(n)
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

  private halvePairs(shift: number): void {
    this.fromPairs.stop()
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
    this.fromPairs.stop()
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
    const saved = this.rows.words
    this.rows.words = rows
    this.fromPairs.stop()
    this.countBarcodes(0, n)
    if (this.pairs) this.countPairs(0, n)
    this.rows.words = saved
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
    this.fromPairs.move()
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
    this.fromPairs.move()
    const pairs = this.pairs
    if (pairs && (s.partitions || s.pairShift > this.pairShift || pairs.size + s.pairs.size > pairs.maxEntries)) {
      this.fromPairs.stop() // the merge may halve the pairs
    }
    // A state of partitions lists its barcodes there (its table holds the same).
    if (s.partitions) this.addPartitionState(s.partitions, true, pairs !== undefined)
    else s.barcodes.forEach((b, i) => this.barcodes[i]?.merge(b))
    this.mergePairs(s)
    this.fromPairs.markMoved() // s's barcodes came with it: its pairs' counts are not moved again
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
