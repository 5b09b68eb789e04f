/**
 * The lists of pairPartitions.ts as exported states hold them, per bucket (bench/results.md,
 * ADR 0009's fourth, eighth and tenth rounds; ADR 0013; the counting core keeps the same lists
 * in WebAssembly memory, assembly/bucketLists.ts): the bucket's barcodes (their low bits, sorted)
 * with their reads and their number of distinct UMIs, and the pairs, one run a barcode in the
 * barcodes' order, each run sorted: a pair is one word, UMI · 2 + the parity of its reads (all
 * Good–Toulmin at t = 1 needs), so a UMI is below 2^31 (≤ 15 nt). 4 bytes a distinct pair, 16 a
 * barcode. Lists are replaced, never written in place, so states can share them.
 */
import type { PartitionState } from './statsTypes'

export const BUCKET_BITS = 8
export const BUCKETS = 1 << BUCKET_BITS
export const LOW_BITS = 32 - BUCKET_BITS
export const SPREAD = 0x9e3779b1
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
  /** UMI · 2 + the parity of the pair's reads. */
  umis: Uint32Array
}

function listsOf(barcodes: number, pairs: number): BucketLists {
  return {
    barcodes: new Uint32Array(barcodes),
    reads: new Float64Array(barcodes),
    umiCounts: new Uint32Array(barcodes),
    umis: new Uint32Array(pairs),
  }
}

/**
 * Bytes of one bucket's lists laid out in one buffer, as a spill writes them (spilledRuns.ts) and
 * the counting core merges them (pairCountingCore.ts, CoreLists): the reads (f64), then the low
 * bits, the distinct UMIs and the pairs (u32), so the f64s stay aligned. 16 a barcode, 4 a pair.
 */
export function listBytes(barcodes: number, pairs: number): number {
  return 16 * barcodes + 4 * pairs
}

/** A bucket's lists when it holds nothing. */
export function noLists(): BucketLists {
  return listsOf(0, 0)
}

export function emptyPartitions(): PartitionState {
  const none = listsOf(0, 0)
  const each = <T>(a: T): T[] => Array.from({ length: BUCKETS }, () => a)
  return {
    barcodes: each(none.barcodes),
    reads: each(none.reads),
    umiCounts: each(none.umiCounts),
    umis: each(none.umis),
    oddCounts: new Float64Array(BUCKETS),
    pairCount: 0,
    barcodeCount: 0,
  }
}

export function bucketOf(s: PartitionState, b: number): BucketLists {
  return { barcodes: s.barcodes[b]!, reads: s.reads[b]!, umiCounts: s.umiCounts[b]!, umis: s.umis[b]! }
}

export function setBucket(s: PartitionState, b: number, l: BucketLists): void {
  s.barcodes[b] = l.barcodes
  s.reads[b] = l.reads
  s.umiCounts[b] = l.umiCounts
  s.umis[b] = l.umis
}

/** Room for a merge's output: arrays with an eighth more. */
function outputLists(barcodes: number, pairs: number): BucketLists {
  return listsOf(Math.ceil(1.125 * barcodes), Math.ceil(1.125 * pairs))
}

/** dst[at…] = src[from, to): a loop for short runs, a native copy for long ones (one array type: monomorphic). */
function copyWords(src: Uint32Array, from: number, to: number, dst: Uint32Array, at: number): void {
  if (to - from > 32) dst.set(src.subarray(from, to), at)
  else for (let i = from; i < to; i++) dst[at++] = src[i]!
}

/** The first index in [from, to) whose value is ≥ x (galloping from `from`: runs are short or close). */
function lowerBound(a: Uint32Array, from: number, to: number, x: number): number {
  let lo = from
  let step = 1
  let hi = from
  while (hi < to && a[hi]! < x) {
    lo = hi + 1
    hi += step
    step *= 2
  }
  if (hi > to) hi = to
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (a[mid]! < x) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Merges two buckets' lists: a barcode in both sums its reads; a pair in both, its parities. The
 * result is written once, into arrays sized for both (views of their first part): no scratch
 * copy. A barcode in both merges the shorter run into the longer one by galloping when the
 * longer is much longer (a cell's UMIs so far and the few of this batch). The end of a pass that
 * spilled merges in the counting core (assembly/listMerge.ts), by the same rule.
 */
export function mergeLists(a: BucketLists, b: BucketLists): BucketLists {
  const na = a.barcodes.length
  const nb = b.barcodes.length
  const out = outputLists(na + nb, a.umis.length + b.umis.length)
  let i = 0
  let j = 0
  let pa = 0
  let pb = 0
  let k = 0
  let np = 0
  while (i < na && j < nb) {
    const x = a.barcodes[i]!
    const y = b.barcodes[j]!
    if (x !== y) {
      const l = x < y ? a : b
      const at = x < y ? i++ : j++
      const run = l.umiCounts[at]!
      const from = x < y ? pa : pb
      out.barcodes[k] = l.barcodes[at]!
      out.reads[k] = l.reads[at]!
      out.umiCounts[k++] = run
      copyWords(l.umis, from, from + run, out.umis, np)
      np += run
      if (x < y) pa += run
      else pb += run
      continue
    }
    const runA = a.umiCounts[i]!
    const runB = b.umiCounts[j]!
    const end =
      runA >= runB
        ? mergeRuns(a.umis, pa, pa + runA, b.umis, pb, pb + runB, out.umis, np)
        : mergeRuns(b.umis, pb, pb + runB, a.umis, pa, pa + runA, out.umis, np)
    out.barcodes[k] = x
    out.reads[k] = a.reads[i++]! + b.reads[j++]!
    out.umiCounts[k++] = end - np
    np = end
    pa += runA
    pb += runB
  }
  for (const [l, from, p] of [
    [a, i, pa],
    [b, j, pb],
  ] as const) {
    const rest = l.barcodes.length - from
    out.barcodes.set(l.barcodes.subarray(from), k)
    out.reads.set(l.reads.subarray(from), k)
    out.umiCounts.set(l.umiCounts.subarray(from), k)
    out.umis.set(l.umis.subarray(p), np)
    k += rest
    np += l.umis.length - p
  }
  return {
    barcodes: out.barcodes.subarray(0, k),
    reads: out.reads.subarray(0, k),
    umiCounts: out.umiCounts.subarray(0, k),
    umis: out.umis.subarray(0, np),
  }
}

/**
 * Merges the sorted run s[sFrom, sTo) into the sorted run l[lFrom, lTo), no shorter, writing to
 * out from `at`; returns the end. Words are UMI · 2 + parity: equal UMIs become one word, their
 * parities added. A much shorter run gallops through the longer one, copying what it skips.
 */
function mergeRuns(
  l: Uint32Array,
  lFrom: number,
  lTo: number,
  s: Uint32Array,
  sFrom: number,
  sTo: number,
  out: Uint32Array,
  at: number,
): number {
  let p = lFrom
  const gallop = 8 * (sTo - sFrom) < lTo - lFrom
  for (let k = sFrom; k < sTo; k++) {
    const w = s[k]!
    const even = w - (w & 1)
    if (gallop) {
      const q = lowerBound(l, p, lTo, even)
      copyWords(l, p, q, out, at)
      at += q - p
      p = q
    } else while (p < lTo && l[p]! < even) out[at++] = l[p++]!
    if (p < lTo && l[p]! - (l[p]! & 1) === even) out[at++] = l[p++]! ^ (w & 1)
    else out[at++] = w
  }
  copyWords(l, p, lTo, out, at)
  return at + lTo - p
}

/**
 * Two buckets' barcode figures as one, without their pairs (a partial report of a counter that
 * spilled, spilledRuns.ts): a barcode in both sums its reads and its distinct UMIs, the latter an
 * upper bound (a UMI met in both is counted twice).
 */
export function mergeFigures(a: BucketLists, b: BucketLists): BucketLists {
  const na = a.barcodes.length
  const nb = b.barcodes.length
  const out = listsOf(na + nb, 0)
  let i = 0
  let j = 0
  let k = 0
  while (i < na || j < nb) {
    const x = i < na ? a.barcodes[i]! : Infinity
    const y = j < nb ? b.barcodes[j]! : Infinity
    out.barcodes[k] = Math.min(x, y)
    out.reads[k] = (x <= y ? a.reads[i]! : 0) + (y <= x ? b.reads[j]! : 0)
    out.umiCounts[k++] = (x <= y ? a.umiCounts[i]! : 0) + (y <= x ? b.umiCounts[j]! : 0)
    if (x <= y) i++
    if (y <= x) j++
  }
  return {
    ...out,
    barcodes: out.barcodes.subarray(0, k),
    reads: out.reads.subarray(0, k),
    umiCounts: out.umiCounts.subarray(0, k),
  }
}
