/**
 * The whole-file statistics pass (docs/stats.md): one
 * accumulator per worker takes decoded chunks (ChunkColumns) and counts in
 * typed arrays; states merge, so the figures do not depend on how chunks were
 * split between workers while no cap is reached.
 */
import type { OrientationEncoding, Semantics } from '../semantics'
import { fixedWidth, isIntegerType } from '../tags'
import type { ChunkColumns, Column, Prelude, TagDesc } from '../types'
import { CountTable, Histogram, hash2, hash4, hashWords } from './countTable'
import { hllAdd, hllMerge, newHll } from './hll'
import type { BarcodeTableState, StatsOptions, StatsState } from './types'

/**
 * Caps sized for ≤ 3 accumulators under 512 MB (docs/stats.md "Memory",
 * measured 381 MB peak). An entry costs its key (4·W bytes), a count (8), and
 * its share of the slots (2 words each, load ≤ ¾). One-level barcodes: 1.5M
 * entries ≈ 24 MB dense + 17 MB slots = 41 MB; pairs (W = 4): 2^20 entries ≈
 * 25 + 17 = 41 MB.
 * 1.5M barcodes keep a realistic run (≈10k cells + ≈1M ambient) exact.
 */
export const DEFAULT_MAX_BARCODES = 1_500_000
export const DEFAULT_MAX_PAIRS = 1 << 20
export const DEFAULT_TOP = 20

/** Orientation indices of StatsState.orientation (display.ts names them the same). */
export const ORIENTATIONS = ['fw', 'rc', 'ff', 'fr', 'rf', 'rr', '?'] as const
const FW = 0
const RC = 1
const UNKNOWN = 6
/** Bulk pair orientations by the top two bits (§7.4), as display.ts unpackAlignment reads them. */
const PAIR_ORI = [5, 4, 3, 2]

/** Dense part of the small histograms: values below it need no hashing. */
const DENSE_HISTOGRAM = 4096
/** Fragment lengths are u16 in every known producer (§7.4, §7.5); 65535 is "none". */
const DENSE_FRAGMENTS = 65535
const FRAGMENT_NONE = 65535

const HLL_SEED = 0x5bd1e995
const PAIR_SEED = 0x1b873593

/** A column's integers as u32 words: `wide` columns hold two per entry (low first, little-endian). */
export interface Words {
  data: ArrayLike<number>
  wide: boolean
}

/** Integer columns as u32 words, without a BigInt per value. */
export function wordsOf(col: Column | undefined): Words | undefined {
  if (!col) return undefined
  switch (col.kind) {
    case 'u8':
    case 'bool':
    case 'u16':
    case 'u32':
    case 'i8':
    case 'i16':
    case 'i32':
      return { data: col.values, wide: false }
    case 'u64':
    case 'i64':
      return { data: new Uint32Array(col.values.buffer, col.values.byteOffset, col.values.length * 2), wide: true }
    default:
      return undefined
  }
}

/**
 * Writes an integer column's values as (low, high) u32 words into
 * dst[r·stride + at], dst[r·stride + at + 1] for r < n (narrow integers
 * wrap to u32 as a Uint32Array store does; high word 0). False for other kinds.
 */
function copyWords(col: Column | undefined, dst: Uint32Array, stride: number, at: number, n: number): boolean {
  if (!col) return false
  switch (col.kind) {
    case 'u32': {
      const v = col.values
      for (let r = 0, o = at; r < n; r++, o += stride) {
        dst[o] = v[r]!
        dst[o + 1] = 0
      }
      return true
    }
    case 'u64':
    case 'i64': {
      const v = new Uint32Array(col.values.buffer, col.values.byteOffset, 2 * n)
      for (let r = 0, o = at; r < n; r++, o += stride) {
        dst[o] = v[2 * r]!
        dst[o + 1] = v[2 * r + 1]!
      }
      return true
    }
    case 'u8':
    case 'bool':
    case 'u16':
    case 'i8':
    case 'i16':
    case 'i32': {
      const v: ArrayLike<number> = col.values
      for (let r = 0, o = at; r < n; r++, o += stride) {
        dst[o] = v[r]!
        dst[o + 1] = 0
      }
      return true
    }
    default:
      return false
  }
}

/**
 * Record r's barcode key, as the barcode table holds it: two words (low, high)
 * per barcode level, into out[0, 2·levels). False when a level's column is missing.
 */
export function barcodeKey(bc: readonly (Words | undefined)[], r: number, out: Uint32Array): boolean {
  for (let l = 0; l < bc.length; l++) {
    const w = bc[l]
    if (!w) return false
    out[2 * l] = w.wide ? w.data[2 * r]! : w.data[r]!
    out[2 * l + 1] = w.wide ? w.data[2 * r + 1]! : 0
  }
  return true
}

/** An integer of ≤ 8 bytes: what the counters can key on. */
function countable(tag: TagDesc | undefined): boolean {
  return tag !== undefined && isIntegerType(tag.type.id) && fixedWidth(tag.type) <= 8
}

interface AlignmentViews {
  ori: Words | undefined
  top2: boolean
  packed: OrientationEncoding | undefined
  refCol: Words | undefined
  frag: Words | undefined
  alnType: Words | undefined
}

/** The shape an accumulator needs; read from a prelude or from a state. */
interface Shape {
  barcodeTags: number[]
  umiTag: number | undefined
  refCount: number
}

class BarcodeCounter {
  readonly table: CountTable
  hll = newHll()
  untrackedRecords = 0

  constructor(keyWords: number, max: number) {
    this.table = new CountTable(keyWords, max)
  }

  add(words: Uint32Array, at: number, n: number): void {
    if (this.table.add(words, at, n) < 0) this.untracked(words, at, n)
  }

  /** Records of a barcode the full table refused: counted, and its key into the sketch. */
  untracked(words: Uint32Array, at: number, n: number): void {
    this.untrackedRecords += n
    hllAdd(this.hll, hashWords(words, at, this.table.keyWords, HLL_SEED))
  }

  exportState(): BarcodeTableState {
    return { table: this.table.exportState(), hll: this.hll.slice(), untrackedRecords: this.untrackedRecords }
  }

  merge(s: BarcodeTableState): void {
    const W = this.table.keyWords
    for (let id = 0; id < s.table.size; id++) this.add(s.table.keys, id * W, s.table.counts[id]!)
    hllMerge(this.hll, s.hll)
    this.untrackedRecords += s.untrackedRecords
  }
}

export class StatsAccumulator {
  private readonly opts: Required<Pick<StatsOptions, 'maxBarcodes' | 'maxPairs'>>
  private readonly shape: Shape
  private readonly sem: Semantics
  private readonly keyWords: number
  /** Words per row of `rows`: the barcode key, then two UMI words. */
  private readonly rowWords: number
  /** The current chunk's keys, one row per record (fillRows). */
  private rows = new Uint32Array(0)
  /** The current chunk's key hashes (countBarcodes, countPairs). */
  private hashes = new Uint32Array(0)
  /** Whether `rows` holds the current chunk's UMIs. */
  private hasUmi = false
  records = 0
  alignments = 0
  readonly alnPerRecord = new Histogram(DENSE_HISTOGRAM)
  readonly orientation = new Float64Array(ORIENTATIONS.length)
  readonly barcodes: BarcodeCounter[]
  readonly pairs: CountTable | undefined
  pairShift = 0
  /**
   * While true, the barcodes of records with a UMI are not counted apart:
   * every such record is in the exact pair table, and a barcode's records
   * are the sum of its pairs' counts (one table probe a record instead of
   * two; docs/adr/0009). `movedToBarcodes[id]` is how much of pair id's
   * count the barcode table already holds (moveCountsToBarcodes).
   */
  private barcodesFromPairs: boolean
  private movedToBarcodes = new Float64Array(0)
  readonly refUnique: Float64Array
  readonly refMulti: Float64Array
  readonly mappingType = new Histogram(DENSE_HISTOGRAM)
  readonly fragmentLength = new Histogram(DENSE_FRAGMENTS)
  fragmentLengthUnavailable = 0
  readonly orientationByType = new Histogram(DENSE_HISTOGRAM)
  chunkRecords = new Float64Array(0)
  chunkBarcodes = new Uint8Array(0)
  readonly notes: string[]

  constructor(prelude: Prelude, sem: Semantics, opts: StatsOptions = {}) {
    this.opts = { maxBarcodes: opts.maxBarcodes ?? DEFAULT_MAX_BARCODES, maxPairs: opts.maxPairs ?? DEFAULT_MAX_PAIRS }
    this.sem = sem
    this.notes = []
    const barcodeTags = sem.barcodes.map((f) => f.tag)
    const unsupported = sem.barcodes.filter((f) => !countable(prelude.readTags[f.tag]))
    for (const f of unsupported) {
      this.notes.push(`barcode tag "${f.name}" is not an integer of ≤ 8 bytes: barcodes not counted`)
    }
    const umiOk = sem.umi !== undefined && countable(prelude.readTags[sem.umi.tag])
    if (sem.umi && !umiOk) this.notes.push(`UMI tag "${sem.umi.name}" is not an integer of ≤ 8 bytes: UMIs not counted`)
    this.shape = {
      barcodeTags: unsupported.length > 0 ? [] : barcodeTags,
      umiTag: umiOk ? sem.umi?.tag : undefined,
      refCount: prelude.refCount,
    }
    const levels = this.shape.barcodeTags.length
    this.keyWords = 2 * levels
    this.rowWords = this.keyWords + 2
    this.barcodes = []
    if (levels > 0) {
      this.barcodes.push(new BarcodeCounter(this.keyWords, this.opts.maxBarcodes))
      if (levels > 1) for (let l = 0; l < levels; l++) this.barcodes.push(new BarcodeCounter(2, this.opts.maxBarcodes))
    }
    this.pairs =
      levels > 0 && this.shape.umiTag !== undefined
        ? new CountTable(this.keyWords + 2, this.opts.maxPairs, undefined, PAIR_SEED)
        : undefined
    this.refUnique = new Float64Array(prelude.refCount)
    this.refMulti = new Float64Array(prelude.refCount)
    this.pairShift = this.pairs ? (opts.pairShift ?? 0) : 0
    this.barcodesFromPairs = this.pairs !== undefined && levels === 1 && this.pairShift === 0
  }

  /**
   * Counts one decoded chunk, column by column (docs/adr/0009): the keys are
   * copied once into `rows`, then each table takes its keys in one tight loop.
   */
  addChunk(cols: ChunkColumns): void {
    const n = cols.recordCount
    this.records += n
    this.alignments += cols.alignmentCount
    this.noteChunk(cols.chunk, n)
    this.countAlnPerRecord(cols.alnStart, n)
    if (this.barcodes.length > 0 && this.fillRows(cols)) {
      // barcodesFromPairs implies an unsampled pair table: halvePairs ends it.
      if (this.barcodesFromPairs && this.hasUmi && this.pairs!.size + n <= this.pairs!.maxEntries) {
        this.countPairs(n) // no record can be refused: every barcode is counted through its pair
      } else {
        if (this.hasUmi) this.stopBarcodesFromPairs() // this chunk's pairs may be refused
        this.countBarcodes(n)
        if (this.pairs && this.hasUmi) this.countPairs(n)
      }
      if (n > 0) this.chunkBarcodes[cols.chunk] = this.mixedChunk(n) ? 2 : 1
    }
    const readType =
      this.sem.mappingType?.level === 'read' ? wordsOf(cols.readColumns[this.sem.mappingType.tag]) : undefined
    const alnViews = this.alignmentViews(cols)
    const alnStart = cols.alnStart
    if (!readType && this.countPackedAlignments(alnViews, alnStart, n)) return
    for (let r = 0; r < n; r++) {
      const type = readType ? readType.data[readType.wide ? 2 * r : r]! : undefined
      if (type !== undefined) this.mappingType.add(type)
      const from = alnStart[r]!
      const to = alnStart[r + 1]!
      this.countAlignments(alnViews, from, to, to - from, type)
    }
  }

  private countAlnPerRecord(alnStart: Uint32Array, n: number): void {
    const dense = this.alnPerRecord.dense
    for (let r = 0; r < n; r++) {
      const naln = alnStart[r + 1]! - alnStart[r]!
      if (naln < DENSE_HISTOGRAM) dense[naln]!++
      else this.alnPerRecord.add(naln)
    }
  }

  private noteChunk(chunk: number, records: number): void {
    if (chunk >= this.chunkRecords.length) {
      const n = Math.max(chunk + 1, this.chunkRecords.length * 2, 64)
      const rec = new Float64Array(n).fill(NaN)
      rec.set(this.chunkRecords)
      const bcs = new Uint8Array(n)
      bcs.set(this.chunkBarcodes)
      this.chunkRecords = rec
      this.chunkBarcodes = bcs
    }
    this.chunkRecords[chunk] = records
  }

  /**
   * Copies the chunk's barcode (and UMI) columns into `rows`, one row of
   * `rowWords` words per record: the levels' words (low, high), then the
   * UMI's. A row's first keyWords words are its barcode key, all of them its
   * pair key. False when a barcode column cannot be read as words.
   */
  private fillRows(cols: ChunkColumns): boolean {
    const n = cols.recordCount
    const stride = this.rowWords
    if (this.rows.length < n * stride) {
      this.rows = new Uint32Array(Math.max(n, 2 * (this.rows.length / stride)) * stride)
    }
    const tags = this.shape.barcodeTags
    for (let l = 0; l < tags.length; l++) {
      if (!copyWords(cols.readColumns[tags[l]!], this.rows, stride, 2 * l, n)) return false
    }
    const umi = this.shape.umiTag
    this.hasUmi = umi !== undefined && copyWords(cols.readColumns[umi], this.rows, stride, this.keyWords, n)
    return true
  }

  private countBarcodes(n: number): void {
    const rows = this.rows
    const stride = this.rowWords
    const whole = this.barcodes[0]!
    if (this.keyWords === 2) {
      const table = whole.table
      const hashes = this.rowHashes(n)
      for (let r = 0, at = 0; r < n; r++, at += stride) hashes[r] = hash2(rows[at]!, rows[at + 1]!, table.seed)
      for (
        let r = table.addRows(rows, stride, hashes, 0, n);
        r < n;
        r = table.addRows(rows, stride, hashes, r + 1, n)
      ) {
        whole.untracked(rows, r * stride, 1)
      }
      return
    }
    for (let r = 0, at = 0; r < n; r++, at += stride) whole.add(rows, at, 1)
    for (let l = 1; l < this.barcodes.length; l++) {
      const level = this.barcodes[l]!
      for (let r = 0, at = 2 * (l - 1); r < n; r++, at += stride) level.add(rows, at, 1)
    }
  }

  /** Whether the chunk's records have more than one barcode (collated files have one a chunk). */
  private mixedChunk(n: number): boolean {
    const rows = this.rows
    const stride = this.rowWords
    const W = this.keyWords
    for (let r = 1, at = stride; r < n; r++, at += stride) {
      for (let i = 0; i < W; i++) if (rows[at + i] !== rows[i]) return true
    }
    return false
  }

  /**
   * Hashes first, then probes: with the hashes in hand, consecutive probes do
   * not wait on each other, so their cache misses overlap (the pair table
   * outgrows the caches; docs/adr/0009).
   */
  private countPairs(n: number): void {
    const rows = this.rows
    const stride = this.rowWords
    const hashes = this.rowHashes(n)
    for (let r = 0, at = 0; r < n; r++, at += stride) {
      hashes[r] =
        stride === 4
          ? hash4(rows[at]!, rows[at + 1]!, rows[at + 2]!, rows[at + 3]!, PAIR_SEED)
          : hashWords(rows, at, stride, PAIR_SEED)
    }
    const pairs = this.pairs!
    for (let r = pairs.addRows(rows, stride, hashes, 0, n, this.pairShift); r < n;) {
      this.addPairHashed(rows, r * stride, 1, hashes[r]!)
      r = pairs.addRows(rows, stride, hashes, r + 1, n, this.pairShift)
    }
  }

  /** A scratch array of ≥ n hashes. */
  private rowHashes(n: number): Uint32Array {
    if (this.hashes.length < n) this.hashes = new Uint32Array(Math.max(n, 2 * this.hashes.length))
    return this.hashes
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

  /**
   * Adds to the barcode table what the pair table counted since the last
   * call (barcodesFromPairs): a pair's key starts with its barcode's.
   */
  private moveCountsToBarcodes(): void {
    const pairs = this.pairs
    if (!this.barcodesFromPairs || !pairs) return
    if (this.movedToBarcodes.length < pairs.size) {
      const grown = new Float64Array(Math.max(pairs.size, 2 * this.movedToBarcodes.length))
      grown.set(this.movedToBarcodes)
      this.movedToBarcodes = grown
    }
    const moved = this.movedToBarcodes
    const whole = this.barcodes[0]!
    const PW = pairs.keyWords
    for (let id = 0; id < pairs.size; id++) {
      const d = pairs.counts[id]! - moved[id]!
      if (d > 0) whole.add(pairs.keys, id * PW, d)
      moved[id] = pairs.counts[id]!
    }
  }

  /** Takes the pair counts as they are now as already in the barcode table. */
  private markPairCountsMoved(): void {
    const pairs = this.pairs
    if (!this.barcodesFromPairs || !pairs) return
    if (this.movedToBarcodes.length < pairs.size) this.movedToBarcodes = new Float64Array(pairs.size)
    this.movedToBarcodes.set(pairs.counts.subarray(0, pairs.size))
  }

  /** Barcodes are counted apart from now on (the pair table may refuse or drop pairs). */
  private stopBarcodesFromPairs(): void {
    this.moveCountsToBarcodes()
    this.barcodesFromPairs = false
    this.movedToBarcodes = new Float64Array(0)
  }

  private halvePairs(shift: number): void {
    this.stopBarcodesFromPairs()
    const pairs = this.pairs!
    this.pairShift = shift
    pairs.retain((_id, hash) => inSample(hash, shift))
  }

  /** The alignment columns the counts read, once per chunk. */
  private alignmentViews(cols: ChunkColumns): AlignmentViews {
    const sem = this.sem
    const packed = sem.reference?.packed
    return {
      ori: sem.orientation ? wordsOf(cols.alnColumns[sem.orientation.tag]) : undefined,
      top2: sem.orientation?.encoding === 'top2bits',
      packed,
      refCol: sem.reference && !packed ? wordsOf(cols.alnColumns[sem.reference.tag]) : undefined,
      frag: sem.fragmentLength === undefined ? undefined : wordsOf(cols.alnColumns[sem.fragmentLength]),
      alnType: sem.mappingType?.level === 'alignment' ? wordsOf(cols.alnColumns[sem.mappingType.tag]) : undefined,
    }
  }

  /**
   * countAlignments for every record of a chunk in one loop, for the shape
   * of scRNA files (one u32 word per alignment packing orientation and
   * reference, §5.3; nothing else counted per alignment); false for other
   * shapes. The same counts, without a call per record (docs/adr/0009).
   */
  private countPackedAlignments(v: AlignmentViews, alnStart: Uint32Array, n: number): boolean {
    const data = v.ori?.data
    if (!(data instanceof Uint32Array) || v.top2 || !v.packed || v.refCol || v.frag || v.alnType) return false
    const mask = v.packed === 'top2bits' ? 0x3fffffff : 0x7fffffff
    const unique = this.refUnique
    const multi = this.refMulti
    const refCount = unique.length
    let fw = 0
    let k = alnStart[0]!
    for (let r = 0; r < n; r++) {
      const to = alnStart[r + 1]!
      const refs = to - k === 1 ? unique : multi
      for (; k < to; k++) {
        const w = data[k]!
        if (w >= 0x80000000) fw++
        const ref = w & mask
        if (ref < refCount) refs[ref]!++
      }
    }
    const total = k - alnStart[0]!
    this.orientation[FW]! += fw
    this.orientation[RC]! += total - fw
    return true
  }

  private countAlignments(v: AlignmentViews, from: number, to: number, naln: number, type: number | undefined): void {
    const { ori, top2, packed, refCol, frag, alnType } = v
    const refs = naln === 1 ? this.refUnique : this.refMulti
    for (let k = from; k < to; k++) {
      let ref = -1
      if (ori) {
        const w = ori.data[ori.wide ? 2 * k : k]! >>> 0
        const o = orientationOf(w, top2, type)
        this.orientation[o]!++
        if (type !== undefined) this.orientationByType.add(type * 8 + o)
        if (packed) ref = packed === 'top2bits' ? w & 0x3fffffff : w & 0x7fffffff
      }
      if (refCol) ref = refCol.data[refCol.wide ? 2 * k : k]!
      if (ref >= 0 && ref < refs.length) refs[ref]!++
      if (frag) {
        const f = frag.data[frag.wide ? 2 * k : k]!
        if (f === FRAGMENT_NONE) this.fragmentLengthUnavailable++
        else this.fragmentLength.add(f)
      }
      if (alnType) this.mappingType.add(alnType.data[alnType.wide ? 2 * k : k]!)
    }
  }

  /** The state: compact copies, structured-clonable, buffers transferable (statsTransferables). */
  exportState(): StatsState {
    this.moveCountsToBarcodes()
    return {
      version: 1,
      records: this.records,
      alignments: this.alignments,
      alnPerRecord: this.alnPerRecord.exportState(),
      orientation: this.orientation.slice(),
      barcodes: this.barcodes.map((b) => b.exportState()),
      pairs: (this.pairs ?? new CountTable(this.keyWords + 2, 0, 0)).exportState(),
      pairShift: this.pairShift,
      refUnique: this.refUnique.slice(),
      refMulti: this.refMulti.slice(),
      mappingType: this.mappingType.exportState(),
      fragmentLength: this.fragmentLength.exportState(),
      fragmentLengthUnavailable: this.fragmentLengthUnavailable,
      orientationByType: this.orientationByType.exportState(),
      chunkRecords: this.chunkRecords.slice(),
      chunkBarcodes: this.chunkBarcodes.slice(),
      notes: [...this.notes],
    }
  }

  /** Adds another accumulator's state (from the same file) into this one. */
  merge(s: StatsState): void {
    this.records += s.records
    this.alignments += s.alignments
    this.alnPerRecord.addState(s.alnPerRecord)
    addInto(this.orientation, s.orientation)
    this.moveCountsToBarcodes()
    const pairs = this.pairs
    if (pairs && (s.pairShift > this.pairShift || pairs.size + s.pairs.size > pairs.maxEntries)) {
      this.stopBarcodesFromPairs() // the merge may halve the pairs
    }
    s.barcodes.forEach((b, i) => this.barcodes[i]?.merge(b))
    this.mergePairs(s)
    this.markPairCountsMoved() // s's barcodes came with s.barcodes: its pairs' counts are not moved again
    addInto(this.refUnique, s.refUnique)
    addInto(this.refMulti, s.refMulti)
    this.mappingType.addState(s.mappingType)
    this.fragmentLength.addState(s.fragmentLength)
    this.fragmentLengthUnavailable += s.fragmentLengthUnavailable
    this.orientationByType.addState(s.orientationByType)
    for (let c = 0; c < s.chunkRecords.length; c++) {
      const n = s.chunkRecords[c]!
      if (Number.isNaN(n)) continue
      const mine = c < this.chunkRecords.length ? this.chunkRecords[c]! : NaN
      this.noteChunk(c, Number.isNaN(mine) ? n : mine + n)
      this.chunkBarcodes[c] = Math.max(this.chunkBarcodes[c]!, s.chunkBarcodes[c]!)
    }
    for (const note of s.notes) if (!this.notes.includes(note)) this.notes.push(note)
  }

  private mergePairs(s: StatsState): void {
    if (!this.pairs || s.pairs.size === 0) return
    if (s.pairShift > this.pairShift) this.halvePairs(s.pairShift)
    const PW = this.pairs.keyWords
    for (let id = 0; id < s.pairs.size; id++) this.addPair(s.pairs.keys, id * PW, s.pairs.counts[id]!)
  }
}

function addInto(into: Float64Array, from: Float64Array): void {
  const n = Math.min(into.length, from.length)
  for (let i = 0; i < n; i++) into[i]! += from[i]!
}

/** A pair is sampled when the top `shift` bits of its hash are 0 (a ½^shift share of all pairs). */
function inSample(hash: number, shift: number): boolean {
  return shift === 0 || hash >>> (32 - shift) === 0
}

/** Orientation index of an alignment word (§5.3 bit 31; bulk §7.4 top two bits by mapping type). */
function orientationOf(word: number, top2: boolean, type: number | undefined): number {
  if (!top2 || (type !== 4 && type !== 0)) return word >= 0x80000000 ? FW : RC
  return type === 4 ? PAIR_ORI[word >>> 30]! : UNKNOWN
}

export function createStatsAccumulator(prelude: Prelude, sem: Semantics, opts?: StatsOptions): StatsAccumulator {
  return new StatsAccumulator(prelude, sem, opts)
}

/** a + b as one state (a and b from accumulators of the same file and options). */
export function mergeStates(
  prelude: Prelude,
  sem: Semantics,
  a: StatsState,
  b: StatsState,
  opts?: StatsOptions,
): StatsState {
  const acc = new StatsAccumulator(prelude, sem, opts)
  acc.merge(a)
  acc.merge(b)
  return acc.exportState()
}

/** The buffers of a state, for postMessage's transfer list. */
export function statsTransferables(s: StatsState): ArrayBuffer[] {
  const tables = [s.pairs, ...s.barcodes.map((b) => b.table)]
  const hists = [s.alnPerRecord, s.mappingType, s.fragmentLength, s.orientationByType]
  const arrays: ArrayBufferView[] = [
    s.orientation,
    s.refUnique,
    s.refMulti,
    s.chunkRecords,
    s.chunkBarcodes,
    ...s.barcodes.map((b) => b.hll),
    ...tables.flatMap((t) => [t.keys, t.counts]),
    ...hists.flatMap((h) => [h.dense, h.sparse.keys, h.sparse.counts]),
  ]
  return arrays.map((a) => a.buffer as ArrayBuffer)
}
