/**
 * Exact (barcode, UMI) pairs and reads per barcode by radix partitioning (docs/adr/0009, fourth
 * and eighth rounds). A probe per record into a table of millions of pairs misses the caches
 * (~100 ns); appending each record's key to one of 256 buckets is a streaming write, and each
 * bucket is then sorted and merged alone.
 *
 * Keys: a one-level barcode that fits 32 bits and a UMI below 2^31 (16 nt and 12 nt in 10x runs,
 * docs/format.md §7.8). The barcode is spread by a multiplication by an odd constant (a bijection
 * on 32 bits, so it is recovered exactly): the top BUCKET_BITS pick the bucket, the other
 * LOW_BITS stay in the key. A record waits in its bucket's pending arrays (low bits, UMI: 8
 * bytes) until PENDING_CAP keys do; each bucket's are then sorted by radix (sortKeys.ts) and
 * merged into its lists (partitionLists.ts: 4 bytes a distinct pair, 16 a barcode).
 */
import {
  BUCKETS,
  LOW_BITS,
  MAX_UMI,
  SPREAD,
  bucketOf,
  emptyPartitions,
  giveBackLists,
  mergeLists,
  setBucket,
  sortedKeyLists,
} from './partitionLists'
import type { BucketLists } from './partitionLists'
import { oddPairs, pairsLeftOut, recount } from './partitionFigures'
import { sortKeys } from './sortKeys'
import type { PartitionState } from './types'

export { BUCKET_BITS, barcodeOf, emptyPartitions } from './partitionLists'
export {
  forEachPartitionPair,
  partitionBarcodes,
  partitionBuffers,
  partitionFigures,
  withoutPairs,
} from './partitionFigures'
export type { PartitionFigures } from './partitionFigures'

const LOW_MASK = (1 << LOW_BITS) - 1
/** Keys held before the buckets are sorted and merged, by default (32 MB; StatsOptions.pendingKeys). */
export const PENDING_CAP = 1 << 22

export class PairPartitions {
  /** The merged lists (bucket arrays are replaced, never written in place). */
  private readonly state: PartitionState = emptyPartitions()
  /** Per bucket, the keys waiting, two words each: the barcode's low bits, then the UMI. */
  private readonly pending: Uint32Array[]
  private readonly flushShare: number
  private readonly pendingSize = new Uint32Array(BUCKETS)
  /** Buckets whose lists an exported or merged state shares: not to be given back. */
  private readonly shared = new Uint8Array(BUCKETS)
  /** Buckets whose odd pairs are to be counted again (countOdd). */
  private readonly oddStale = new Uint8Array(BUCKETS)
  private pendingTotal = 0
  /** The buckets this counter keeps, [ownFrom, ownTo): all, unless it is one of several owners. */
  private readonly ownFrom: number
  private readonly ownTo: number
  /** `pendingKeys` shared between the owners: together they hold as many keys waiting as one. */
  private readonly pendingCap: number
  private readonly ownerOf: Uint8Array
  /** Per owner, the pairs (barcode, UMI) of its buckets met here, for it to count (addPairs). */
  private outbox: Uint32Array[]
  private outboxSize: number[]
  /**
   * Arrays handed over by the other owners (addPairs), counted: room for this counter's next
   * outbox. Two owners swap the same arrays batch after batch, where a copy of each outbox
   * into fresh memory cost ~4 % of the CPU (docs/adr/0009, ninth round).
   */
  private readonly spareRows: Uint32Array[] = []

  /**
   * `owners` counters share the buckets, each a contiguous range (docs/adr/0009, fourth round:
   * worker threads that each own a range exchange rows, so no pair is held twice).
   */
  constructor(owners = 1, self = 0, pendingKeys = PENDING_CAP) {
    this.pendingCap = Math.ceil(pendingKeys / owners)
    this.ownerOf = new Uint8Array(BUCKETS)
    for (let o = 0; o < owners; o++) this.ownerOf.fill(o, Math.ceil((o * BUCKETS) / owners))
    this.ownFrom = Math.ceil((self * BUCKETS) / owners)
    this.ownTo = Math.ceil(((self + 1) * BUCKETS) / owners)
    this.pending = Array.from({ length: BUCKETS }, () => new Uint32Array(0))
    this.flushShare = Math.ceil((1.25 * this.pendingCap) / (this.ownTo - this.ownFrom))
    this.outbox = Array.from({ length: owners }, () => new Uint32Array(0))
    this.outboxSize = Array.from({ length: owners }, () => 0)
  }

  /**
   * Pairs (barcode, UMI) of other owners' buckets met since the last call, by owner (undefined:
   * none): views of arrays this counter no longer refers to, for the caller to hand over.
   */
  takeOutbox(): (Uint32Array | undefined)[] {
    const out = this.outbox.map((rows, o) => {
      const k = this.outboxSize[o]!
      if (k === 0) return undefined
      this.outbox[o] = this.spareRows.pop() ?? new Uint32Array(rows.length)
      return rows.subarray(0, 2 * k)
    })
    this.outboxSize.fill(0)
    return out
  }

  private toOutbox(b: number, barcode: number, umi: number): void {
    const o = this.ownerOf[b]!
    let rows = this.outbox[o]!
    const k = this.outboxSize[o]!
    if (2 * k === rows.length) {
      const grown = new Uint32Array(Math.max(4096, 2 * rows.length))
      grown.set(rows)
      this.outbox[o] = rows = grown
    }
    rows[2 * k] = barcode
    rows[2 * k + 1] = umi
    this.outboxSize[o] = k + 1
  }

  /** Distinct pairs merged so far (~4 bytes each), and keys waiting (8 bytes each). */
  get held(): number {
    return this.state.pairCount + this.pendingTotal
  }

  /**
   * Adds records [from, n) of `rows` (barcode low, high, UMI low, high at r·stride); stops at a
   * record whose barcode or UMI does not fit 32 bits and returns its index (n when none).
   */
  addRows(rows: Uint32Array, stride: number, from: number, n: number): number {
    const pending = this.pending
    const size = this.pendingSize
    const ownFrom = this.ownFrom
    const ownTo = this.ownTo
    let own = 0
    let r = from
    for (let at = from * stride; r < n; r++, at += stride) {
      const umi = rows[at + 2]!
      if ((rows[at + 1]! | rows[at + 3]!) !== 0 || umi > MAX_UMI) break
      const m = Math.imul(rows[at]!, SPREAD) >>> 0
      const b = m >>> LOW_BITS
      if (b < ownFrom || b >= ownTo) {
        this.toOutbox(b, rows[at]!, umi)
        continue
      }
      const k = size[b]!
      if (2 * k === pending[b]!.length) this.growPending(b)
      const keys = pending[b]!
      keys[2 * k] = m & LOW_MASK
      keys[2 * k + 1] = umi
      size[b] = k + 1
      own++
    }
    this.pendingTotal += own
    if (this.pendingTotal >= this.pendingCap) this.flush()
    return r
  }

  /**
   * Adds pairs (barcode, UMI) another owner met in this counter's buckets (its takeOutbox). The
   * array is this counter's from then on: it may write its own outbox into it.
   */
  addPairs(pairs: Uint32Array): void {
    const pending = this.pending
    const size = this.pendingSize
    const n = pairs.length / 2
    for (let i = 0; i < n; i++) {
      const m = Math.imul(pairs[2 * i]!, SPREAD) >>> 0
      const b = m >>> LOW_BITS
      const k = size[b]!
      if (2 * k === pending[b]!.length) this.growPending(b)
      const keys = pending[b]!
      keys[2 * k] = m & LOW_MASK
      keys[2 * k + 1] = pairs[2 * i + 1]!
      size[b] = k + 1
    }
    this.pendingTotal += n
    if (pairs.byteOffset === 0 && this.spareRows.length < this.outbox.length) {
      this.spareRows.push(new Uint32Array(pairs.buffer as ArrayBuffer))
    }
    if (this.pendingTotal >= this.pendingCap) this.flush()
  }

  /** A bucket's first key gets room for its share of a flush and a quarter more: a counter that only merges allocates none. */
  private growPending(b: number): void {
    const k = this.pendingSize[b]!
    const keys = new Uint32Array(2 * Math.max(2 * k, this.flushShare))
    keys.set(this.pending[b]!)
    this.pending[b] = keys
  }

  /** Sorts each bucket's pending keys and merges them into its lists. */
  flush(): void {
    if (this.pendingTotal === 0) return
    const s = this.state
    for (let b = 0; b < BUCKETS; b++) {
      const k = this.pendingSize[b]!
      if (k === 0) continue
      this.replaceBucket(b, mergeLists(bucketOf(s, b), sortedKeyLists(sortKeys(this.pending[b]!, k), k)))
      this.pendingSize[b] = 0
    }
    this.pendingTotal = 0
    recount(s)
  }

  /** Bucket b's new lists; its old ones are given back for reuse unless a state shares them. */
  private replaceBucket(b: number, lists: BucketLists): void {
    const old = bucketOf(this.state, b)
    setBucket(this.state, b, lists)
    if (this.shared[b] === 0) giveBackLists(old)
    this.shared[b] = 0
    this.oddStale[b] = 1
  }

  /** Each changed bucket's odd pairs counted again. */
  private countOdd(): void {
    for (let b = 0; b < BUCKETS; b++) {
      if (this.oddStale[b] === 0) continue
      this.state.oddCounts[b] = oddPairs(this.state, b)
      this.oddStale[b] = 0
    }
  }

  /**
   * The lists with every pending key merged; for a `partial` report, only when that is cheap
   * (the lists hold fewer than 4 pairs a waiting key): a merge rewrites every list, so the
   * figures may lag the records by up to `pendingKeys` reads. The lists are copied, the
   * buckets' arrays shared: they are replaced, never written, so the state stays as it was.
   */
  exportState(partial = false): PartitionState {
    if (!partial || this.state.pairCount < 4 * this.pendingTotal) this.flush()
    this.countOdd()
    this.shared.fill(1)
    const s = this.state
    const copy = <T>(a: T[]): T[] => a.slice()
    return {
      ...s,
      barcodes: copy(s.barcodes),
      reads: copy(s.reads),
      umiCounts: copy(s.umiCounts),
      umis: copy(s.umis),
      oddCounts: s.oddCounts.slice(),
    }
  }

  /**
   * Adds another accumulator's lists (a bucket this one has not seen is taken as it is). A
   * bucket without its pairs (withoutPairs) can only be taken.
   */
  merge(other: PartitionState): void {
    this.flush()
    const s = this.state
    for (let b = 0; b < BUCKETS; b++) {
      if (other.barcodes[b]!.length === 0) continue
      if (s.barcodes[b]!.length === 0) {
        setBucket(s, b, bucketOf(other, b))
        s.oddCounts[b] = other.oddCounts[b]!
        this.oddStale[b] = 0
        this.shared[b] = 1 // the other state's too
        continue
      }
      if (pairsLeftOut(other, b) || pairsLeftOut(s, b)) {
        throw new Error(`internal: bucket ${String(b)} merged without its pairs`)
      }
      this.replaceBucket(b, mergeLists(bucketOf(s, b), bucketOf(other, b)))
    }
    recount(s)
  }
}
