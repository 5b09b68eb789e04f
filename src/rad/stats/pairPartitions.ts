/**
 * Exact (barcode, UMI) pairs and reads per barcode by radix partitioning (docs/adr/0009, "Fourth
 * round"). A probe per record into a table of millions of pairs misses the caches (~100 ns);
 * appending each record's key to one of 4096 buckets is a streaming write, and each bucket is
 * then counted alone, small enough to stay in cache.
 *
 * Keys: a one-level barcode and a UMI that both fit 32 bits (16 nt and 12 nt in 10x runs,
 * docs/format.md §7.8). The barcode is spread by a multiplication by an odd constant (a bijection
 * on 32 bits, so it is recovered exactly): the top BUCKET_BITS pick the bucket, the other
 * LOW_BITS stay in the key. A bucket keeps its pairs as doubles, (low · 2^32 + UMI) · 2 + odd,
 * sorted and distinct (< 2^53: exact), `odd` the parity of the pair's reads (all Good–Toulmin at
 * t = 1 needs); and its barcodes, sorted, with their reads. Keys wait in `pending` arrays until
 * PENDING_CAP of them do; each bucket's then are sorted (natively) and merged into its lists.
 * 8 bytes a distinct pair, 12 a barcode, 8 a pending read.
 */
import type { PartitionState } from './types'

export const BUCKET_BITS = 12
const BUCKETS = 1 << BUCKET_BITS
const LOW_BITS = 32 - BUCKET_BITS
const LOW_MASK = (1 << LOW_BITS) - 1
const TWO32 = 2 ** 32
const TWO33 = 2 ** 33
// Keys are integers < 2^53: `v & 1` is their parity (ToInt32 keeps v mod 2^32), and
// `(v / TWO33) | 0` their barcode's low bits (< 2^20): both without a floating-point remainder.
/** Keys held before the buckets are sorted and merged, by default (32 MB; StatsOptions.pendingKeys). */
export const PENDING_CAP = 1 << 22
const SPREAD = 0x9e3779b1

/** The inverse of an odd number modulo 2^32 (Newton's iteration doubles the correct bits). */
function inverseOdd(a: number): number {
  let x = a
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x))
  return x >>> 0
}
const UNSPREAD = inverseOdd(SPREAD)

/** The barcode of bucket b's low bits `low`. */
export function barcodeOf(bucket: number, low: number): number {
  return Math.imul(((bucket << LOW_BITS) | low) >>> 0, UNSPREAD) >>> 0
}

export function emptyPartitions(): PartitionState {
  const none64 = new Float64Array(0)
  const none32 = new Uint32Array(0)
  return {
    pairs: Array.from({ length: BUCKETS }, () => none64),
    barcodes: Array.from({ length: BUCKETS }, () => none32),
    reads: Array.from({ length: BUCKETS }, () => none64),
    pairCount: 0,
    barcodeCount: 0,
  }
}

/** Scratch space for merges, grown as needed (one merge at a time). */
let scratchPairs = new Float64Array(1 << 16)
let scratchBarcodes = new Uint32Array(1 << 16)
let scratchReads = new Float64Array(1 << 16)

function room(n: number): void {
  if (scratchPairs.length < n) scratchPairs = new Float64Array(Math.max(n, 2 * scratchPairs.length))
  if (scratchBarcodes.length < n) {
    scratchBarcodes = new Uint32Array(Math.max(n, 2 * scratchBarcodes.length))
    scratchReads = new Float64Array(scratchBarcodes.length)
  }
}

/**
 * Merges two sorted pair lists of one bucket: a key in both keeps the parity of its summed reads.
 * `b` may be raw sorted keys (parity bit 0, repeated once per read) when `raw`.
 */
function mergePairs(a: Float64Array, b: Float64Array, raw: boolean): Float64Array {
  room(a.length + b.length)
  const out = scratchPairs
  let i = 0
  let j = 0
  let o = 0
  while (j < b.length) {
    const v = b[j]!
    const k = v - (v & 1)
    let odd = v - k
    j++
    if (raw) {
      odd = 1
      while (j < b.length && b[j] === k) {
        odd ^= 1
        j++
      }
    }
    while (i < a.length && a[i]! < k) out[o++] = a[i++]!
    if (i < a.length && a[i]! - k < 2) odd ^= a[i++]! - k
    out[o++] = k + odd
  }
  while (i < a.length) out[o++] = a[i++]!
  return out.slice(0, o)
}

/** Merges sorted (barcode, reads) lists of one bucket. */
function mergeBarcodes(
  a: Uint32Array,
  ar: Float64Array,
  b: Uint32Array,
  br: Float64Array,
): [Uint32Array, Float64Array] {
  room(a.length + b.length)
  const out = scratchBarcodes
  const reads = scratchReads
  let i = 0
  let j = 0
  let o = 0
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]! < b[j]!)) {
      out[o] = a[i]!
      reads[o++] = ar[i++]!
    } else if (i >= a.length || b[j]! < a[i]!) {
      out[o] = b[j]!
      reads[o++] = br[j++]!
    } else {
      out[o] = a[i]!
      reads[o++] = ar[i++]! + br[j++]!
    }
  }
  return [out.slice(0, o), reads.slice(0, o)]
}

/** The barcodes of sorted raw keys, with their reads (runs of one barcode). */
function barcodeRuns(raw: Float64Array): [Uint32Array, Float64Array] {
  room(raw.length)
  let o = 0
  for (let j = 0; j < raw.length;) {
    const low = (raw[j]! / TWO33) | 0
    const from = j
    while (j < raw.length && ((raw[j]! / TWO33) | 0) === low) j++
    scratchBarcodes[o] = low
    scratchReads[o++] = j - from
  }
  return [scratchBarcodes.slice(0, o), scratchReads.slice(0, o)]
}

/** Counts of a state (its lists only: pending keys are merged before a state is made). */
function recount(s: PartitionState): void {
  let pairs = 0
  let barcodes = 0
  for (let b = 0; b < BUCKETS; b++) {
    pairs += s.pairs[b]!.length
    barcodes += s.barcodes[b]!.length
  }
  s.pairCount = pairs
  s.barcodeCount = barcodes
}

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

  /** Distinct pairs merged so far, and keys waiting: the memory held is ~8 bytes each. */
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
      const raw = this.pending[b]!.subarray(0, k).sort()
      s.pairs[b] = mergePairs(s.pairs[b]!, raw, true)
      const [codes, reads] = barcodeRuns(raw)
      ;[s.barcodes[b], s.reads[b]] = mergeBarcodes(s.barcodes[b]!, s.reads[b]!, codes, reads)
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
    return { ...s, pairs: s.pairs.slice(), barcodes: s.barcodes.slice(), reads: s.reads.slice() }
  }

  /** Adds another accumulator's lists (a bucket this one has not seen is taken as it is). */
  merge(other: PartitionState): void {
    this.flush()
    const s = this.state
    for (let b = 0; b < BUCKETS; b++) {
      const theirs = other.pairs[b]!
      if (theirs.length > 0) s.pairs[b] = s.pairs[b]!.length > 0 ? mergePairs(s.pairs[b]!, theirs, false) : theirs
      if (other.barcodes[b]!.length === 0) continue
      if (s.barcodes[b]!.length === 0) {
        s.barcodes[b] = other.barcodes[b]!
        s.reads[b] = other.reads[b]!
      } else {
        ;[s.barcodes[b], s.reads[b]] = mergeBarcodes(s.barcodes[b]!, s.reads[b]!, other.barcodes[b]!, other.reads[b]!)
      }
    }
    recount(s)
  }
}

/** The figures of a state's pairs, barcodes in bucket order (as `partitionBarcodes` lists them). */
export interface PartitionFigures {
  /** Σ over pairs of (−1)^(reads + 1): Good–Toulmin at t = 1. */
  goodToulmin: number
  /** Distinct UMIs of each barcode. */
  umis: Float64Array
}

/** Each barcode (one word and a zero high word, as CountTableState keys) and its reads. */
export function partitionBarcodes(s: PartitionState): { keys: Uint32Array; counts: Float64Array } {
  const keys = new Uint32Array(2 * s.barcodeCount)
  const counts = new Float64Array(s.barcodeCount)
  let o = 0
  for (let b = 0; b < BUCKETS; b++) {
    const codes = s.barcodes[b]!
    counts.set(s.reads[b]!, o)
    for (let i = 0; i < codes.length; i++, o++) keys[2 * o] = barcodeOf(b, codes[i]!)
  }
  return { keys, counts }
}

export function partitionFigures(s: PartitionState): PartitionFigures {
  const umis = new Float64Array(s.barcodeCount)
  let gt = 0
  let base = 0
  for (let b = 0; b < BUCKETS; b++) {
    const pairs = s.pairs[b]!
    const codes = s.barcodes[b]!
    let t = 0
    for (let i = 0; i < pairs.length; i++) {
      const v = pairs[i]!
      const low = (v / TWO33) | 0
      while (codes[t]! < low) t++
      umis[base + t]!++
      gt += 2 * (v & 1) - 1
    }
    base += codes.length
  }
  return { goodToulmin: gt, umis }
}

/** Every pair of a state as (barcode, UMI, odd), for a caller that leaves the partitions. */
export function forEachPartitionPair(
  s: PartitionState,
  visit: (barcode: number, umi: number, odd: boolean) => void,
): void {
  for (let b = 0; b < BUCKETS; b++) {
    const pairs = s.pairs[b]!
    for (let i = 0; i < pairs.length; i++) {
      const v = pairs[i]!
      const key = Math.floor(v / 2)
      const low = Math.floor(key / TWO32)
      visit(barcodeOf(b, low), key - low * TWO32, (v & 1) === 1)
    }
  }
}

/** The buffers of a state (postMessage's transfer list). */
export function partitionBuffers(s: PartitionState): ArrayBuffer[] {
  return [...s.pairs, ...s.barcodes, ...s.reads].map((a) => a.buffer as ArrayBuffer).filter((b) => b.byteLength > 0)
}
