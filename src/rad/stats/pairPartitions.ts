/**
 * Exact (barcode, UMI) pairs and reads per barcode by radix partitioning (docs/adr/0009, "Fourth
 * round"). A probe per record into a table of millions of pairs misses the caches (~100 ns);
 * appending each record's key to one of 4096 buckets is a streaming write, and each bucket is
 * then counted alone, small enough to stay in cache.
 *
 * Keys: a one-level barcode and a UMI that both fit 32 bits (16 nt and 12 nt in 10x runs,
 * docs/format.md §7.8). The barcode is spread by a multiplication by an odd constant (a bijection
 * on 32 bits, so it is recovered exactly): the top BUCKET_BITS pick the bucket, the other
 * LOW_BITS stay in the key. A record waits in its bucket's `pending` array as a double,
 * (low · 2^32 + UMI) · 2 (< 2^53: exact), until PENDING_CAP keys do; each bucket's then are
 * sorted (natively) and merged into its lists (partitionLists.ts: 4⅛ bytes a distinct pair, 16 a
 * barcode). 8 bytes a pending read.
 */
import {
  BUCKETS,
  LOW_BITS,
  SPREAD,
  bucketOf,
  emptyPartitions,
  mergeLists,
  rawLists,
  recount,
  setBucket,
} from './partitionLists'
import type { PartitionState } from './types'

export {
  BUCKET_BITS,
  barcodeOf,
  emptyPartitions,
  forEachPartitionPair,
  partitionBarcodes,
  partitionBuffers,
  partitionFigures,
} from './partitionLists'
export type { PartitionFigures } from './partitionLists'

const LOW_MASK = (1 << LOW_BITS) - 1
const TWO32 = 2 ** 32
/** Keys held before the buckets are sorted and merged, by default (32 MB; StatsOptions.pendingKeys). */
export const PENDING_CAP = 1 << 22

export class PairPartitions {
  /** The merged lists (bucket arrays are replaced, never written in place). */
  private readonly state: PartitionState = emptyPartitions()
  private readonly pending: Float64Array[] = Array.from({ length: BUCKETS }, () => new Float64Array(64))
  private readonly pendingSize = new Uint32Array(BUCKETS)
  private pendingTotal = 0
  /** The buckets this counter keeps, [ownFrom, ownTo): all, unless it is one of several owners. */
  private readonly ownFrom: number
  private readonly ownTo: number
  /** `pendingKeys` shared between the owners: together they hold as many keys waiting as one. */
  private readonly pendingCap: number
  private readonly ownerOf: Uint8Array
  /** Per owner, the rows (barcode, 0, UMI, 0) of its buckets met here, for it to count. */
  private outbox: Uint32Array[]
  private outboxSize: number[]

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
    this.outbox = Array.from({ length: owners }, () => new Uint32Array(0))
    this.outboxSize = Array.from({ length: owners }, () => 0)
  }

  /** Rows of other owners' buckets met since the last call, by owner (undefined: none). */
  takeOutbox(): (Uint32Array | undefined)[] {
    const out = this.outbox.map((rows, o) =>
      this.outboxSize[o]! > 0 ? rows.slice(0, 4 * this.outboxSize[o]!) : undefined,
    )
    this.outboxSize.fill(0)
    return out
  }

  private toOutbox(b: number, barcode: number, umi: number): void {
    const o = this.ownerOf[b]!
    let rows = this.outbox[o]!
    const k = this.outboxSize[o]!
    if (4 * k === rows.length) {
      const grown = new Uint32Array(Math.max(4096, 2 * rows.length))
      grown.set(rows)
      this.outbox[o] = rows = grown
    }
    rows[4 * k] = barcode
    rows[4 * k + 2] = umi
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
    let own = 0
    let r = from
    for (let at = from * stride; r < n; r++, at += stride) {
      if ((rows[at + 1]! | rows[at + 3]!) !== 0) break
      const m = Math.imul(rows[at]!, SPREAD) >>> 0
      const b = m >>> LOW_BITS
      if (b < this.ownFrom || b >= this.ownTo) {
        this.toOutbox(b, rows[at]!, rows[at + 2]!)
        continue
      }
      let p = pending[b]!
      const k = size[b]!
      if (k === p.length) {
        const grown = new Float64Array(2 * k)
        grown.set(p)
        pending[b] = p = grown
      }
      p[k] = ((m & LOW_MASK) * TWO32 + rows[at + 2]!) * 2
      size[b] = k + 1
      own++
    }
    this.pendingTotal += own
    if (this.pendingTotal >= this.pendingCap) this.flush()
    return r
  }

  /** Sorts each bucket's pending keys and merges them into its lists. */
  flush(): void {
    if (this.pendingTotal === 0) return
    const s = this.state
    for (let b = 0; b < BUCKETS; b++) {
      const k = this.pendingSize[b]!
      if (k === 0) continue
      setBucket(s, b, mergeLists(bucketOf(s, b), rawLists(this.pending[b]!.subarray(0, k).sort())))
      this.pendingSize[b] = 0
    }
    this.pendingTotal = 0
    recount(s)
  }

  /**
   * The lists with every pending key merged. The lists are copied, the buckets' arrays shared:
   * they are replaced, never written, so the state stays as it was.
   */
  exportState(): PartitionState {
    this.flush()
    const s = this.state
    const copy = <T>(a: T[]): T[] => a.slice()
    return {
      ...s,
      barcodes: copy(s.barcodes),
      reads: copy(s.reads),
      umiCounts: copy(s.umiCounts),
      umis: copy(s.umis),
      odd: copy(s.odd),
    }
  }

  /** Adds another accumulator's lists (a bucket this one has not seen is taken as it is). */
  merge(other: PartitionState): void {
    this.flush()
    const s = this.state
    for (let b = 0; b < BUCKETS; b++) {
      if (other.barcodes[b]!.length === 0) continue
      const theirs = bucketOf(other, b)
      setBucket(s, b, s.barcodes[b]!.length === 0 ? theirs : mergeLists(bucketOf(s, b), theirs))
    }
    recount(s)
  }
}
