/**
 * Sorts keys of two words (hi, then lo) by least-significant-digit radix sort, 12 bits a pass
 * (docs/adr/0009, eighth round): one read of the keys counts every digit's histogram, then each
 * pass moves the keys once (two reads and two writes a key), where a comparison sort of the keys
 * as doubles cost ~70 ns a key. A digit that every key shares is skipped (a 12-nt UMI takes two
 * passes, the barcode's 24 low bits two).
 */

const DIGIT_BITS = 12
const DIGITS = 1 << DIGIT_BITS
const DIGIT_MASK = DIGITS - 1
/** lo's digits at 0, 12 and 24 bits, then hi's at 0 and 12 (hi < 2^24: LOW_BITS, partitionLists.ts). */
const PASSES = [
  { onHi: false, shift: 0 },
  { onHi: false, shift: 12 },
  { onHi: false, shift: 24 },
  { onHi: true, shift: 0 },
  { onHi: true, shift: 12 },
  { onHi: true, shift: 24 },
] as const

const counts = new Uint32Array(PASSES.length * DIGITS)
let spareHi = new Uint32Array(1 << 14)
let spareLo = new Uint32Array(1 << 14)

/** The first n keys of (hi, lo) sorted: in those arrays or in scratch ones, valid until the next call. */
export function sortKeys(hi: Uint32Array, lo: Uint32Array, n: number): { hi: Uint32Array; lo: Uint32Array } {
  if (spareHi.length < n) {
    spareHi = new Uint32Array(Math.max(n, 2 * spareHi.length))
    spareLo = new Uint32Array(spareHi.length)
  }
  countDigits(hi, lo, n)
  let from: { hi: Uint32Array; lo: Uint32Array } = { hi, lo }
  let to: { hi: Uint32Array; lo: Uint32Array } = { hi: spareHi, lo: spareLo }
  PASSES.forEach(({ onHi, shift }, p) => {
    const base = p * DIGITS
    if (n === 0 || counts[base + (((onHi ? hi[0]! : lo[0]!) >>> shift) & DIGIT_MASK)] === n) return
    pass(from, to, n, onHi, shift, base)
    ;[from, to] = [to, from]
  })
  return from
}

/** Every pass's histogram, in one read of the keys. */
function countDigits(hi: Uint32Array, lo: Uint32Array, n: number): void {
  counts.fill(0)
  for (let i = 0; i < n; i++) {
    const l = lo[i]!
    const h = hi[i]!
    counts[l & DIGIT_MASK]!++
    counts[DIGITS + ((l >>> 12) & DIGIT_MASK)]!++
    counts[2 * DIGITS + (l >>> 24)]!++
    counts[3 * DIGITS + (h & DIGIT_MASK)]!++
    counts[4 * DIGITS + ((h >>> 12) & DIGIT_MASK)]!++
    counts[5 * DIGITS + (h >>> 24)]!++
  }
}

/** One stable pass on the digit at `shift` of hi (onHi) or lo, its histogram at counts[base…]. */
function pass(
  src: { hi: Uint32Array; lo: Uint32Array },
  dst: { hi: Uint32Array; lo: Uint32Array },
  n: number,
  onHi: boolean,
  shift: number,
  base: number,
): void {
  const key = onHi ? src.hi : src.lo
  let sum = 0
  for (let d = base; d < base + DIGITS; d++) {
    const c = counts[d]!
    counts[d] = sum
    sum += c
  }
  const { hi: srcHi, lo: srcLo } = src
  const { hi: dstHi, lo: dstLo } = dst
  for (let i = 0; i < n; i++) {
    const at = counts[base + ((key[i]! >>> shift) & DIGIT_MASK)]!++
    dstHi[at] = srcHi[i]!
    dstLo[at] = srcLo[i]!
  }
}
