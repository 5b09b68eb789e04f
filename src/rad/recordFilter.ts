/**
 * Record filters (README "Command line", filters; src/rad/recordFilter.ts): what a user asks for (RecordFilter, plain text
 * and numbers), compiled once per file against its prelude and semantics
 * (CompiledFilter, plain data that crosses a worker boundary), then matched
 * over a decoded chunk's columns without building strings: barcodes and UMIs
 * are compared as 2-bit packed words (docs/format.md §7.8), references as a
 * bitset of reference ids (§5.3, §7.4, §7.5). Every criterion given must hold
 * (AND).
 */
import { columnNumber } from './columns'
import { decode2bit, sequenceText } from './display'
import { RadError, fmtInt } from './errors'
import type { OrientationEncoding, Semantics, SequenceField } from './semantics'
import { fixedWidth, isIntegerType } from './tags'
import type { ChunkColumns, Column, Prelude } from './types'

export type Orientation = 'fw' | 'rc'

/** What a user asks for. Every field is optional; the criteria given combine with AND. */
export interface RecordFilter {
  /** Cell barcode as nucleotides (ACGT…); matched against every barcode tag of the same length. */
  barcode?: string
  /** Mismatches allowed in the barcode (Hamming distance): 0 (exact, the default) or 1. */
  hamming?: 0 | 1
  /** UMI as nucleotides, exact. */
  umi?: string
  /** Reference name: a substring, or `/regex/` (flags after the last slash, e.g. `/^ENST/i`). */
  ref?: string
  /** Fewest alignments a record may have. */
  minAln?: number
  /** Most alignments a record may have. */
  maxAln?: number
  /** Orientation of an alignment: bit 31 of its orientation word, as alevin-fry's DIR (§5.3, §7.4). */
  orientation?: Orientation
  /** Mapping type: bulk `frag_map_type` (a read tag, §7.4) or scATAC `type` (an alignment tag, §7.5). */
  fragMapType?: number
}

/** A 2-bit packed sequence split into 32-bit halves (bases 0–15 from the 3' end in `lo`), so no BigInt is needed. */
export interface PackedSequence {
  lo: number
  hi: number
  len: number
  /** The nucleotides, for tags stored as text (> 32 nt) and for messages. */
  text: string
}

/** A sequence criterion on read tags: any of `fields` (barcode levels of the same length) may hold it. */
export interface SequenceCriterion {
  fields: SequenceField[]
  seq: PackedSequence
  maxMismatches: 0 | 1
}

/** Criteria that one and the same alignment of a record must meet. */
export interface AlignmentCriterion {
  /** Reference ids accepted, one bit each (bit i of byte i >> 3); undefined = any reference. */
  refs: Uint8Array | undefined
  /** How many reference ids are in `refs` (for the page: "3 references match"). */
  refCount: number
  /** The alignment tag holding the reference id, and how it is packed with the orientation. */
  refTag: { tag: number; packed: OrientationEncoding | undefined } | undefined
  /** The orientation word's tag and the bit-31 value wanted (1 = forward). */
  orientation: { tag: number; forward: boolean } | undefined
  /** scATAC's per-alignment mapping type (§7.5). */
  mappingType: { tag: number; value: number } | undefined
}

/** A RecordFilter resolved against one file: plain data (structured-clonable), built once by compileFilter. */
export interface CompiledFilter {
  barcode: SequenceCriterion | undefined
  umi: SequenceCriterion | undefined
  minAln: number
  /** Inclusive; 0xFFFFFFFF when unbounded (naln is a u32, §5.1). */
  maxAln: number
  /** Read-level mapping type (bulk `frag_map_type`). */
  readMappingType: { tag: number; value: number } | undefined
  alignment: AlignmentCriterion | undefined
}

const BASE_CODES: Record<string, number> = { A: 0, C: 1, G: 2, T: 3 }
const MAX_PACKED_LEN = 32
const NO_MAX = 0xffffffff

/**
 * Nucleotides to their 2-bit packed value (§7.8: A=0 C=1 G=2 T=3, first base
 * most significant), case-insensitive. Throws BAD_VALUE on anything but ACGT.
 */
export function packSequence(text: string, what = 'sequence'): PackedSequence {
  const seq = text.trim().toUpperCase()
  if (seq === '') throw new RadError('BAD_VALUE', `the ${what} is empty: type its bases (A, C, G, T)`)
  const bad = /[^ACGT]/.exec(seq)
  if (bad) {
    throw new RadError(
      'BAD_VALUE',
      `the ${what} "${text.trim()}" has "${bad[0]}" at position ${String(bad.index + 1)}: only A, C, G and T can be packed (§7.8)`,
    )
  }
  let lo = 0
  let hi = 0
  if (seq.length <= MAX_PACKED_LEN) {
    for (const c of seq) {
      // Shift the 64-bit (hi, lo) pair left by one base and append the new base.
      hi = ((hi << 2) | (lo >>> 30)) >>> 0
      lo = ((lo << 2) | (BASE_CODES[c] ?? 0)) >>> 0
    }
  }
  return { lo, hi, len: seq.length, text: seq }
}

/** A packed value back to nucleotides (the inverse of packSequence; decode2bit does the work). */
export function formatSequence(lo: number, hi: number, len: number): string {
  return decode2bit((BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0), len)
}

/** `/…/flags` is a regular expression; anything else a plain substring. */
export function parseRefPattern(pattern: string): RegExp | string {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern)
  if (!m) return pattern
  try {
    return new RegExp(m[1] ?? '', m[2] ?? '')
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e)
    throw new RadError('BAD_VALUE', `the reference pattern ${pattern} is not a valid regular expression: ${why}`)
  }
}

/** The reference ids whose names match `pattern` (substring or `/regex/`), as a bitset, resolved once. */
export function matchReferences(refNames: readonly string[], pattern: string): { refs: Uint8Array; count: number } {
  const parsed = parseRefPattern(pattern)
  const refs = new Uint8Array((refNames.length + 7) >> 3)
  let count = 0
  refNames.forEach((name, i) => {
    const hit = typeof parsed === 'string' ? name.includes(parsed) : parsed.test(name)
    if (hit) {
      refs[i >> 3] = (refs[i >> 3] ?? 0) | (1 << (i & 7))
      count++
    }
  })
  return { refs, count }
}

function sequenceCriterion(
  fields: readonly SequenceField[],
  text: string,
  what: string,
  maxMismatches: 0 | 1,
): SequenceCriterion {
  const seq = packSequence(text, what)
  if (fields.length === 0) throw new RadError('BAD_VALUE', `this file has no ${what} tag to filter on (§7.7)`)
  const same = fields.filter((f) => f.len === seq.len)
  if (same.length === 0) {
    const lengths = fields.map((f) => `${f.name}: ${String(f.len)} nt`).join(', ')
    throw new RadError(
      'BAD_VALUE',
      `the ${what} ${seq.text} has ${String(seq.len)} bases, but this file's ${what}s have another length (${lengths})`,
    )
  }
  return { fields: same, seq, maxMismatches }
}

function countBound(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RadError('BAD_VALUE', `${name} must be a whole number of alignments ≥ 0, not ${String(value)}`)
  }
  return Math.min(value, NO_MAX)
}

function alignmentCriterion(filter: RecordFilter, prelude: Prelude, sem: Semantics): AlignmentCriterion | undefined {
  const wantsType = filter.fragMapType !== undefined && sem.mappingType?.level === 'alignment'
  if (filter.ref === undefined && filter.orientation === undefined && !wantsType) return undefined
  const crit: AlignmentCriterion = {
    refs: undefined,
    refCount: 0,
    refTag: undefined,
    orientation: undefined,
    mappingType: undefined,
  }
  if (filter.ref !== undefined) {
    if (!sem.reference) throw new RadError('BAD_VALUE', 'this file has no reference tag to filter on (§7.7)')
    const { refs, count } = matchReferences(prelude.refNames, filter.ref)
    crit.refs = refs
    crit.refCount = count
    crit.refTag = sem.reference
  }
  if (filter.orientation !== undefined) {
    if (!sem.orientation) throw new RadError('BAD_VALUE', 'this file has no orientation tag to filter on (§7.7)')
    crit.orientation = { tag: sem.orientation.tag, forward: filter.orientation === 'fw' }
  }
  if (wantsType && sem.mappingType) crit.mappingType = { tag: sem.mappingType.tag, value: filter.fragMapType ?? 0 }
  return crit
}

/**
 * Resolves a filter against a file once: sequences packed, reference names
 * turned into a bitset of ids, tags located by semantics (§7.7). Throws
 * BAD_VALUE with a sentence for the user when the file cannot answer it (no
 * UMI tag, a barcode of the wrong length, a bad regex, min > max…).
 */
export function compileFilter(filter: RecordFilter, prelude: Prelude, sem: Semantics): CompiledFilter {
  const minAln = countBound(filter.minAln, 'the minimum number of alignments', 0)
  const maxAln = countBound(filter.maxAln, 'the maximum number of alignments', NO_MAX)
  if (minAln > maxAln) {
    throw new RadError(
      'BAD_VALUE',
      `the minimum number of alignments (${fmtInt(minAln)}) is more than the maximum (${fmtInt(maxAln)})`,
    )
  }
  let readMappingType: CompiledFilter['readMappingType']
  if (filter.fragMapType !== undefined) {
    if (!sem.mappingType) throw new RadError('BAD_VALUE', 'this file has no mapping-type tag (frag_map_type) (§7.4)')
    if (sem.mappingType.level === 'read') readMappingType = { tag: sem.mappingType.tag, value: filter.fragMapType }
  }
  return {
    barcode:
      filter.barcode !== undefined
        ? sequenceCriterion(sem.barcodes, filter.barcode, 'barcode', filter.hamming ?? 0)
        : undefined,
    umi: filter.umi !== undefined ? sequenceCriterion(sem.umi ? [sem.umi] : [], filter.umi, 'UMI', 0) : undefined,
    minAln,
    maxAln,
    readMappingType,
    alignment: alignmentCriterion(filter, prelude, sem),
  }
}

/** True when the filter asks for a barcode and nothing else (the collated fast path, chunkBarcodeFilter). */
export function barcodeOnly(f: CompiledFilter): boolean {
  return (
    f.barcode !== undefined &&
    f.umi === undefined &&
    f.minAln === 0 &&
    f.maxAln === NO_MAX &&
    f.readMappingType === undefined &&
    f.alignment === undefined
  )
}

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

/** The low and high 32-bit words of an unsigned integer column, without BigInt; undefined for other kinds. */
function packedWords(col: Column): { lo: ArrayLike<number>; stride: number } | undefined {
  switch (col.kind) {
    case 'u8':
    case 'u16':
    case 'u32':
      return { lo: col.values, stride: 1 }
    case 'u64':
      // RAD is little-endian (§3), as every browser host is: word 2i is the low half of entry i.
      return { lo: new Uint32Array(col.values.buffer, col.values.byteOffset, col.values.length * 2), stride: 2 }
    default:
      return undefined
  }
}

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
    const { lo, stride } = words
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
