/**
 * A record filter compiled for one file (README "Command line", filters): what a user asks for
 * (RecordFilter, plain text and numbers) checked and turned, against the file's prelude and
 * semantics, into plain data that crosses a worker boundary (CompiledFilter): barcodes and UMIs
 * as 2-bit packed words (docs/format.md §7.8), references as a bitset of reference ids (§5.3,
 * §7.4, §7.5). recordFilter.ts matches it over a chunk's columns.
 */
import { decode2bit } from '../text/display'
import { RadError, fmtInt } from '../errors'
import type { OrientationEncoding, Semantics, SequenceField } from '../prelude/semantics'
import type { Prelude } from '../types'

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
export const MAX_PACKED_LEN = 32
export const NO_MAX = 0xffffffff

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

/** True when the filter asks for a barcode and nothing else: the collated fast path (filterBatch.ts answers a chunk from its first record). */
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
