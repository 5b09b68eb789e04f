/**
 * The per-alignment counts of the statistics pass (docs/stats.md): orientation, references
 * (unique and multi-mapping records apart), mapping types and fragment lengths. Apart from the
 * barcode and UMI counting (accumulator.ts), which has tables of its own.
 */
import type { OrientationEncoding, Semantics } from '../prelude/semantics'
import type { ChunkColumns } from '../types'
import { Histogram } from './countTable'
import { wordsOf } from './keys'
import type { Words } from './keys'
import type { StatsState } from './statsTypes'

/** Orientation indices of StatsState.orientation (display.ts names them the same). */
export const ORIENTATIONS = ['fw', 'rc', 'ff', 'fr', 'rf', 'rr', '?'] as const
const FW = 0
const RC = 1
const UNKNOWN = 6
/** Bulk pair orientations by the top two bits (§7.4), as display.ts unpackAlignment reads them. */
const PAIR_ORI = [5, 4, 3, 2]

/** Dense part of the small histograms: values below it need no hashing. */
export const DENSE_HISTOGRAM = 4096
/** Fragment lengths are u16 in every known producer (§7.4, §7.5); 65535 is "none". */
const DENSE_FRAGMENTS = 65535
const FRAGMENT_NONE = 65535

interface AlignmentViews {
  ori: Words | undefined
  top2: boolean
  packed: OrientationEncoding | undefined
  refCol: Words | undefined
  frag: Words | undefined
  alnType: Words | undefined
}

export class AlignmentCounts {
  readonly orientation = new Float64Array(ORIENTATIONS.length)
  readonly refUnique: Float64Array
  readonly refMulti: Float64Array
  readonly mappingType = new Histogram(DENSE_HISTOGRAM)
  readonly fragmentLength = new Histogram(DENSE_FRAGMENTS)
  fragmentLengthUnavailable = 0
  readonly orientationByType = new Histogram(DENSE_HISTOGRAM)
  private readonly sem: Semantics

  constructor(sem: Semantics, refCount: number) {
    this.sem = sem
    this.refUnique = new Float64Array(refCount)
    this.refMulti = new Float64Array(refCount)
  }

  /** Counts the alignments of a decoded chunk's `n` records. */
  addChunk(cols: ChunkColumns, n: number): void {
    const sem = this.sem
    const readType = sem.mappingType?.level === 'read' ? wordsOf(cols.readColumns[sem.mappingType.tag]) : undefined
    const views = this.views(cols)
    const alnStart = cols.alnStart
    if (!readType && this.countPacked(views, alnStart, n)) return
    for (let r = 0; r < n; r++) {
      const type = readType ? readType.data[readType.wide ? 2 * r : r]! : undefined
      if (type !== undefined) this.mappingType.add(type)
      const from = alnStart[r]!
      const to = alnStart[r + 1]!
      this.countRecord(views, from, to, to - from, type)
    }
  }

  /** The alignment columns the counts read, once per chunk. */
  private views(cols: ChunkColumns): AlignmentViews {
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
   * countRecord for every record of a chunk in one loop, for the shape of scRNA files (one u32
   * word per alignment packing orientation and reference, §5.3; nothing else counted per
   * alignment); false for other shapes. The same counts, without a call per record
   * (bench/results.md, ADR 0009's second round).
   */
  private countPacked(v: AlignmentViews, alnStart: Uint32Array, n: number): boolean {
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
        fw += w >>> 31 // no branch: an alignment's strand is as good as random
        const ref = w & mask
        if (ref < refCount) refs[ref]!++
      }
    }
    const total = k - alnStart[0]!
    this.orientation[FW]! += fw
    this.orientation[RC]! += total - fw
    return true
  }

  /**
   * The mask of an alignment word's reference bits when every chunk takes countPacked's shape with
   * `tag` the one alignment tag (known from the semantics alone), else undefined: the counting
   * core then tallies such chunks itself (addStrands, addReferenceTallies).
   */
  packedRefMask(tag: number): number | undefined {
    const { orientation, reference, fragmentLength, mappingType } = this.sem
    if (orientation?.tag !== tag || orientation.encoding === 'top2bits' || reference?.tag !== tag) return undefined
    if (!reference.packed || fragmentLength !== undefined || mappingType !== undefined) return undefined
    return reference.packed === 'top2bits' ? 0x3fffffff : 0x7fffffff
  }

  /** Alignments of countPacked's shape counted elsewhere: `forward` of `total` on the forward strand. */
  addStrands(forward: number, total: number): void {
    this.orientation[FW]! += forward
    this.orientation[RC]! += total - forward
  }

  /** Alignments of countPacked's shape counted elsewhere, by reference (records with one alignment, the others). */
  addReferenceTallies(unique: Float64Array, multi: Float64Array): void {
    addInto(this.refUnique, unique)
    addInto(this.refMulti, multi)
  }

  private countRecord(v: AlignmentViews, from: number, to: number, naln: number, type: number | undefined): void {
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

  /** The fields of a StatsState these counts fill (compact copies). */
  exportState(): Pick<
    StatsState,
    | 'orientation'
    | 'refUnique'
    | 'refMulti'
    | 'mappingType'
    | 'fragmentLength'
    | 'fragmentLengthUnavailable'
    | 'orientationByType'
  > {
    return {
      orientation: this.orientation.slice(),
      refUnique: this.refUnique.slice(),
      refMulti: this.refMulti.slice(),
      mappingType: this.mappingType.exportState(),
      fragmentLength: this.fragmentLength.exportState(),
      fragmentLengthUnavailable: this.fragmentLengthUnavailable,
      orientationByType: this.orientationByType.exportState(),
    }
  }

  merge(s: StatsState): void {
    addInto(this.orientation, s.orientation)
    addInto(this.refUnique, s.refUnique)
    addInto(this.refMulti, s.refMulti)
    this.mappingType.addState(s.mappingType)
    this.fragmentLength.addState(s.fragmentLength)
    this.fragmentLengthUnavailable += s.fragmentLengthUnavailable
    this.orientationByType.addState(s.orientationByType)
  }
}

export function addInto(into: Float64Array, from: Float64Array): void {
  const n = Math.min(into.length, from.length)
  for (let i = 0; i < n; i++) into[i]! += from[i]!
}

/** Orientation index of an alignment word (§5.3 bit 31; bulk §7.4 top two bits by mapping type). */
function orientationOf(word: number, top2: boolean, type: number | undefined): number {
  if (!top2 || (type !== 4 && type !== 0)) return word >= 0x80000000 ? FW : RC
  return type === 4 ? PAIR_ORI[word >>> 30]! : UNKNOWN
}
