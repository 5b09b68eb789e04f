/**
 * A set of 2-bit packed sequences (docs/format.md §7.8), each as a (lo, hi)
 * pair of u32 words, in one open-addressing array: 8 bytes a slot, load ≤ 3/4.
 * A 10x permit list of 3M barcodes takes 32 MB here; the statistics'
 * CountTable (keys, counts and hashed slots) would take ~130 MB for the same
 * keys, and a permit list needs neither counts nor insertion order.
 */
import { hash2 } from '../stats/countTable'

const SEED = 0x5eed_cafe

/** Slots: a power of two with the keys at ≤ 3/4 load. */
function slotCount(keys: number): number {
  let n = 16
  while (n * 3 < keys * 4) n *= 2
  return n
}

export class PackedSet {
  size = 0
  /** (lo, hi) per slot; `used` says which slots hold a key (a key may be all zeros: poly-A). */
  private readonly words: Uint32Array
  private readonly used: Uint8Array
  private readonly mask: number

  constructor(expectedKeys: number) {
    const slots = slotCount(Math.max(1, expectedKeys))
    this.words = new Uint32Array(2 * slots)
    this.used = new Uint8Array(slots)
    this.mask = slots - 1
  }

  /** Bytes held (for the budget in docs/cells.md). */
  get bytes(): number {
    return this.words.byteLength + this.used.byteLength
  }

  /** Adds the key; false when it was already there. The caller sizes the set (no growth). */
  add(lo: number, hi: number): boolean {
    let s = hash2(lo, hi, SEED) & this.mask
    while (this.used[s] === 1) {
      if (this.words[2 * s] === lo && this.words[2 * s + 1] === hi) return false
      s = (s + 1) & this.mask
    }
    if (this.size >= (this.used.length * 3) >> 2) throw new Error('internal: a PackedSet past its sized load')
    this.used[s] = 1
    this.words[2 * s] = lo
    this.words[2 * s + 1] = hi
    this.size++
    return true
  }

  has(lo: number, hi: number): boolean {
    let s = hash2(lo, hi, SEED) & this.mask
    while (this.used[s] === 1) {
      if (this.words[2 * s] === lo && this.words[2 * s + 1] === hi) return true
      s = (s + 1) & this.mask
    }
    return false
  }
}
