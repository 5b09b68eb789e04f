/**
 * Sorts keys of two words (hi, then lo) by least-significant-digit radix sort, 12 bits a pass
 * (docs/adr/0009, eighth round): a pass costs two reads and two writes a key, where a comparison
 * sort of the keys as doubles cost ~70 ns a key. Digits above every key's highest bit are
 * skipped (a 12-nt UMI takes two passes, the barcode's 24 low bits two).
 */

const DIGIT_BITS = 12
const DIGITS = 1 << DIGIT_BITS
const DIGIT_MASK = DIGITS - 1

const counts = new Uint32Array(DIGITS)
let spareHi = new Uint32Array(1 << 14)
let spareLo = new Uint32Array(1 << 14)

/** The first n keys of (hi, lo) sorted: in those arrays or in scratch ones, valid until the next call. */
export function sortKeys(hi: Uint32Array, lo: Uint32Array, n: number): { hi: Uint32Array; lo: Uint32Array } {
  if (spareHi.length < n) {
    spareHi = new Uint32Array(Math.max(n, 2 * spareHi.length))
    spareLo = new Uint32Array(spareHi.length)
  }
  let orHi = 0
  let orLo = 0
  for (let i = 0; i < n; i++) {
    orHi |= hi[i]!
    orLo |= lo[i]!
  }
  let from: { hi: Uint32Array; lo: Uint32Array } = { hi, lo }
  let to: { hi: Uint32Array; lo: Uint32Array } = { hi: spareHi, lo: spareLo }
  for (const [onHi, or] of [
    [false, orLo],
    [true, orHi],
  ] as const) {
    for (let shift = 0; shift < 32 && or >>> shift !== 0; shift += DIGIT_BITS) {
      pass(from.hi, from.lo, to.hi, to.lo, n, onHi, shift)
      ;[from, to] = [to, from]
    }
  }
  return from
}

/** One counting pass on the digit at `shift` of hi (onHi) or lo, stable. */
function pass(
  srcHi: Uint32Array,
  srcLo: Uint32Array,
  dstHi: Uint32Array,
  dstLo: Uint32Array,
  n: number,
  onHi: boolean,
  shift: number,
): void {
  const key = onHi ? srcHi : srcLo
  counts.fill(0)
  for (let i = 0; i < n; i++) counts[(key[i]! >>> shift) & DIGIT_MASK]!++
  let sum = 0
  for (let d = 0; d < DIGITS; d++) {
    const c = counts[d]!
    counts[d] = sum
    sum += c
  }
  for (let i = 0; i < n; i++) {
    const at = counts[(key[i]! >>> shift) & DIGIT_MASK]!++
    dstHi[at] = srcHi[i]!
    dstLo[at] = srcLo[i]!
  }
}
