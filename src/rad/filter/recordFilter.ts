/**
 * Record filters (README "Command line", filters): what a user asks for (RecordFilter, plain
 * text and numbers), compiled once per file against its prelude and semantics by filterCompile.ts
 * (CompiledFilter, plain data that crosses a worker boundary), then matched here over a decoded
 * chunk's columns without building strings: barcodes and UMIs are compared as 2-bit packed words
 * (docs/format.md §7.8), references as a bitset of reference ids (§5.3, §7.4, §7.5). Every
 * criterion given must hold (AND).
 */
import { columnNumber } from '../decode/columns'
import { packedWords } from '../decode/packedWords'
import { sequenceText } from '../text/display'
import type { OrientationEncoding } from '../prelude/semantics'
import { fixedWidth, isIntegerType } from '../prelude/tags'
import type { ChunkColumns, Column, Prelude } from '../types'
import { MAX_PACKED_LEN, NO_MAX } from './filterCompile'
import type { AlignmentCriterion, CompiledFilter, SequenceCriterion } from './filterCompile'

export {
  barcodeOnly,
  compileFilter,
  formatSequence,
  matchReferences,
  packSequence,
  parseRefPattern,
} from './filterCompile'
export type {
  AlignmentCriterion,
  CompiledFilter,
  Orientation,
  PackedSequence,
  RecordFilter,
  SequenceCriterion,
} from './filterCompile'

/** 0, 1 or 2 (= "more than one") 2-bit positions where two packed 32-bit words differ. */
export function baseMismatches(a: number, b: number): number {
  const x = (a ^ b) >>> 0
  // One bit per base: set when either bit of the base's pair differs.
  const m = (x | (x >>> 1)) & 0x55555555
  if (m === 0) return 0
  return (m & (m - 1)) === 0 ? 1 : 2
}

/** The mask of a sequence's 2·len bits in its low and high word (bits above are not part of it, §7.8). */
function sequenceMasks(len: number): { lo: number; hi: number } {
  const bits = 2 * Math.min(len, MAX_PACKED_LEN)
  if (bits >= 32) return { lo: 0xffffffff, hi: bits >= 64 ? 0xffffffff : (2 ** (bits - 32) - 1) >>> 0 }
  return { lo: (2 ** bits - 1) >>> 0, hi: 0 }
}

type RecordTest = (r: number) => boolean

function textMismatches(a: string, b: string): number {
  if (a.length !== b.length) return 2
  let n = 0
  for (let i = 0; i < a.length && n < 2; i++) if (a[i] !== b[i]) n++
  return n
}

function sequenceTest(cols: ChunkColumns, crit: SequenceCriterion): RecordTest {
  const { seq, maxMismatches } = crit
  const masks = sequenceMasks(seq.len)
  const tests = crit.fields.map((field): RecordTest => {
    const col = cols.readColumns[field.tag] as Column
    const words = seq.len <= MAX_PACKED_LEN ? packedWords(col) : undefined
    if (!words) {
      return (r) => textMismatches(sequenceText(col, r, field), seq.text) <= maxMismatches
    }
    const { words: lo, stride } = words
    if (stride === 1) return (r) => baseMismatches((lo[r] ?? 0) & masks.lo, seq.lo) <= maxMismatches
    return (r) => {
      const a = baseMismatches((lo[2 * r] ?? 0) & masks.lo, seq.lo)
      const b = baseMismatches((lo[2 * r + 1] ?? 0) & masks.hi, seq.hi)
      return a + b <= maxMismatches
    }
  })
  if (tests.length === 1) return tests[0] as RecordTest
  return (r) => tests.some((t) => t(r))
}

/** A column's entries as numbers: the typed array itself when it holds numbers, else a lookup. */
function numbersOf(col: Column): (i: number) => number {
  switch (col.kind) {
    case 'u8':
    case 'u16':
    case 'u32':
    case 'i8':
    case 'i16':
    case 'i32': {
      const v = col.values
      return (i) => v[i] ?? 0
    }
    default:
      return (i) => columnNumber(col, i) ?? -1
  }
}

const REF_MASK: Record<OrientationEncoding, number> = { bit31: 0x7fffffff, top2bits: 0x3fffffff }

function alignmentTest(cols: ChunkColumns, crit: AlignmentCriterion): RecordTest {
  const { refs, refTag, orientation, mappingType } = crit
  const refOf = refTag ? numbersOf(cols.alnColumns[refTag.tag] as Column) : undefined
  const refMask = refTag?.packed ? REF_MASK[refTag.packed] : 0xffffffff
  const oriOf = orientation ? numbersOf(cols.alnColumns[orientation.tag] as Column) : undefined
  const wantForward = orientation?.forward ? 1 : 0
  const typeOf = mappingType ? numbersOf(cols.alnColumns[mappingType.tag] as Column) : undefined
  const alnStart = cols.alnStart
  const oneAlignment = (k: number): boolean => {
    if (refs && refOf) {
      const ref = (refOf(k) & refMask) >>> 0
      if (((refs[ref >>> 3] ?? 0) & (1 << (ref & 7))) === 0) return false
    }
    if (oriOf && oriOf(k) >>> 31 !== wantForward) return false
    return !(typeOf && mappingType && typeOf(k) !== mappingType.value)
  }
  return (r) => {
    const end = alnStart[r + 1] ?? 0
    for (let k = alnStart[r] ?? 0; k < end; k++) if (oneAlignment(k)) return true
    return false
  }
}

function recordTests(cols: ChunkColumns, f: CompiledFilter): RecordTest[] {
  const tests: RecordTest[] = []
  const alnStart = cols.alnStart
  if (f.minAln > 0 || f.maxAln < NO_MAX) {
    tests.push((r) => {
      const n = (alnStart[r + 1] ?? 0) - (alnStart[r] ?? 0)
      return n >= f.minAln && n <= f.maxAln
    })
  }
  const readType = f.readMappingType
  if (readType) {
    const typeOf = numbersOf(cols.readColumns[readType.tag] as Column)
    tests.push((r) => typeOf(r) === readType.value)
  }
  if (f.barcode) tests.push(sequenceTest(cols, f.barcode))
  if (f.umi) tests.push(sequenceTest(cols, f.umi))
  if (f.alignment) tests.push(alignmentTest(cols, f.alignment))
  return tests
}

/**
 * Writes the indices (within the chunk) of the records of `cols` that match
 * into `out` from `at` on, in order; returns how many. `out` must have room
 * for `cols.recordCount` more. An alignment-level criterion (reference,
 * orientation, scATAC type) holds when one alignment meets all of them.
 */
export function matchChunk(cols: ChunkColumns, f: CompiledFilter, out: Uint32Array, at = 0): number {
  if (out.length - at < cols.recordCount) throw new Error('internal: matchChunk output too small')
  const tests = recordTests(cols, f)
  let n = at
  for (let r = 0; r < cols.recordCount; r++) {
    let ok = true
    for (const t of tests) {
      if (!t(r)) {
        ok = false
        break
      }
    }
    if (ok) out[n++] = r
  }
  return n - at
}

/** matchChunk into a fresh array of exactly the matches. */
export function matchRecords(cols: ChunkColumns, f: CompiledFilter): Uint32Array {
  const out = new Uint32Array(cols.recordCount)
  return out.slice(0, matchChunk(cols, f, out))
}

/**
 * Where the barcode `tag` starts inside a record (§5.1: naln u32, then the read
 * tags in order), or undefined when a tag before it has no fixed width.
 */
export function barcodeOffsetInRecord(prelude: Prelude, tag: number): number | undefined {
  let at = 4
  for (let t = 0; t < tag; t++) {
    const desc = prelude.readTags[t]
    const width = desc ? fixedWidth(desc.type) : 0
    if (width === 0) return undefined
    at += width
  }
  return at
}

/**
 * The collated fast path (§4.3: alevin-fry collate writes one chunk per
 * corrected barcode, so its first record's barcode is every record's): whether
 * the barcode at `at` in a chunk's record bytes matches, read straight from
 * the bytes, no columns decoded. Undefined when it cannot tell (the tag is
 * not a packed integer, or the bytes are too short).
 */
export function firstRecordBarcodeMatches(
  records: Uint8Array,
  at: number,
  prelude: Prelude,
  crit: SequenceCriterion,
): boolean | undefined {
  const field = crit.fields[0]
  const type = field ? prelude.readTags[field.tag]?.type : undefined
  if (crit.fields.length !== 1 || !type || !isIntegerType(type.id)) return undefined
  const width = fixedWidth(type)
  if (width > 8 || crit.seq.len > MAX_PACKED_LEN || at + width > records.length) return undefined
  const view = new DataView(records.buffer, records.byteOffset, records.length)
  const masks = sequenceMasks(crit.seq.len)
  const lo = width >= 4 ? view.getUint32(at, true) : width === 2 ? view.getUint16(at, true) : view.getUint8(at)
  const hi = width === 8 ? view.getUint32(at + 4, true) : 0
  const n = baseMismatches(lo & masks.lo, crit.seq.lo) + baseMismatches(hi & masks.hi, crit.seq.hi)
  return n <= crit.maxMismatches
}
