/**
 * Exact (barcode, UMI) pairs and reads per barcode by radix partitioning (bench/results.md,
 * ADR 0009's fourth, eighth and tenth rounds). A probe per record into a table of millions of
 * pairs misses the caches (~100 ns); appending each record's key to one of 256 buckets is a
 * streaming write, and each bucket is then sorted and merged alone.
 *
 * Keys: a one-level barcode that fits 32 bits and a UMI below 2^31 (16 nt and 12 nt in 10x runs,
 * docs/format.md §7.8). The barcode is spread by a multiplication by an odd constant (a bijection
 * on 32 bits, so it is recovered exactly): the top BUCKET_BITS pick the bucket, the other
 * LOW_BITS stay in the key. Records are counted in WebAssembly (pairCountingCore.ts): a record
 * waits in its bucket (8 bytes) until PENDING_CAP keys do; each bucket's are then sorted by radix
 * and merged into its lists (4 bytes a distinct pair, 16 a barcode). States merged in from other
 * counters stay JavaScript lists (partitionLists.ts), merged with the core's at export.
 */
import { BUCKETS, bucketOf, emptyPartitions, mergeFigures, mergeLists, noLists, setBucket } from './partitionLists'
import type { BucketLists } from './partitionLists'
import { oddPairs, oddWords, pairsLeftOut, recount } from './partitionFigures'
import { PairCountingCore } from './pairCountingCore'
import type { AlignmentTallies, ScRnaChunkCounts, ScRnaShape } from './pairCountingCore'
import { DigestBuilder, foldIntoDigest, mergeDigests } from './barcodeDigest'
import { SpilledRuns } from './spilledRuns'
import type { SpillOptions } from './spilledRuns'
import type { PartitionState, StateExport } from './statsTypes'

export { BUCKET_BITS, barcodeOf, emptyPartitions } from './partitionLists'
export {
  anyPairsLeftOut,
  forEachPartitionPair,
  partitionBarcodeTable,
  partitionBarcodes,
  partitionBuffers,
  partitionFigures,
  withoutPairs,
} from './partitionFigures'
export type { PartitionFigures } from './partitionFigures'

/** Keys held before the buckets are sorted and merged, by default (32 MB; StatsOptions.pendingKeys). */
export const PENDING_CAP = 1 << 22

export class PairPartitions {
  /** The records' keys and lists, in WebAssembly memory. */
  private readonly core: PairCountingCore
  /** States merged in (merge): lists replaced, never written in place. */
  private readonly state: PartitionState = emptyPartitions()
  private readonly owners: number
  /** `pendingKeys` shared between the owners: together they hold as many keys waiting as one. */
  private readonly pendingCap: number
  /** Whether a state merged in was a spilled counter's partial report (its pairs are upper bounds). */
  private approximateIn = false
  /** Whether a state merged in was a partial report that left spilled barcodes out (barcodesIncomplete). */
  private incompleteIn = false
  /** Lists written to disk past the memory budget (spilledRuns.ts); undefined: never spilled. */
  private readonly spill: { runs: SpilledRuns; budget: number } | undefined

  /**
   * `owners` counters share the buckets, each a contiguous range (bench/results.md, ADR 0009's
   * fourth round: worker threads that each own a range exchange rows, so no pair is held twice).
   */
  constructor(owners = 1, self = 0, pendingKeys = PENDING_CAP, spill?: SpillOptions) {
    this.owners = owners
    this.spill = spill
      ? { runs: new SpilledRuns(spill.store, spill.partialReports, spill.partialBarcodesUpTo), budget: spill.budget }
      : undefined
    this.pendingCap = Math.ceil(pendingKeys / owners)
    const ownBuckets = Math.ceil(((self + 1) * BUCKETS) / owners) - Math.ceil((self * BUCKETS) / owners)
    this.core = new PairCountingCore(owners, self, Math.ceil((1.25 * this.pendingCap) / ownBuckets))
  }

  /** Pairs (barcode, UMI) of other owners' buckets met since the last call, by owner (undefined: none). */
  takeOutbox(): (Uint32Array | undefined)[] {
    return this.core.takeOutbox(this.owners)
  }

  /** Distinct pairs merged so far (~4 bytes each), and keys waiting (8 bytes each). */
  get held(): number {
    return this.core.held + this.core.waiting + this.state.pairCount
  }

  /**
   * Adds records [from, n) of `rows` (barcode low, high, UMI low, high at r·stride); stops at a
   * record whose barcode or UMI does not fit 32 bits and returns its index (n when none).
   */
  addRows(rows: Uint32Array, stride: number, from: number, n: number): number {
    const r = this.core.addRows(rows, stride, from, n)
    if (this.core.waiting >= this.pendingCap) this.flush()
    return r
  }

  /** A plain scRNA chunk's records, counted in the core in one walk (PairCountingCore.addScRnaChunk). */
  addScRnaChunk(records: Uint8Array, nrec: number, shape: ScRnaShape): ScRnaChunkCounts | undefined {
    const counts = this.core.addScRnaChunk(records, nrec, shape)
    if (counts && this.core.waiting >= this.pendingCap) this.flush()
    return counts
  }

  /** PairCountingCore.foldTallies. */
  foldTallies(refCount: number, add: (t: AlignmentTallies) => void): void {
    this.core.foldTallies(refCount, add)
  }

  /** Adds pairs (barcode, UMI) another owner met in this counter's buckets (its takeOutbox). */
  addPairs(pairs: Uint32Array): void {
    this.core.addPairs(pairs)
    if (this.core.waiting >= this.pendingCap) this.flush()
  }

  /** Sorts each bucket's waiting keys and merges them into its lists; spills them past the budget. */
  flush(): void {
    this.core.flush()
    if (this.spill && this.listBytes > this.spill.budget) this.spillLists(this.spill.runs)
  }

  /** Bytes the merged lists take in the core, with the quarter of room a merge leaves. */
  private get listBytes(): number {
    return 1.25 * (4 * this.core.held + 16 * this.core.barcodesHeld)
  }

  /** The lists on disk, when some were spilled and not yet merged back (exportSpilled). */
  private get spilledRuns(): SpilledRuns | undefined {
    return this.spill && this.spill.runs.spills > 0 ? this.spill.runs : undefined
  }

  /** Whether lists were spilled to disk (the counter is then exact at any size). */
  get spilled(): boolean {
    return this.spilledRuns !== undefined
  }

  /** Writes every bucket's lists out and empties them (the core's memory is reused, not returned). */
  private spillLists(runs: SpilledRuns): void {
    for (let b = 0; b < BUCKETS; b++) {
      runs.write(b, this.core.bucketViews(b))
      this.core.dropBucket(b)
    }
    runs.spills++
  }

  /**
   * A copy of the lists (StateExport) with every waiting key merged; for a `partial` report only
   * when that is cheap (the lists hold fewer than 4 pairs a waiting key). Without the pairs' UMIs
   * unless `whole`, except in a bucket a merged-in state shares (merged with them).
   */
  exportState(what: StateExport = 'whole'): PartitionState {
    const runs = this.spilledRuns
    if (runs) return what === 'partial' ? this.exportPartialSpilled(runs) : this.exportSpilled(runs, what)
    if (what !== 'partial' || this.core.held < 4 * this.core.waiting) this.core.flush()
    const s = emptyPartitions()
    for (let b = 0; b < BUCKETS; b++) {
      const mergedIn = this.state.barcodes[b]!.length > 0
      const mine = this.core.bucketLists(b, what === 'whole' || mergedIn)
      if (!mergedIn) {
        setBucket(s, b, mine)
        s.oddCounts[b] = this.core.bucketOddPairs(b)
      } else if (mine.barcodes.length === 0) {
        setBucket(s, b, bucketOf(this.state, b))
        s.oddCounts[b] = this.state.oddCounts[b]!
      } else {
        setBucket(s, b, this.mergeBucket(b, mine))
        s.oddCounts[b] = oddPairs(s, b)
      }
    }
    // A copy: the export may be posted away (its buffers transferred) while this counter goes on.
    if (this.state.digest) s.digest = mergeDigests(this.state.digest)
    if (what === 'digest') foldIntoDigest(s)
    recount(s)
    if (this.approximateIn) s.approximate = true
    if (this.incompleteIn) s.barcodesIncomplete = true
    return s
  }

  /**
   * The export of a counter that spilled: each bucket's lists on disk, in the core and merged in,
   * merged one bucket at a time; the core's lists are dropped as they are read, so the memory is
   * the figures (16 bytes a barcode) and one bucket's pairs. Pairs are kept only for `whole`. The
   * merged lists become the counter's merged-in state: later exports give them again (a `figures`
   * one takes no more rows in those buckets).
   */
  private exportSpilled(runs: SpilledRuns, what: StateExport, maxRows = Infinity): PartitionState {
    this.core.flush()
    // What the core still holds is written out too, and its rooms freed: its memory is then free
    // in one piece for the merges' rooms (spilledRuns.ts), which would else grow it (by as much
    // again: the allocator doubles) on a run with large buckets (20 GB, bench/results.md).
    this.spillLists(runs)
    this.core.releaseRooms()
    const s = emptyPartitions()
    // Each bucket folded as soon as it is merged (`digest`, or rows past maxRows), so one bucket's
    // lists are held at once; rows kept besides while they may still be wanted.
    const folding = what === 'digest' || (what === 'figures' && maxRows < Infinity)
    const digest = folding ? new DigestBuilder() : undefined
    if (this.state.digest && digest) digest.addDigest(this.state.digest)
    let rows = what === 'digest' ? -1 : 0
    const keep = (b: number, lists: BucketLists, odd: number): void => {
      digest?.addBucket(b, lists, odd)
      if (rows < 0) return
      rows += lists.barcodes.length
      if (rows > maxRows) {
        dropRows(s)
        rows = -1
        return
      }
      // Copies: `lists` are views of the counting core's memory (SpilledRuns.merged).
      setBucket(s, b, {
        barcodes: lists.barcodes.slice(),
        reads: lists.reads.slice(),
        umiCounts: lists.umiCounts.slice(),
        umis: what === 'whole' ? lists.umis.slice() : new Uint32Array(0),
      })
      s.oddCounts[b] = odd
    }
    for (let b = 0; b < BUCKETS; b++) {
      if (pairsLeftOut(this.state, b)) {
        // Another owner's figures (its buckets, not this one's): taken as they are.
        if (runs.has(b) || this.core.bucketCounted(b)) {
          throw new Error(`internal: bucket ${String(b)} merged without its pairs`)
        }
        keep(b, bucketOf(this.state, b), this.state.oddCounts[b]!)
        continue
      }
      // The core's own lists are on disk now (spillLists above): what else there is, is merged in.
      runs.merged(b, this.core, [bucketOf(this.state, b)], (lists) => {
        keep(b, lists, oddWords(lists.umis))
      })
    }
    runs.releaseRooms()
    // Rows kept (all of them): the digest is the one merged in, if any; else every bucket is in it.
    if (rows >= 0 && this.state.digest) s.digest = mergeDigests(this.state.digest)
    if (rows < 0 && digest) s.digest = digest.digest()
    recount(s)
    runs.spills = 0
    this.setState(s)
    return s
  }

  /**
   * Merges what a counter that spilled wrote, bucket by bucket, into its state now (the end of a
   * pass; several counters settle side by side): a later export is then a copy. `figures` leaves
   * the pairs' UMIs out, as its export would.
   */
  settle(what: Exclude<StateExport, 'partial'>, maxRows = Infinity): void {
    const runs = this.spilledRuns
    if (runs) this.exportSpilled(runs, what, maxRows)
  }

  /** Takes `s` as the merged-in state (its lists are shared, never written in place). */
  private setState(s: PartitionState): void {
    for (let b = 0; b < BUCKETS; b++) {
      setBucket(this.state, b, bucketOf(s, b))
      this.state.oddCounts[b] = s.oddCounts[b]!
    }
    // Its own copy: `s` is handed to the caller, whose buffers may be transferred.
    if (s.digest) this.state.digest = mergeDigests(s.digest)
    else delete this.state.digest
    recount(this.state)
  }

  /**
   * A partial report of a counter that spilled: each bucket's barcode figures in the core, on disk
   * (kept in memory: SpillOptions.partialReports) and merged in, summed; barcodes and reads exact,
   * pairs and distinct UMIs upper bounds (`approximate`) until the end's merge. Where the spilled
   * figures were too many to keep (partialBarcodesUpTo), those in memory only (`barcodesIncomplete`).
   */
  private exportPartialSpilled(runs: SpilledRuns): PartitionState {
    const s = emptyPartitions()
    for (let b = 0; b < BUCKETS; b++) {
      const spilled = runs.spilledFigures(b) ?? { lists: noLists(), odd: 0 }
      let lists = mergeFigures(spilled.lists, this.core.bucketLists(b, false))
      if (this.state.barcodes[b]!.length > 0) lists = mergeFigures(lists, bucketOf(this.state, b))
      setBucket(s, b, lists)
      s.oddCounts[b] = spilled.odd + this.core.bucketOddPairs(b) + this.state.oddCounts[b]!
    }
    if (this.state.digest) s.digest = mergeDigests(this.state.digest)
    recount(s)
    s.approximate = true
    if (!runs.figuresKept) s.barcodesIncomplete = true
    return s
  }

  /** Bucket b's merged-in lists and `lists` as one. */
  private mergeBucket(b: number, lists: BucketLists): BucketLists {
    if (pairsLeftOut(this.state, b)) throw new Error(`internal: bucket ${String(b)} merged without its pairs`)
    return mergeLists(bucketOf(this.state, b), lists)
  }

  /**
   * Adds another accumulator's lists (a bucket this one has not seen is taken as it is). A
   * bucket without its pairs (withoutPairs) can only be taken.
   */
  merge(other: PartitionState): void {
    const s = this.state
    if (other.approximate) this.approximateIn = true
    if (other.barcodesIncomplete) this.incompleteIn = true
    if (other.digest) s.digest = mergeDigests(s.digest, other.digest)
    for (let b = 0; b < BUCKETS; b++) {
      if (other.barcodes[b]!.length === 0) continue
      const mine = s.barcodes[b]!.length > 0
      // Lists met here, in the core or on disk (merged at export) need the other's pairs.
      const counted = this.core.bucketCounted(b) || (this.spill?.runs.has(b) ?? false)
      if ((mine || counted) && (pairsLeftOut(other, b) || pairsLeftOut(s, b))) {
        throw new Error(`internal: bucket ${String(b)} merged without its pairs`)
      }
      if (mine) {
        setBucket(s, b, mergeLists(bucketOf(s, b), bucketOf(other, b)))
        s.oddCounts[b] = oddPairs(s, b)
      } else {
        setBucket(s, b, bucketOf(other, b))
        s.oddCounts[b] = other.oddCounts[b]!
      }
    }
    recount(s)
  }
}

/** Empties every bucket of `s` (its rows were folded into a digest instead). */
function dropRows(s: PartitionState): void {
  const none = noLists()
  for (let b = 0; b < BUCKETS; b++) {
    setBucket(s, b, none)
    s.oddCounts[b] = 0
  }
}
