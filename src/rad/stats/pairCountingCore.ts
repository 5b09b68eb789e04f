/**
 * The WebAssembly counting core of the exact pairs (assembly/pairCounting.ts; bench/results.md,
 * ADR 0009's tenth round), one instance a counter: its memory holds the keys waiting and the
 * merged lists, and is freed with the counter. Lists leave it only as copies (bucketLists).
 */
import type { BucketLists } from './partitionLists'
import { listBytes } from './partitionLists'
import { PAIR_COUNTING_WASM } from './pairCountingWasm'
import { wasm } from '../runtime'

interface CoreExports {
  memory: { buffer: ArrayBuffer }
  setup(owners: number, self: number, share: number): void
  inputRoom(bytes: number): number
  addRows(stride: number, n: number): number
  addPairs(n: number): void
  waiting(): number
  held(): number
  flush(): void
  outboxPairs(owner: number): number
  outboxPointer(owner: number): number
  clearOutboxes(): void
  bucketBarcodes(b: number): number
  bucketPairs(b: number): number
  bucketWaiting(b: number): number
  bucketReads(b: number): number
  bucketLowBits(b: number): number
  bucketUmiCounts(b: number): number
  bucketUmis(b: number): number
  bucketOddPairs(b: number): number
  barcodesHeld(): number
  dropBucket(b: number): void
  releaseRooms(): void
  allocLists(bytes: number): number
  freeLists(at: number): void
  mergeLists(
    a: number,
    capA: number,
    na: number,
    pairsA: number,
    b: number,
    capB: number,
    nb: number,
    pairsB: number,
    out: number,
    capOut: number,
  ): number
  mergedPairs(): number
  countScRna(
    at: number,
    bytes: number,
    nrec: number,
    barcodeWord: number,
    umiWord: number,
    refCount: number,
    refMask: number,
  ): number
  forwardAlignments(): number
  mixedBarcodes(): number
  alnTallies(refCount: number): number
}

/**
 * Where a plain scRNA chunk's fields are (assembly/scRnaChunk.ts): the barcode's and the UMI's
 * read word (0 or 1), the references and the mask of an alignment word's reference bits.
 */
export interface ScRnaShape {
  barcodeWord: number
  umiWord: number
  refCount: number
  refMask: number
}

/** What the core counted of one such chunk, beside its keys and alignment tallies. */
export interface ScRnaChunkCounts {
  alignments: number
  /** Alignments on the forward strand (bit 31). */
  forward: number
  /** Whether the chunk had more than one barcode. */
  mixed: boolean
}

/** The alignment tallies since the last fold: per reference (records with one alignment, the others), records by alignments. */
export interface AlignmentTallies {
  unique: Float64Array
  multi: Float64Array
  perRecord: Float64Array
}

/** Records by their alignments the core tallies (AccumulatorState's dense histogram, DENSE_HISTOGRAM). */
const TALLIED_ALIGNMENTS = 4096

/**
 * Lists in the core's memory laid out as a spill writes them (partitionLists.ts, listsIn), room
 * for `cap` barcodes and `pairCap` pairs: a spilled segment read back, or a merge's output.
 */
export interface CoreLists {
  at: number
  cap: number
  pairCap: number
  barcodes: number
  pairs: number
}

/** Lists to lay out at `at` in the core's memory, room for `cap` barcodes and `pairCap` pairs, empty yet. */
export function listsAt(at: number, cap: number, pairCap: number): CoreLists {
  return { at, cap, pairCap, barcodes: 0, pairs: 0 }
}

/** The bytes lists of `cap` barcodes and `pairCap` pairs take in a room, rounded up to 8 (their reads are f64). */
export function roomBytes(cap: number, pairCap: number): number {
  return 8 * Math.ceil(listBytes(cap, pairCap) / 8)
}

let compiled: object | undefined

/** The module, compiled once (synchronously: the counters run in workers and Node). */
function pairCountingModule(): object {
  if (!compiled) {
    const hex = PAIR_COUNTING_WASM
    const bytes = new Uint8Array(hex.length / 2)
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
    compiled = new wasm.Module(bytes)
  }
  return compiled
}

const imports = {
  env: {
    abort(): never {
      throw new Error('internal: the pair counting core aborted')
    },
  },
}

/** Spare arrays kept for outboxes (a few: one per owner is what two owners swap). */
const MAX_SPARES = 4

export class PairCountingCore {
  private readonly core: CoreExports
  /**
   * Arrays other owners handed over (addPairs), counted: room for this counter's next outboxes,
   * where fresh memory for each (zeroed, faulted in page by page) cost ~8 % of the CPU.
   */
  private readonly spares: Uint32Array[] = []

  /** Owner `self` of `owners` sharing the buckets; a bucket's first key gets room for `share`. */
  constructor(owners: number, self: number, share: number) {
    this.core = new wasm.Instance(pairCountingModule(), imports).exports as CoreExports
    this.core.setup(owners, self, share)
  }

  /** Keys waiting to be merged. */
  get waiting(): number {
    return this.core.waiting()
  }

  /** Distinct pairs in the merged lists. */
  get held(): number {
    return this.core.held()
  }

  private words(at: number, n: number): Uint32Array {
    return new Uint32Array(this.core.memory.buffer, at, n)
  }

  /** As PairPartitions.addRows: rows [from, n) (stride words each); returns the first that does not fit. */
  addRows(rows: Uint32Array, stride: number, from: number, n: number): number {
    const count = n - from
    if (count <= 0) return n
    const at = this.core.inputRoom(4 * stride * count)
    this.words(at, stride * count).set(rows.subarray(from * stride, n * stride))
    return from + this.core.addRows(stride, count)
  }

  /**
   * The `nrec` records of a plain scRNA chunk (its bytes after the header) counted in one walk:
   * keys as addRows, alignments into the tallies (foldTallies); undefined when they do not fill
   * the bytes exactly or do not suit (a record of 4096 alignments or more, a UMI of 2^31 or more),
   * and nothing is counted.
   */
  addScRnaChunk(records: Uint8Array, nrec: number, shape: ScRnaShape): ScRnaChunkCounts | undefined {
    const at = this.core.inputRoom(records.length)
    new Uint8Array(this.core.memory.buffer, at, records.length).set(records)
    const { barcodeWord, umiWord, refCount, refMask } = shape
    const alignments = this.core.countScRna(at, records.length, nrec, barcodeWord, umiWord, refCount, refMask)
    if (alignments < 0) return undefined
    return { alignments, forward: this.core.forwardAlignments(), mixed: this.core.mixedBarcodes() !== 0 }
  }

  /** Hands the alignment tallies of addScRnaChunk to `add`, then zeroes them. */
  foldTallies(refCount: number, add: (t: AlignmentTallies) => void): void {
    const at = this.core.alnTallies(refCount) // first: making them may grow the memory
    const all = new Float64Array(this.core.memory.buffer, at, 2 * refCount + TALLIED_ALIGNMENTS)
    add({
      unique: all.subarray(0, refCount),
      multi: all.subarray(refCount, 2 * refCount),
      perRecord: all.subarray(2 * refCount),
    })
    all.fill(0)
  }

  /** Pairs (barcode, UMI) of this counter's buckets; the array is this counter's from then on. */
  addPairs(pairs: Uint32Array): void {
    const at = this.core.inputRoom(4 * pairs.length)
    this.words(at, pairs.length).set(pairs)
    this.core.addPairs(pairs.length / 2)
    if (pairs.byteOffset === 0 && this.spares.length < MAX_SPARES) {
      this.spares.push(new Uint32Array(pairs.buffer as ArrayBuffer))
    }
  }

  /** An array of at least `words`: a spare, or a new one with a quarter more room. */
  private roomFor(words: number): Uint32Array {
    const fits = this.spares.findIndex((a) => a.length >= words)
    if (fits >= 0) return this.spares.splice(fits, 1)[0]!
    return new Uint32Array(4096 * Math.ceil((1.25 * words) / 4096))
  }

  flush(): void {
    this.core.flush()
  }

  /** Each owner's pairs (barcode, UMI) met since the last call (undefined: none), copied out: views for the caller to hand over. */
  takeOutbox(owners: number): (Uint32Array | undefined)[] {
    const out = Array.from({ length: owners }, (_, o) => {
      const k = this.core.outboxPairs(o)
      if (k === 0) return undefined
      const rows = this.roomFor(2 * k).subarray(0, 2 * k)
      rows.set(this.words(this.core.outboxPointer(o), 2 * k))
      return rows
    })
    this.core.clearOutboxes()
    return out
  }

  /** Copies of bucket b's lists (its pairs too, unless `withPairs` is false: a partial report's copy). */
  bucketLists(b: number, withPairs: boolean): BucketLists {
    const c = this.core
    const nb = c.bucketBarcodes(b)
    const buffer = c.memory.buffer
    return {
      barcodes: new Uint32Array(buffer, c.bucketLowBits(b), nb).slice(),
      reads: new Float64Array(buffer, c.bucketReads(b), nb).slice(),
      umiCounts: new Uint32Array(buffer, c.bucketUmiCounts(b), nb).slice(),
      umis: withPairs ? this.words(c.bucketUmis(b), c.bucketPairs(b)).slice() : new Uint32Array(0),
    }
  }

  /**
   * Views of bucket b's lists in the core's memory, valid until the next call into the core: for
   * a caller that writes them out at once (a spill, spilledRuns.ts).
   */
  bucketViews(b: number): BucketLists {
    const c = this.core
    const nb = c.bucketBarcodes(b)
    const buffer = c.memory.buffer
    return {
      barcodes: new Uint32Array(buffer, c.bucketLowBits(b), nb),
      reads: new Float64Array(buffer, c.bucketReads(b), nb),
      umiCounts: new Uint32Array(buffer, c.bucketUmiCounts(b), nb),
      umis: this.words(c.bucketUmis(b), c.bucketPairs(b)),
    }
  }

  /** A room of `bytes` in the core's memory, for lists laid out with listsAt (freed with freeRoom). */
  allocRoom(bytes: number): number {
    return this.core.allocLists(bytes)
  }

  freeRoom(at: number): void {
    this.core.freeLists(at)
  }

  /** The bytes of `l`'s room, for a spilled segment of exactly its size read into it: valid until the next call into the core. */
  listBytesOf(l: CoreLists): Uint8Array {
    return new Uint8Array(this.core.memory.buffer, l.at, listBytes(l.cap, l.pairCap))
  }

  /** Views of `l`'s lists: valid until the next call into the core. */
  listsOf(l: CoreLists): BucketLists {
    const buffer = this.core.memory.buffer
    return {
      reads: new Float64Array(buffer, l.at, l.barcodes),
      barcodes: new Uint32Array(buffer, l.at + 8 * l.cap, l.barcodes),
      umiCounts: new Uint32Array(buffer, l.at + 12 * l.cap, l.barcodes),
      umis: new Uint32Array(buffer, l.at + 16 * l.cap, l.pairs),
    }
  }

  /** `src` copied into `l` (its room at least as large), which then holds them. */
  copyInto(l: CoreLists, src: BucketLists): void {
    l.barcodes = src.barcodes.length
    l.pairs = src.umis.length
    const dst = this.listsOf(l)
    dst.reads.set(src.reads)
    dst.barcodes.set(src.barcodes)
    dst.umiCounts.set(src.umiCounts)
    dst.umis.set(src.umis)
  }

  /** `a` and `b` merged into `out` (room for both: assembly/listMerge.ts, partitionLists.ts's mergeLists in the core). */
  mergeInto(a: CoreLists, b: CoreLists, out: CoreLists): void {
    const c = this.core
    out.barcodes = c.mergeLists(a.at, a.cap, a.barcodes, a.pairs, b.at, b.cap, b.barcodes, b.pairs, out.at, out.cap)
    out.pairs = c.mergedPairs()
  }

  /** The core's memory, in bytes (it only grows). */
  get memoryBytes(): number {
    return this.core.memory.buffer.byteLength
  }

  /** Distinct barcodes in the merged lists. */
  get barcodesHeld(): number {
    return this.core.barcodesHeld()
  }

  /** Empties bucket b's lists (its keys must have been flushed), their memory kept for reuse. */
  dropBucket(b: number): void {
    this.core.dropBucket(b)
  }

  /**
   * Frees the keys' rooms, the emptied outboxes and the input (assembly/pairCounting.ts): once the
   * lists are written out, the core's memory is free in one piece for the end's merges.
   */
  releaseRooms(): void {
    this.core.releaseRooms()
  }

  /** Whether bucket b holds anything: pairs merged or keys waiting. */
  bucketCounted(b: number): boolean {
    return this.core.bucketPairs(b) > 0 || this.core.bucketWaiting(b) > 0
  }

  bucketOddPairs(b: number): number {
    return this.core.bucketOddPairs(b)
  }
}
