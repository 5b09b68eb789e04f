/**
 * Barcodes and UMIs of a decoded chunk as ACGT for the Parquet export, fast:
 * the 2-bit packed value (docs/format.md §7.8: A=0 C=1 G=2 T=3, first base in
 * the most significant used pair) read as two 32-bit words, without BigInt,
 * and written as ASCII bytes. Gives what display.ts `sequenceText` gives
 * (`view`'s text); values it cannot read as words go through it.
 */
import { sequenceText } from './display'
import type { SequenceField } from './semantics'
import type { Column } from './types'
import { packedWords } from './packedWords'

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

/** Reads record sequences of one column as ACGT bytes or text. */
export class SequenceReader {
  private readonly col: Column
  private readonly field: SequenceField
  private readonly packed: ReturnType<typeof packedWords>
  private readonly scratch = new Uint8Array(MAX_PACKED)

  constructor(col: Column, field: SequenceField) {
    this.col = col
    this.field = field
    this.packed = field.len > 0 && field.len <= MAX_PACKED ? packedWords(col) : undefined
  }

  /** Record `r`'s sequence as ASCII bytes (a view of `scratch`, valid until the next call), or text when not packed. */
  bytes(r: number): Uint8Array | string {
    const p = this.packed
    if (!p) return sequenceText(this.col, r, this.field)
    const lo = p.words[r * p.stride] ?? 0
    const hi = p.stride === 2 ? (p.words[r * 2 + 1] ?? 0) : 0
    const len = this.field.len
    writeBases(this.scratch, 0, lo, hi, len)
    return this.scratch.subarray(0, len)
  }

  /** Record `r`'s sequence as text (`view`'s). */
  text(r: number): string {
    const bytes = this.bytes(r)
    return typeof bytes === 'string' ? bytes : String.fromCharCode(...bytes)
  }

  /** A key for caching record `r`'s text: its packed value, or undefined when there is none. */
  key(r: number): number | undefined {
    const p = this.packed
    if (!p) return undefined
    const lo = p.words[r * p.stride] ?? 0
    // Both halves in one Number key when the high word is small enough to keep it exact (< 2^21).
    const hi = p.stride === 2 ? (p.words[r * 2 + 1] ?? 0) : 0
    return hi < 1 << 21 ? hi * 2 ** 32 + lo : undefined
  }
}
