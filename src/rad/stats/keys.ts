/** A record's barcode and UMI columns as u32 words, without a BigInt per value (accumulator.ts, cellQc.ts). */
import { fixedWidth, isIntegerType } from '../prelude/tags'
import type { Column, TagDesc } from '../types'

/** A column's integers as u32 words: `wide` columns hold two per entry (low first, little-endian). */
export interface Words {
  data: ArrayLike<number>
  wide: boolean
}

/** Integer columns as u32 words, without a BigInt per value. */
export function wordsOf(col: Column | undefined): Words | undefined {
  if (!col) return undefined
  switch (col.kind) {
    case 'u8':
    case 'bool':
    case 'u16':
    case 'u32':
    case 'i8':
    case 'i16':
    case 'i32':
      return { data: col.values, wide: false }
    case 'u64':
    case 'i64':
      return { data: new Uint32Array(col.values.buffer, col.values.byteOffset, col.values.length * 2), wide: true }
    default:
      return undefined
  }
}

/**
 * Writes an integer column's values as (low, high) u32 words into
 * dst[r·stride + at], dst[r·stride + at + 1] for r < n (narrow integers
 * wrap to u32 as a Uint32Array store does; high word 0). False for other kinds.
 */
export function copyWords(col: Column | undefined, dst: Uint32Array, stride: number, at: number, n: number): boolean {
  if (!col) return false
  switch (col.kind) {
    case 'u32': {
      const v = col.values
      for (let r = 0, o = at; r < n; r++, o += stride) {
        dst[o] = v[r]!
        dst[o + 1] = 0
      }
      return true
    }
    case 'u64':
    case 'i64': {
      const v = new Uint32Array(col.values.buffer, col.values.byteOffset, 2 * n)
      for (let r = 0, o = at; r < n; r++, o += stride) {
        dst[o] = v[2 * r]!
        dst[o + 1] = v[2 * r + 1]!
      }
      return true
    }
    case 'u8':
    case 'bool':
    case 'u16':
    case 'i8':
    case 'i16':
    case 'i32': {
      const v: ArrayLike<number> = col.values
      for (let r = 0, o = at; r < n; r++, o += stride) {
        dst[o] = v[r]!
        dst[o + 1] = 0
      }
      return true
    }
    default:
      return false
  }
}

/**
 * Record r's barcode key, as the barcode table holds it: two words (low, high)
 * per barcode level, into out[0, 2·levels). False when a level's column is missing.
 */
export function barcodeKey(bc: readonly (Words | undefined)[], r: number, out: Uint32Array): boolean {
  for (let l = 0; l < bc.length; l++) {
    const w = bc[l]
    if (!w) return false
    out[2 * l] = w.wide ? w.data[2 * r]! : w.data[r]!
    out[2 * l + 1] = w.wide ? w.data[2 * r + 1]! : 0
  }
  return true
}

/** An integer of ≤ 8 bytes: what the counters can key on. */
export function countable(tag: TagDesc | undefined): boolean {
  return tag !== undefined && isIntegerType(tag.type.id) && fixedWidth(tag.type) <= 8
}
