/**
 * A barcode permit list (10x's lists of 737K–3M barcodes; docs/cells.md): one
 * barcode per line (further tab-separated columns ignored), read straight from the bytes into packed keys (§7.8), never
 * into strings, and the class of a file's barcode against it.
 */
import { RadError, fmtInt } from '../errors'
import { PackedSet } from './packedSet'
import { MAX_LINE_BYTES, lineTooLong, linesOfBytes, readLines } from './lineBlocks'
import type { AnnotationStream } from './lineBlocks'

export interface PermitList {
  /** Nucleotides per barcode (every line has the same). */
  length: number
  /** Distinct barcodes listed. */
  listed: number
  set: PackedSet
  /** Distinct barcodes whose `-N` gem-group suffix was dropped (Cell Ranger's barcodes.tsv: `ACGT…-1`). */
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

function describeByte(b: number): string {
  return b >= 32 && b < 127 ? `"${String.fromCharCode(b)}"` : `the byte 0x${b.toString(16).padStart(2, '0')}`
}

/**
 * The most distinct barcodes a permit list may have: 24M, over three times the largest 10x list
 * (6.8M); their set then takes at most 288 MB (PackedSet: 2^25 slots of 9 bytes).
 */
export const MAX_PERMIT_BARCODES = 24_000_000

/**
 * A permit list read as its lines come (lineBlocks.ts), into packed keys: a barcode listed again
 * (a list of one barcode 60M times) is held and counted once. Blank lines are skipped; a line with
 * anything but A, C, G, T, or of another length than the first, is an error naming the line.
 */
export class PermitListReader {
  private readonly set = new PackedSet()
  private length = -1
  private suffixed = 0
  private readonly name: string
  private readonly barcodeLength: number
  private readonly maxBarcodes: number

  /**
   * `barcodeLength`: the RAD file's (0: any), checked at the first barcode, so a list of the wrong
   * chemistry is refused at its first line, not its last; `maxBarcodes`: MAX_PERMIT_BARCODES but in tests.
   */
  constructor(name = 'the permit list', { barcodeLength = 0, maxBarcodes = MAX_PERMIT_BARCODES } = {}) {
    this.name = name
    this.barcodeLength = barcodeLength
    this.maxBarcodes = maxBarcodes
  }

  /** A run of whole lines (a LineBlockVisitor); returns how many. */
  readonly block = (bytes: Uint8Array, from: number, to: number, firstLine: number): number => {
    let line = firstLine
    for (let start = from; start < to; line++) {
      // The common line is read in one pass: bases, then Cell Ranger's gem-group suffix (`-1`),
      // then a CR, or a tab and columns (ignored), each if there. Any other goes the long way.
      let lo = 0
      let hi = 0
      let i = start
      for (; i < to; i++) {
        const b = BASE[bytes[i]!]!
        if (b === 255) break
        hi = ((hi << 2) | (lo >>> 30)) >>> 0
        lo = ((lo << 2) | b) >>> 0
      }
      let j = i
      if (i > start && j + 1 < to && bytes[j] === DASH && isDigit(bytes[j + 1]!)) {
        j += 2
        while (j < to && isDigit(bytes[j]!)) j++
      }
      const suffixed = j > i
      if (j < to && bytes[j] === TAB) {
        // The newline is looked for from the tab: from every line to the buffer's end was quadratic.
        j = bytes.indexOf(NEWLINE, j)
        if (j < 0 || j > to) j = to
      } else if (j < to && bytes[j] === CR) j++
      if ((j === to || bytes[j] === NEWLINE) && i - start <= 32) {
        if (j - start > MAX_LINE_BYTES) throw lineTooLong(this.name, line)
        // A blank line (or one of columns without a barcode) is skipped.
        if (i > start && this.addKey(lo, hi, i - start, line) && suffixed) this.suffixed++
        start = j + 1
        continue
      }
      let end = bytes.indexOf(NEWLINE, start)
      if (end < 0 || end > to) end = to
      if (end - start > MAX_LINE_BYTES) throw lineTooLong(this.name, line)
      let stop = end
      if (stop > start && bytes[stop - 1] === CR) stop--
      // Columns after the barcode (a count, a weight) are ignored, as in the t2g.
      // The tab is looked for within this line only: a search to the buffer's end
      // from every line made a list without a second column quadratic.
      stop = firstTabBefore(bytes, start, stop)
      const barcodeEnd = withoutGemGroup(bytes, start, stop)
      if (stop > start && this.add(bytes, start, barcodeEnd, line) && barcodeEnd < stop) this.suffixed++
      start = end + 1
    }
    return line - firstLine
  }

  finish(): PermitList {
    if (this.length < 0) throw new RadError('BAD_VALUE', `${this.name} has no barcodes`)
    return { length: this.length, listed: this.set.size, set: this.set, suffixed: this.suffixed }
  }

  /** Adds the barcode bytes[start, stop); true when it was not listed before. */
  private add(bytes: Uint8Array, start: number, stop: number, line: number): boolean {
    const n = stop - start
    const bad = firstNonBase(bytes, start, stop)
    if (bad >= 0) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name} line ${String(line)}: ${describeByte(bytes[bad]!)} at column ${String(bad - start + 1)}; a permit list has one barcode (A, C, G, T) per line`,
      )
    }
    if (n > 32) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name} line ${String(line)}: ${String(n)} characters, not a barcode of ≤ 32 bases`,
      )
    }
    let lo = 0
    let hi = 0
    for (let i = start; i < stop; i++) {
      const b = BASE[bytes[i]!]!
      hi = ((hi << 2) | (lo >>> 30)) >>> 0
      lo = ((lo << 2) | b) >>> 0
    }
    return this.addKey(lo, hi, n, line)
  }

  /** Adds a packed barcode of n bases; true when it was not listed before. */
  private addKey(lo: number, hi: number, n: number, line: number): boolean {
    if (this.length < 0 && this.barcodeLength > 0 && n !== this.barcodeLength) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name}: its barcodes have ${String(n)} bases, this file's ${String(this.barcodeLength)}`,
      )
    }
    if (this.length >= 0 && n !== this.length) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name} line ${String(line)}: a barcode of ${String(n)} bases where the list's first has ${String(this.length)}: mixed barcode lengths`,
      )
    }
    this.length = n
    if (!this.set.add(lo, hi)) return false
    if (this.set.size > this.maxBarcodes) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name} line ${fmtInt(line)}: more than ${fmtInt(this.maxBarcodes)} distinct barcodes, more than any permit list (10x's largest has 6.8M), so it is refused`,
      )
    }
    return true
  }
}

/** Parses a permit list given whole (already gunzipped): PermitListReader over its bytes. */
export function parsePermitList(bytes: Uint8Array, name = 'the permit list'): PermitList {
  const reader = new PermitListReader(name)
  linesOfBytes(bytes, name, reader.block)
  return reader.finish()
}

/**
 * Reads a permit list as its pieces come (docs/cells.md): memory is its distinct barcodes', not its
 * size. `barcodeLength`: the RAD file's (0: any).
 */
export async function readPermitList(file: AnnotationStream, barcodeLength = 0): Promise<PermitList> {
  const reader = new PermitListReader(file.name, { barcodeLength })
  await readLines(file, reader.block)
  return reader.finish()
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
