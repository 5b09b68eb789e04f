/**
 * Sorts keys of two words (hi, then lo), stored interleaved (keys[2i] = hi, keys[2i + 1] = lo), by
 * least-significant-digit radix sort, 12 bits a pass (docs/adr/0009, eighth and ninth rounds): one
 * read of the keys counts every digit's histogram, then each pass moves the keys once, a key's two
 * words side by side (one cache line, half the write streams of two arrays), where a comparison
 * sort of the keys as doubles cost ~70 ns a key. A digit that every key shares is skipped (a 12-nt
 * UMI takes two passes, the barcode's 24 low bits two).
 */

const DIGIT_BITS = 12
const DIGITS = 1 << DIGIT_BITS
const DIGIT_MASK = DIGITS - 1
/** lo's digits at 0, 12 and 24 bits, then hi's (word 0 of a key; lo is word 1). */
const PASSES = [
  { word: 1, shift: 0 },
  { word: 1, shift: 12 },
  { word: 1, shift: 24 },
  { word: 0, shift: 0 },
  { word: 0, shift: 12 },
  { word: 0, shift: 24 },
] as const

const counts = new Uint32Array(PASSES.length * DIGITS)
let spare = new Uint32Array(1 << 15)

/** The first n keys of `keys` sorted: in `keys` or in a scratch array, valid until the next call. */
export function sortKeys(keys: Uint32Array, n: number): Uint32Array {
  if (spare.length < 2 * n) spare = new Uint32Array(Math.max(2 * n, 2 * spare.length))
  countDigits(keys, n)
  let from: Uint32Array = keys
  let to: Uint32Array = spare
  PASSES.forEach(({ word, shift }, p) => {
    const base = p * DIGITS
    if (n === 0 || counts[base + ((keys[word]! >>> shift) & DIGIT_MASK)] === n) return
    pass(from, to, n, word, shift, base)
    ;[from, to] = [to, from]
  })
  return from
}

/** Every pass's histogram, in one read of the keys. */
function countDigits(keys: Uint32Array, n: number): void {
  counts.fill(0)
  for (let i = 0; i < 2 * n; i += 2) {
    const h = keys[i]!
    const l = keys[i + 1]!
    counts[l & DIGIT_MASK]!++
    counts[DIGITS + ((l >>> 12) & DIGIT_MASK)]!++
    counts[2 * DIGITS + (l >>> 24)]!++
    counts[3 * DIGITS + (h & DIGIT_MASK)]!++
    counts[4 * DIGITS + ((h >>> 12) & DIGIT_MASK)]!++
    counts[5 * DIGITS + (h >>> 24)]!++
  }
}

/** One stable pass on the digit at `shift` of each key's word `word`, its histogram at counts[base…]. */
function pass(src: Uint32Array, dst: Uint32Array, n: number, word: number, shift: number, base: number): void {
  let sum = 0
  for (let d = base; d < base + DIGITS; d++) {
    const c = counts[d]!
    counts[d] = sum
    sum += 2 * c
  }
  for (let i = 0; i < 2 * n; i += 2) {
    const d = base + ((src[i + word]! >>> shift) & DIGIT_MASK)
    const at = counts[d]!
    counts[d] = at + 2
    dst[at] = src[i]!
    dst[at + 1] = src[i + 1]!
  }
}
