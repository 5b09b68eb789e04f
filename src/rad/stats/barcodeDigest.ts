/**
 * Exact partitions' barcodes folded into distributions (ADR 0016; statsTypes.ts BarcodeDigest): each
 * bucket's barcodes, once merged, add their reads and distinct UMIs to two histograms and may
 * enter the top list, and the bucket's lists are dropped. Digests of disjoint buckets add up, so
 * threads that own different buckets each send a few kilobytes instead of a row per barcode.
 */
import { Histogram } from './countTable'
import { DEFAULT_TOP } from './figures'
import { BUCKETS, barcodeOf, bucketOf, noLists, setBucket } from './partitionLists'
import type { BucketLists } from './partitionLists'
import type { BarcodeDigest, PartitionState } from './statsTypes'

/** Histogram values kept in a dense array (larger ones in its table): reads per barcode of most barcodes. */
const DENSE = 4096
/** Barcodes kept for the top list: the JSON's. */
export const DIGEST_TOP = DEFAULT_TOP

export class DigestBuilder {
  private readonly reads = new Histogram(DENSE)
  private readonly umis = new Histogram(DENSE)
  /** Candidates for the top list, pruned to DIGEST_TOP when they reach twice that. */
  private topBarcodes: number[] = []
  private topReads: number[] = []
  /** The reads and barcode a candidate must beat once the top list is full. */
  private floorReads = -1
  private floorBarcode = 0
  private barcodes = 0
  private pairs = 0
  private odd = 0

  /** Adds bucket b's barcodes (their lists, merged: each barcode once) and its pairs with odd reads. */
  addBucket(b: number, lists: BucketLists, odd: number): void {
    const { barcodes, reads, umiCounts } = lists
    for (let i = 0; i < barcodes.length; i++) {
      const r = reads[i]!
      this.reads.add(r)
      this.umis.add(umiCounts[i]!)
      this.pairs += umiCounts[i]!
      if (r >= this.floorReads) this.offer(barcodeOf(b, barcodes[i]!), r)
    }
    this.barcodes += barcodes.length
    this.odd += odd
  }

  /** Adds a digest of other buckets. */
  addDigest(d: BarcodeDigest): void {
    this.reads.addState(d.reads)
    this.umis.addState(d.umis)
    for (let i = 0; i < d.topBarcodes.length; i++) this.offer(d.topBarcodes[i]!, d.topReads[i]!)
    this.barcodes += d.barcodes
    this.pairs += d.pairs
    this.odd += d.odd
  }

  private offer(barcode: number, reads: number): void {
    if (reads === this.floorReads && barcode > this.floorBarcode) return
    this.topBarcodes.push(barcode)
    this.topReads.push(reads)
    if (this.topBarcodes.length >= 2 * DIGEST_TOP) this.prune()
  }

  /** Keeps the DIGEST_TOP best candidates (most reads, then the smaller barcode). */
  private prune(): void {
    const order = this.topBarcodes.map((_, i) => i)
    order.sort((i, j) => this.topReads[j]! - this.topReads[i]! || this.topBarcodes[i]! - this.topBarcodes[j]!)
    order.length = Math.min(order.length, DIGEST_TOP)
    this.topBarcodes = order.map((i) => this.topBarcodes[i]!)
    this.topReads = order.map((i) => this.topReads[i]!)
    if (order.length === DIGEST_TOP) {
      this.floorReads = this.topReads[DIGEST_TOP - 1]!
      this.floorBarcode = this.topBarcodes[DIGEST_TOP - 1]!
    }
  }

  digest(): BarcodeDigest {
    this.prune()
    return {
      reads: this.reads.exportState(),
      umis: this.umis.exportState(),
      topBarcodes: Uint32Array.from(this.topBarcodes),
      topReads: Float64Array.from(this.topReads),
      barcodes: this.barcodes,
      pairs: this.pairs,
      odd: this.odd,
    }
  }
}

/**
 * Folds every bucket of `s` that still holds lists into its digest (with the one it has), leaving
 * the lists empty: the state then carries its figures in a few kilobytes.
 */
export function foldIntoDigest(s: PartitionState): void {
  const builder = new DigestBuilder()
  if (s.digest) builder.addDigest(s.digest)
  const none = noLists()
  for (let b = 0; b < BUCKETS; b++) {
    const lists = bucketOf(s, b)
    if (lists.barcodes.length === 0) continue
    builder.addBucket(b, lists, s.oddCounts[b]!)
    setBucket(s, b, none)
    s.oddCounts[b] = 0
  }
  s.digest = builder.digest()
}

/** The sum of digests of disjoint buckets (a copy, with one). */
export function mergeDigests(...digests: (BarcodeDigest | undefined)[]): BarcodeDigest {
  const builder = new DigestBuilder()
  for (const d of digests) if (d) builder.addDigest(d)
  return builder.digest()
}

/** The buffers of a digest (postMessage's transfer list). */
export function digestBuffers(d: BarcodeDigest): ArrayBuffer[] {
  return [
    d.reads.dense,
    d.reads.sparse.keys,
    d.reads.sparse.counts,
    d.umis.dense,
    d.umis.sparse.keys,
    d.umis.sparse.counts,
    d.topBarcodes,
    d.topReads,
  ].map((a) => a.buffer as ArrayBuffer)
}
