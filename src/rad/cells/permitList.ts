/**
 * A barcode permit list (10x's lists of 737K–3M barcodes; docs/cells.md): one
 * barcode per line (further tab-separated columns ignored), read straight from the bytes into packed keys (§7.8), never
 * into strings, and the class of a file's barcode against it.
 */
import { RadError } from '../errors'
import { PackedSet } from './packedSet'

export interface PermitList {
  /** Nucleotides per barcode (every line has the same). */
  length: number
  /** Distinct barcodes listed. */
  listed: number
  set: PackedSet
  /** Lines whose `-N` gem-group suffix was dropped (Cell Ranger's barcodes.tsv: `ACGT…-1`). */
  suffixed: number
}

/** Counts of records by their barcode's class (the JSON's `permit`). */
export type PermitClass = 'exact' | 'corrected' | 'ambiguous' | 'absent'
export const PERMIT_CLASSES: readonly PermitClass[] = ['exact', 'corrected', 'ambiguous', 'absent']

const NEWLINE = 10
const CR = 13
const TAB = 9
/** Base codes by byte (A=0 C=1 G=2 T=3, either case); 255 for anything else. */
const BASE = new Uint8Array(256).fill(255)
for (const [i, c] of ['A', 'C', 'G', 'T'].entries()) {
  BASE[c.charCodeAt(0)] = i
  BASE[c.toLowerCase().charCodeAt(0)] = i
}

function lineCount(bytes: Uint8Array): number {
  let n = 1
  for (let i = bytes.indexOf(NEWLINE); i >= 0; i = bytes.indexOf(NEWLINE, i + 1)) n++
  return n
}

function describeByte(b: number): string {
  return b >= 32 && b < 127 ? `"${String.fromCharCode(b)}"` : `the byte 0x${b.toString(16).padStart(2, '0')}`
}

/**
 * Parses a permit list (already gunzipped). Blank lines are skipped; a line
 * with anything but A, C, G, T, or of another length than the first, is an
 * error naming the line.
 */
export function parsePermitList(bytes: Uint8Array, name = 'the permit list'): PermitList {
  const set = new PackedSet(lineCount(bytes))
  let length = -1
  let line = 1
  let start = 0
  let suffixed = 0
  while (start < bytes.length) {
    let end = bytes.indexOf(NEWLINE, start)
    if (end < 0) end = bytes.length
    let stop = end
    if (stop > start && bytes[stop - 1] === CR) stop--
    // Columns after the barcode (a count, a weight) are ignored, as in the t2g.
    // The tab is looked for within this line only: a search to the buffer's end
    // from every line made a list without a second column quadratic.
    stop = firstTabBefore(bytes, start, stop)
    const barcodeEnd = withoutGemGroup(bytes, start, stop)
    if (barcodeEnd < stop) suffixed++
    if (stop > start) length = addLine(bytes, start, barcodeEnd, set, length, name, line)
    start = end + 1
    line++
  }
  if (length < 0) throw new RadError('BAD_VALUE', `${name} has no barcodes`)
  return { length, listed: set.size, set, suffixed }
}

const DASH = 45
const isDigit = (b: number): boolean => b >= 48 && b <= 57

/** Where a line's barcode ends: before a Cell Ranger gem-group suffix (`-1`, `-12`), else `stop`. */
function withoutGemGroup(bytes: Uint8Array, start: number, stop: number): number {
  let i = stop
  while (i > start && isDigit(bytes[i - 1]!)) i--
  return i < stop && i - 1 > start && bytes[i - 1] === DASH ? i - 1 : stop
}

/** The first tab in bytes[start, stop), or stop when there is none. */
function firstTabBefore(bytes: Uint8Array, start: number, stop: number): number {
  for (let i = start; i < stop; i++) if (bytes[i] === TAB) return i
  return stop
}

/** The first byte in bytes[start, stop) that is not A, C, G or T, or −1. */
function firstNonBase(bytes: Uint8Array, start: number, stop: number): number {
  for (let i = start; i < stop; i++) if (BASE[bytes[i]!] === 255) return i
  return -1
}

function addLine(
  bytes: Uint8Array,
  start: number,
  stop: number,
  set: PackedSet,
  length: number,
  name: string,
  line: number,
): number {
  const n = stop - start
  const bad = firstNonBase(bytes, start, stop)
  if (bad >= 0) {
    throw new RadError(
      'BAD_VALUE',
      `${name} line ${String(line)}: ${describeByte(bytes[bad]!)} at column ${String(bad - start + 1)}; a permit list has one barcode (A, C, G, T) per line`,
    )
  }
  if (n > 32) {
    throw new RadError(
      'BAD_VALUE',
      `${name} line ${String(line)}: ${String(n)} characters, not a barcode of ≤ 32 bases`,
    )
  }
  if (length >= 0 && n !== length) {
    throw new RadError(
      'BAD_VALUE',
      `${name} line ${String(line)}: a barcode of ${String(n)} bases where the list's first has ${String(length)}: mixed barcode lengths`,
    )
  }
  let lo = 0
  let hi = 0
  for (let i = start; i < stop; i++) {
    const b = BASE[bytes[i]!]!
    hi = ((hi << 2) | (lo >>> 30)) >>> 0
    lo = ((lo << 2) | b) >>> 0
  }
  set.add(lo, hi)
  return n
}

/**
 * The class of a packed barcode of the list's length: listed, or else how many
 * listed barcodes are one substitution away (Hamming distance 1).
 */
export function classifyBarcode(list: PermitList, lo: number, hi: number): PermitClass {
  if (list.set.has(lo, hi)) return 'exact'
  let near = 0
  for (let i = 0; i < list.length; i++) {
    // Base i sits at bits 2(k−1−i), 2(k−1−i)+1 (§7.8).
    const bit = 2 * (list.length - 1 - i)
    const inHi = bit >= 32
    const shift = inHi ? bit - 32 : bit
    const word = inHi ? hi : lo
    const own = (word >>> shift) & 3
    for (let b = 0; b < 4; b++) {
      if (b === own) continue
      const changed = ((word & ~(3 << shift)) | (b << shift)) >>> 0
      if (inHi ? list.set.has(lo, changed) : list.set.has(changed, hi)) near++
      if (near > 1) return 'ambiguous'
    }
  }
  return near === 1 ? 'corrected' : 'absent'
}
