/**
 * A chunk's barcode (and UMI) columns as rows, for the capped tables and the partitions
 * (barcodeUmiCounts.ts): one row of `stride` words per record, the levels' words (low, high), then
 * the UMI's. A row's first keyWords words are its barcode key, all of them its pair key.
 */
import type { ChunkColumns } from '../types'
import { copyWords } from './keys'
import type { BarcodeUmiShape } from './statsTypes'

export class ChunkRows {
  /** The current chunk's rows (fill), or rows a caller put here. */
  words = new Uint32Array(0)
  /** Whether `words` holds the current chunk's UMIs. */
  hasUmi = false
  /** Words per row: the barcode key, then two UMI words. */
  readonly stride: number
  private readonly keyWords: number
  private readonly shape: BarcodeUmiShape
  private hashes = new Uint32Array(0)

  constructor(shape: BarcodeUmiShape, keyWords: number) {
    this.shape = shape
    this.keyWords = keyWords
    this.stride = keyWords + 2
  }

  /** Copies the chunk's columns into rows; false when its barcode columns cannot be read as words. */
  fill(cols: ChunkColumns): boolean {
    const n = cols.recordCount
    const stride = this.stride
    if (this.words.length < n * stride) {
      this.words = new Uint32Array(Math.max(n, 2 * (this.words.length / stride)) * stride)
    }
    const tags = this.shape.barcodeTags
    for (let l = 0; l < tags.length; l++) {
      if (!copyWords(cols.readColumns[tags[l]!], this.words, stride, 2 * l, n)) return false
    }
    const umi = this.shape.umiTag
    this.hasUmi = umi !== undefined && copyWords(cols.readColumns[umi], this.words, stride, this.keyWords, n)
    return true
  }

  /** Whether the first `n` rows have more than one barcode (collated files have one a chunk). */
  mixed(n: number): boolean {
    const rows = this.words
    const stride = this.stride
    const W = this.keyWords
    for (let r = 1, at = stride; r < n; r++, at += stride) {
      for (let i = 0; i < W; i++) if (rows[at + i] !== rows[i]) return true
    }
    return false
  }

  /** Room for `n` rows' hashes (reused, not zeroed). */
  hashRoom(n: number): Uint32Array {
    if (this.hashes.length < n) this.hashes = new Uint32Array(Math.max(n, 2 * this.hashes.length))
    return this.hashes
  }
}
