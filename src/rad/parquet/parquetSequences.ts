/**
 * Barcodes and UMIs of a decoded chunk as ACGT for the Parquet export, fast:
 * the 2-bit packed value (docs/format.md §7.8: A=0 C=1 G=2 T=3, first base in
 * the most significant used pair) read as two 32-bit words, without BigInt,
 * and written as ASCII bytes. Gives what display.ts `sequenceText` gives
 * (`view`'s text); values it cannot read as words go through it.
 */
import { sequenceText } from '../text/display'
import type { SequenceField } from '../prelude/semantics'
import type { Column } from '../types'
import { packedWords } from '../decode/packedWords'

const ASCII = Uint8Array.of(65, 67, 71, 84)
const MAX_PACKED = 32

/** Writes the `len` bases of the packed value (lo, hi) to `out` at `at`, first base first. */
export function writeBases(out: Uint8Array, at: number, lo: number, hi: number, len: number): void {
  for (let i = 0; i < len; i++) {
    const pair = len - 1 - i
    const word = pair >= 16 ? hi : lo
    out[at + i] = ASCII[(word >>> (2 * (pair & 15))) & 3] ?? 78
  }
}

/** Reads record sequences of one column as their packed words, as ACGT bytes, or as text. */
export class SequenceReader {
  /** The packed value `load` read: low and high 32-bit words. */
  lo = 0
  hi = 0
  readonly len: number
  private readonly col: Column
  private readonly field: SequenceField
  private readonly packed: ReturnType<typeof packedWords>
  private readonly scratch = new Uint8Array(MAX_PACKED)

  constructor(col: Column, field: SequenceField) {
    this.col = col
    this.field = field
    this.len = field.len
    this.packed = field.len > 0 && field.len <= MAX_PACKED ? packedWords(col) : undefined
  }

  /** Reads record `r`'s packed value into `lo` and `hi`; false when the column is not packed. */
  load(r: number): boolean {
    const p = this.packed
    if (!p) return false
    this.lo = p.words[r * p.stride] ?? 0
    this.hi = p.stride === 2 ? (p.words[r * 2 + 1] ?? 0) : 0
    return true
  }

  /** Record `r`'s sequence as ASCII bytes (a view of `scratch`, valid until the next call), or text when not packed. */
  bytes(r: number): Uint8Array | string {
    if (!this.load(r)) return this.text(r)
    writeBases(this.scratch, 0, this.lo, this.hi, this.len)
    return this.scratch.subarray(0, this.len)
  }

  /** Record `r`'s sequence as text (`view`'s), for a column that is not packed. */
  text(r: number): string {
    return sequenceText(this.col, r, this.field)
  }
}
