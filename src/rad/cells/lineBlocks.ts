/**
 * An annotation file read as it comes (issue 36 §3): its pieces (already gunzipped, in the CLI from
 * node:zlib, in the page from DecompressionStream) are cut into runs of whole lines, a line split
 * across two pieces carried over, so a parser never holds the file, only what it keeps of it. The
 * bounds every annotation file shares are here (docs/cells.md, "Bounds").
 */
import { RadError, fmtInt } from '../errors'

/** An annotation file as its pieces come: its name and its bytes (already gunzipped) in pieces of any size. */
export interface AnnotationStream {
  name: string
  pieces: AsyncIterable<Uint8Array>
}

/** The longest line of an annotation file: a t2g's lines are under 200 bytes; 2 GB of zeros is one endless line. */
export const MAX_LINE_BYTES = 64 << 10

/**
 * The most an annotation file may hold, unpacked: 2 GiB, eight times the largest real one (a 230 MB
 * t2g; a 6.8M-barcode permit list is 116 MB). Read as a stream, it costs time, never its size in
 * memory (docs/cells.md, "Bounds", gives the times).
 */
export const MAX_ANNOTATION_BYTES = 2 ** 31

/**
 * The most lines an annotation file may have, blank and repeated ones included: 50M, seven times a
 * 6.8M-barcode list, fifteen times a t2g of 3.2M rows. Time goes by lines as much as by bytes (2 GiB
 * of newlines is 2G lines): this bounds it.
 */
export const MAX_ANNOTATION_LINES = 50_000_000

const NEWLINE = 10

/**
 * Visits the whole lines bytes[start, end) (each ending in a newline, but the file's last) whose
 * first is line `firstLine`; returns how many lines they are (the newlines in them, or 1 for a last
 * line without one).
 */
export type LineBlockVisitor = (bytes: Uint8Array, start: number, end: number, firstLine: number) => number

/** The refusal of a line past MAX_LINE_BYTES. */
export function lineTooLong(name: string, line: number): RadError {
  return new RadError(
    'BAD_VALUE',
    `${name} line ${fmtInt(line)}: longer than ${String(MAX_LINE_BYTES >> 10)} KiB, not a line of an annotation file (binary data?)`,
  )
}

/** Cuts pieces into runs of whole lines for `visit`; a line split across pieces is carried over (≤ MAX_LINE_BYTES). */
export class LineBlocks {
  private carry = new Uint8Array(256)
  private carried = 0
  private bytes = 0
  /** The number of the next line. */
  private line = 1
  private readonly name: string
  private readonly visit: LineBlockVisitor
  private readonly maxLines: number

  /** `maxLines`: MAX_ANNOTATION_LINES but in tests. */
  constructor(name: string, visit: LineBlockVisitor, maxLines = MAX_ANNOTATION_LINES) {
    this.name = name
    this.visit = visit
    this.maxLines = maxLines
  }

  push(piece: Uint8Array): void {
    this.bytes += piece.length
    if (this.bytes > MAX_ANNOTATION_BYTES) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name}: more than ${String(MAX_ANNOTATION_BYTES / 2 ** 30)} GiB of text (unpacked), more than any annotation file, so it is refused (a gzip bomb?)`,
      )
    }
    let from = 0
    if (this.carried > 0) {
      const nl = piece.indexOf(NEWLINE)
      if (nl < 0) {
        this.keep(piece, 0, piece.length)
        return
      }
      this.keep(piece, 0, nl + 1)
      this.emit(this.carry, 0, this.carried)
      this.carried = 0
      from = nl + 1
    }
    const last = piece.lastIndexOf(NEWLINE)
    if (last >= from) {
      this.emit(piece, from, last + 1)
      from = last + 1
    }
    if (from < piece.length) this.keep(piece, from, piece.length)
  }

  /** The file's last line, when it has no newline. */
  end(): void {
    if (this.carried === 0) return
    this.emit(this.carry, 0, this.carried)
    this.carried = 0
  }

  private emit(bytes: Uint8Array, start: number, end: number): void {
    this.line += this.visit(bytes, start, end, this.line)
    if (this.line - 1 > this.maxLines) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name}: more than ${fmtInt(this.maxLines)} lines, more than any annotation file, so it is refused (a gzip bomb?)`,
      )
    }
  }

  private keep(piece: Uint8Array, start: number, end: number): void {
    const n = this.carried + end - start
    if (n > MAX_LINE_BYTES + 1) throw lineTooLong(this.name, this.line)
    if (n > this.carry.length) {
      const grown = new Uint8Array(Math.min(Math.max(2 * this.carry.length, n), MAX_LINE_BYTES + 1))
      grown.set(this.carry.subarray(0, this.carried))
      this.carry = grown
    }
    this.carry.set(piece.subarray(start, end), this.carried)
    this.carried = n
  }
}

/** Feeds every piece of the file to `visit` as runs of whole lines; stops reading at the first error. */
export async function readLines(file: AnnotationStream, visit: LineBlockVisitor): Promise<void> {
  const lines = new LineBlocks(file.name, visit)
  for await (const piece of file.pieces) lines.push(piece)
  lines.end()
}

/** Bytes given whole, as one piece. */
export function linesOfBytes(bytes: Uint8Array, name: string, visit: LineBlockVisitor): void {
  const lines = new LineBlocks(name, visit)
  lines.push(bytes)
  lines.end()
}
