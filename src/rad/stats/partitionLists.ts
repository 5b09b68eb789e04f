/**
 * The lists of pairPartitions.ts, per bucket (docs/adr/0009, fourth round; ADR 0013): the
 * bucket's barcodes (their low bits, sorted) with their reads and their number of distinct UMIs,
 * and the pairs' UMIs, one run a barcode in the barcodes' order, each run sorted, with one bit a
 * pair for the parity of its reads (all Good–Toulmin at t = 1 needs). 4⅛ bytes a distinct pair,
 * 16 a barcode. Lists are replaced, never written in place, so states can share them.
 */
import type { PartitionState } from './types'

export const BUCKET_BITS = 12
export const BUCKETS = 1 << BUCKET_BITS
export const LOW_BITS = 32 - BUCKET_BITS
export const SPREAD = 0x9e3779b1
const TWO32 = 2 ** 32
const TWO33 = 2 ** 33
/** Past every barcode's low bits (< 2^LOW_BITS): the end of a list. */
const END = TWO32

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

/** One bucket's lists. */
export interface BucketLists {
  barcodes: Uint32Array
  reads: Float64Array
  umiCounts: Uint32Array
  umis: Uint32Array
  odd: Uint8Array
}

function listsOf(barcodes: number, pairs: number): BucketLists {
  return {
    barcodes: new Uint32Array(barcodes),
    reads: new Float64Array(barcodes),
    umiCounts: new Uint32Array(barcodes),
    umis: new Uint32Array(pairs),
    odd: new Uint8Array((pairs + 7) >> 3),
  }
}

export function emptyPartitions(): PartitionState {
  const none = listsOf(0, 0)
  const each = <T>(a: T): T[] => Array.from({ length: BUCKETS }, () => a)
  return {
    barcodes: each(none.barcodes),
    reads: each(none.reads),
    umiCounts: each(none.umiCounts),
    umis: each(none.umis),
    odd: each(none.odd),
    pairCount: 0,
    barcodeCount: 0,
  }
}

export function bucketOf(s: PartitionState, b: number): BucketLists {
  return { barcodes: s.barcodes[b]!, reads: s.reads[b]!, umiCounts: s.umiCounts[b]!, umis: s.umis[b]!, odd: s.odd[b]! }
}

export function setBucket(s: PartitionState, b: number, l: BucketLists): void {
  s.barcodes[b] = l.barcodes
  s.reads[b] = l.reads
  s.umiCounts[b] = l.umiCounts
  s.umis[b] = l.umis
  s.odd[b] = l.odd
}

/** Scratch lists, grown as needed: `merged` for a merge's output, `incoming` for raw keys. */
let merged = listsOf(1 << 12, 1 << 16)
let incoming = listsOf(1 << 12, 1 << 16)

function roomIn(l: BucketLists, barcodes: number, pairs: number): BucketLists {
  if (l.barcodes.length >= barcodes && l.umis.length >= pairs) {
    l.odd.fill(0, 0, (pairs + 7) >> 3)
    return l
  }
  return listsOf(Math.max(barcodes, 2 * l.barcodes.length), Math.max(pairs, 2 * l.umis.length))
}

function sliced(l: BucketLists, barcodes: number, pairs: number): BucketLists {
  return {
    barcodes: l.barcodes.slice(0, barcodes),
    reads: l.reads.slice(0, barcodes),
    umiCounts: l.umiCounts.slice(0, barcodes),
    umis: l.umis.slice(0, pairs),
    odd: l.odd.slice(0, (pairs + 7) >> 3),
  }
}

function bit(odd: Uint8Array, i: number): number {
  return (odd[i >> 3]! >> (i & 7)) & 1
}

/** A bucket's sorted raw keys ((low · 2^32 + UMI) · 2, once a read) as lists (scratch views). */
export function rawLists(raw: Float64Array): BucketLists {
  const out = (incoming = roomIn(incoming, raw.length, raw.length))
  let nb = 0
  let np = 0
  for (let j = 0; j < raw.length;) {
    const low = (raw[j]! / TWO33) | 0
    const from = j
    const firstPair = np
    while (j < raw.length && ((raw[j]! / TWO33) | 0) === low) {
      const k = raw[j]!
      let odd = 1
      for (j++; j < raw.length && raw[j] === k; j++) odd ^= 1
      out.umis[np] = k / 2 - low * TWO32
      out.odd[np >> 3]! |= odd << (np & 7)
      np++
    }
    out.barcodes[nb] = low
    out.reads[nb] = j - from
    out.umiCounts[nb++] = np - firstPair
  }
  return {
    barcodes: out.barcodes.subarray(0, nb),
    reads: out.reads.subarray(0, nb),
    umiCounts: out.umiCounts.subarray(0, nb),
    umis: out.umis.subarray(0, np),
    odd: out.odd.subarray(0, (np + 7) >> 3),
  }
}

/** Merges two buckets' lists: a barcode in both sums its reads; a pair in both, its parities. */
export function mergeLists(a: BucketLists, b: BucketLists): BucketLists {
  const out = (merged = roomIn(merged, a.barcodes.length + b.barcodes.length, a.umis.length + b.umis.length))
  let i = 0
  let j = 0
  let pa = 0
  let pb = 0
  let nb = 0
  let np = 0
  while (i < a.barcodes.length || j < b.barcodes.length) {
    const x = i < a.barcodes.length ? a.barcodes[i]! : END
    const y = j < b.barcodes.length ? b.barcodes[j]! : END
    let reads = 0
    const endA = x <= y ? pa + a.umiCounts[i]! : pa
    const endB = y <= x ? pb + b.umiCounts[j]! : pb
    if (x <= y) reads += a.reads[i++]!
    if (y <= x) reads += b.reads[j++]!
    const firstPair = np
    while (pa < endA || pb < endB) {
      const u = pa < endA ? a.umis[pa]! : END
      const v = pb < endB ? b.umis[pb]! : END
      let odd = 0
      if (u <= v) odd ^= bit(a.odd, pa++)
      if (v <= u) odd ^= bit(b.odd, pb++)
      out.umis[np] = Math.min(u, v)
      out.odd[np >> 3]! |= odd << (np & 7)
      np++
    }
    out.barcodes[nb] = Math.min(x, y)
    out.reads[nb] = reads
    out.umiCounts[nb++] = np - firstPair
  }
  return sliced(out, nb, np)
}

/** Counts of a state from its lists. */
export function recount(s: PartitionState): void {
  let pairs = 0
  let barcodes = 0
  for (let b = 0; b < BUCKETS; b++) {
    pairs += s.umis[b]!.length
    barcodes += s.barcodes[b]!.length
  }
  s.pairCount = pairs
  s.barcodeCount = barcodes
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
  let odd = 0
  let base = 0
  for (let b = 0; b < BUCKETS; b++) {
    umis.set(s.umiCounts[b]!, base)
    base += s.umiCounts[b]!.length
    for (const byte of s.odd[b]!) for (let v = byte; v !== 0; v &= v - 1) odd++
  }
  return { goodToulmin: 2 * odd - s.pairCount, umis }
}

/** Every pair of a state as (barcode, UMI, odd), for a caller that leaves the partitions. */
export function forEachPartitionPair(
  s: PartitionState,
  visit: (barcode: number, umi: number, odd: boolean) => void,
): void {
  for (let b = 0; b < BUCKETS; b++) {
    const { barcodes, umiCounts, umis, odd } = bucketOf(s, b)
    for (let i = 0, p = 0; i < barcodes.length; i++) {
      const barcode = barcodeOf(b, barcodes[i]!)
      for (const end = p + umiCounts[i]!; p < end; p++) visit(barcode, umis[p]!, bit(odd, p) === 1)
    }
  }
}

/** The buffers of a state (postMessage's transfer list). */
export function partitionBuffers(s: PartitionState): ArrayBuffer[] {
  return [...s.barcodes, ...s.reads, ...s.umiCounts, ...s.umis, ...s.odd]
    .map((a) => a.buffer as ArrayBuffer)
    .filter((b) => b.byteLength > 0)
}
