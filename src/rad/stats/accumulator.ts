/**
 * The whole-file statistics pass (issue 12 §1, docs/stats.md): one
 * accumulator per worker takes decoded chunks (ChunkColumns) and counts in
 * typed arrays; states merge, so the figures do not depend on how chunks were
 * split between workers while no cap is reached.
 */
import type { OrientationEncoding, Semantics } from '../semantics'
import { fixedWidth, isIntegerType } from '../tags'
import type { ChunkColumns, Column, Prelude, TagDesc } from '../types'
import { CountTable, Histogram, hashWords } from './countTable'
import { hllAdd, hllMerge, newHll } from './hll'
import type { BarcodeTableState, StatsOptions, StatsState } from './types'

/**
 * Caps sized for ≤ 3 accumulators under 512 MB (docs/stats.md "Memory"). An
 * entry costs its key (4·W bytes), a count (8), a hash (4), and its share of
 * the slots (2 words each, load ≤ ½). One-level barcodes: 1.5M entries ≈ 30 MB
 * dense + 32 MB slots = 62 MB; pairs (W = 4): 2^20 entries ≈ 28 + 16 = 44 MB.
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
    if (this.table.add(words, at, n) >= 0) return
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
  private readonly scratch: Uint32Array
  private readonly first: Uint32Array
  records = 0
  alignments = 0
  readonly alnPerRecord = new Histogram(DENSE_HISTOGRAM)
  readonly orientation = new Float64Array(ORIENTATIONS.length)
  readonly barcodes: BarcodeCounter[]
  readonly pairs: CountTable | undefined
  pairShift = 0
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
    this.scratch = new Uint32Array(this.keyWords + 2)
    this.first = new Uint32Array(this.keyWords)
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
  }

  /** Counts one decoded chunk. */
  addChunk(cols: ChunkColumns): void {
    this.records += cols.recordCount
    this.alignments += cols.alignmentCount
    this.noteChunk(cols.chunk, cols.recordCount)
    const bc = this.shape.barcodeTags.map((t) => wordsOf(cols.readColumns[t]))
    const umi = this.shape.umiTag === undefined ? undefined : wordsOf(cols.readColumns[this.shape.umiTag])
    const readType =
      this.sem.mappingType?.level === 'read' ? wordsOf(cols.readColumns[this.sem.mappingType.tag]) : undefined
    const alnViews = this.alignmentViews(cols)
    let mixed = false
    for (let r = 0; r < cols.recordCount; r++) {
      const naln = cols.alnStart[r + 1]! - cols.alnStart[r]!
      this.alnPerRecord.add(naln)
      if (bc.length > 0 && this.countBarcode(bc, r)) mixed ||= this.differsFromFirst(r)
      if (umi && this.pairs) this.countPair(umi, r)
      const type = readType ? readType.data[readType.wide ? 2 * r : r]! : undefined
      if (type !== undefined) this.mappingType.add(type)
      this.countAlignments(alnViews, cols.alnStart[r]!, cols.alnStart[r + 1]!, naln, type)
    }
    if (bc.length > 0 && cols.recordCount > 0) this.chunkBarcodes[cols.chunk] = mixed ? 2 : 1
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

  /** Fills scratch[0, W) with record r's barcode words and counts them; false when a column is missing. */
  private countBarcode(bc: (Words | undefined)[], r: number): boolean {
    const s = this.scratch
    if (!barcodeKey(bc, r, s)) return false
    this.barcodes[0]!.add(s, 0, 1)
    for (let l = 1; l < this.barcodes.length; l++) this.barcodes[l]!.add(s, 2 * (l - 1), 1)
    return true
  }

  /** Whether record r's barcode (in scratch) differs from the chunk's first record's. */
  private differsFromFirst(r: number): boolean {
    const W = this.keyWords
    if (r === 0) {
      for (let i = 0; i < W; i++) this.first[i] = this.scratch[i]!
      return false
    }
    for (let i = 0; i < W; i++) if (this.first[i] !== this.scratch[i]) return true
    return false
  }

  private countPair(umi: Words, r: number): void {
    const W = this.keyWords
    this.scratch[W] = umi.wide ? umi.data[2 * r]! : umi.data[r]!
    this.scratch[W + 1] = umi.wide ? umi.data[2 * r + 1]! : 0
    this.addPair(this.scratch, 0, 1)
  }

  /** Adds a pair if its hash is in the sample; halves the sample while the table is full. */
  private addPair(words: Uint32Array, at: number, n: number): void {
    const pairs = this.pairs!
    const h = hashWords(words, at, pairs.keyWords, PAIR_SEED)
    for (;;) {
      if (!inSample(h, this.pairShift)) return
      if (pairs.addHashed(words, at, n, h) >= 0) return
      this.halvePairs(this.pairShift + 1)
    }
  }

  private halvePairs(shift: number): void {
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
    s.barcodes.forEach((b, i) => this.barcodes[i]?.merge(b))
    this.mergePairs(s)
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
