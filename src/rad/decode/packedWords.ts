import type { Column } from '../types'

/** The 32-bit words of a packed column, or undefined when its values are not packed integers of ≤ 64 bits. */
export function packedWords(col: Column): { words: Uint32Array | Uint16Array | Uint8Array; stride: 1 | 2 } | undefined {
  switch (col.kind) {
    case 'u8':
    case 'u16':
    case 'u32':
      return { words: col.values, stride: 1 }
    case 'u64':
      // Little-endian (§3), as every host this runs on: word 2i is the low half of entry i.
      return { words: new Uint32Array(col.values.buffer, col.values.byteOffset, col.values.length * 2), stride: 2 }
    default:
      return undefined
  }
}
