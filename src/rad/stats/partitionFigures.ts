/**
 * What a state of the exact pairs' lists (partitionLists.ts) holds in all: its counts, figures,
 * pairs and buffers, and its copy without the pairs for a partial report (bench/results.md,
 * ADR 0009's fourth and eighth rounds). Barcodes come in bucket order, then each bucket's order.
 */
import { digestBuffers, mergeDigests } from './barcodeDigest'
import { BUCKETS, barcodeOf, bucketOf } from './partitionLists'
import type { CountTableState, PartitionState } from './statsTypes'

/** Counts of a state from its lists. */
export function recount(s: PartitionState): void {
  let pairs = 0
  let barcodes = 0
  for (let b = 0; b < BUCKETS; b++) {
    pairs += pairsLeftOut(s, b) ? s.umiCounts[b]!.reduce((sum, n) => sum + n, 0) : s.umis[b]!.length
    barcodes += s.barcodes[b]!.length
  }
  s.pairCount = pairs + (s.digest?.pairs ?? 0)
  s.barcodeCount = barcodes + (s.digest?.barcodes ?? 0)
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
  // The barcodes listed: those folded into a digest are counted in barcodeCount but not here.
  const listed = s.barcodes.reduce((n, codes) => n + codes.length, 0)
  const keys = new Uint32Array(2 * listed)
  const counts = new Float64Array(listed)
  let o = 0
  for (let b = 0; b < BUCKETS; b++) {
    const codes = s.barcodes[b]!
    counts.set(s.reads[b]!, o)
    for (let i = 0; i < codes.length; i++, o++) keys[2 * o] = barcodeOf(b, codes[i]!)
  }
  return { keys, counts }
}

/**
 * The barcode table of a state (StatsState.barcodes[0]): its listed barcodes, then its digest's
 * top barcodes (ADR 0016), which are all the top lists need of the barcodes folded there.
 */
export function partitionBarcodeTable(s: PartitionState): CountTableState {
  const { keys, counts } = partitionBarcodes(s)
  const d = s.digest
  if (!d || d.topBarcodes.length === 0) return { keyWords: 2, size: counts.length, keys, counts }
  const n = counts.length + d.topBarcodes.length
  const allKeys = new Uint32Array(2 * n)
  allKeys.set(keys)
  d.topBarcodes.forEach((barcode, i) => (allKeys[2 * (counts.length + i)] = barcode))
  const allCounts = new Float64Array(n)
  allCounts.set(counts)
  allCounts.set(d.topReads, counts.length)
  return { keyWords: 2, size: n, keys: allKeys, counts: allCounts }
}

export function partitionFigures(s: PartitionState): PartitionFigures {
  if (s.digest) throw new Error('internal: per-barcode figures asked of barcodes folded into a digest')
  const umis = new Float64Array(s.barcodeCount)
  let odd = 0
  let base = 0
  for (let b = 0; b < BUCKETS; b++) {
    umis.set(s.umiCounts[b]!, base)
    base += s.umiCounts[b]!.length
    odd += s.oddCounts[b]!
  }
  return { goodToulmin: 2 * odd - s.pairCount, umis }
}

/** Every pair of a state as (barcode, UMI, odd), for a caller that leaves the partitions. */
export function forEachPartitionPair(
  s: PartitionState,
  visit: (barcode: number, umi: number, odd: boolean) => void,
): void {
  if (s.digest) throw new Error('internal: the pairs of buckets folded into a digest')
  for (let b = 0; b < BUCKETS; b++) {
    if (pairsLeftOut(s, b)) throw new Error(`internal: bucket ${String(b)}'s pairs were left out`)
    const { barcodes, umiCounts, umis } = bucketOf(s, b)
    for (let i = 0, p = 0; i < barcodes.length; i++) {
      const barcode = barcodeOf(b, barcodes[i]!)
      for (const end = p + umiCounts[i]!; p < end; p++) visit(barcode, umis[p]! >>> 1, (umis[p]! & 1) === 1)
    }
  }
}

/** Bucket b's pairs with an odd number of reads. */
export function oddPairs(s: PartitionState, b: number): number {
  return oddWords(s.umis[b]!)
}

/** Pairs (UMI · 2 + parity) with an odd number of reads. */
export function oddWords(words: Uint32Array): number {
  let odd = 0
  for (let i = 0; i < words.length; i++) odd += words[i]! & 1
  return odd
}

/** Whether bucket b's pairs were left out of this copy of a state (withoutPairs). */
export function pairsLeftOut(s: PartitionState, b: number): boolean {
  return s.umis[b]!.length === 0 && s.umiCounts[b]!.length > 0
}

/** Whether any bucket's pairs were left out of this copy of a state (or folded into its digest). */
export function anyPairsLeftOut(s: PartitionState): boolean {
  if (s.digest) return true
  for (let b = 0; b < BUCKETS; b++) if (pairsLeftOut(s, b)) return true
  return false
}

/**
 * A copy of a state for a partial report (bench/results.md, ADR 0009's eighth round): every
 * figure, but not the pairs' UMIs, which only a merge of the same buckets needs; ~16 bytes a
 * barcode.
 */
export function withoutPairs(s: PartitionState): PartitionState {
  const none = new Uint32Array(0)
  return {
    barcodes: s.barcodes.map((a) => a.slice()),
    reads: s.reads.map((a) => a.slice()),
    umiCounts: s.umiCounts.map((a) => a.slice()),
    umis: s.umis.map(() => none),
    oddCounts: s.oddCounts.slice(),
    pairCount: s.pairCount,
    barcodeCount: s.barcodeCount,
    ...(s.digest ? { digest: mergeDigests(s.digest) } : {}),
    ...(s.approximate ? { approximate: true } : {}),
    ...(s.barcodesIncomplete ? { barcodesIncomplete: true } : {}),
  }
}

/** The buffers of a state (postMessage's transfer list). */
export function partitionBuffers(s: PartitionState): ArrayBuffer[] {
  return [...s.barcodes, ...s.reads, ...s.umiCounts, ...s.umis, s.oddCounts]
    .map((a) => a.buffer as ArrayBuffer)
    .filter((b) => b.byteLength > 0)
    .concat(s.digest ? digestBuffers(s.digest) : [])
}
