/**
 * LSD radix sort of 64-bit keys on 12-bit digits (pairCounting.ts; bench/results.md, ADR 0009's
 * tenth round): one read of the keys counts every digit's histogram, then each pass moves every
 * key once; a digit every key shares is skipped (a key of 24 + 31 bits with a 12-nt UMI takes
 * four passes).
 */

const DIGITS: i32 = 1 << 12
const DIGIT_MASK: u64 = (1 << 12) - 1
const RADIX_PASSES: i32 = 5

const digitCounts = heap.alloc((<usize>(RADIX_PASSES * DIGITS)) << 2)
let sortScratch: usize = 0
let sortScratchKeys: u32 = 0

function bump(at: usize): void {
  store<u32>(at, load<u32>(at) + 1)
}

/** Frees the scratch array (pairCounting.ts, releaseRooms); the next sort makes it again. */
export function releaseSortScratch(): void {
  if (sortScratch) heap.free(sortScratch)
  sortScratch = 0
  sortScratchKeys = 0
}

/** n keys sorted: at `keys` or in the scratch array (valid until the next call). */
export function sortKeys(keys: usize, n: u32): usize {
  if (n > sortScratchKeys) {
    if (sortScratch) heap.free(sortScratch)
    sortScratchKeys = max(n, 2 * sortScratchKeys)
    sortScratch = heap.alloc((<usize>sortScratchKeys) << 3)
  }
  memory.fill(digitCounts, 0, (<usize>(RADIX_PASSES * DIGITS)) << 2)
  let some: u64 = 0
  let every: u64 = ~0
  const end = keys + ((<usize>n) << 3)
  for (let p = keys; p < end; p += 8) {
    const k = load<u64>(p)
    some |= k
    every &= k
    bump(digitCounts + ((<usize>(k & DIGIT_MASK)) << 2))
    bump(digitCounts + (1 << 14) + ((<usize>((k >> 12) & DIGIT_MASK)) << 2))
    bump(digitCounts + (2 << 14) + ((<usize>((k >> 24) & DIGIT_MASK)) << 2))
    bump(digitCounts + (3 << 14) + ((<usize>((k >> 36) & DIGIT_MASK)) << 2))
    bump(digitCounts + (4 << 14) + ((<usize>((k >> 48) & DIGIT_MASK)) << 2))
  }
  let from = keys
  let to = sortScratch
  for (let d = 0; d < RADIX_PASSES; d++) {
    const shift = <u64>(12 * d)
    if (((some ^ every) >> shift) & DIGIT_MASK) {
      radixPass(from, to, n, shift, digitCounts + ((<usize>d) << 14))
      const t = from
      from = to
      to = t
    }
  }
  return from
}

function radixPass(from: usize, to: usize, n: u32, shift: u64, counts: usize): void {
  let sum: u32 = 0
  for (let d = 0; d < DIGITS; d++) {
    const at = counts + ((<usize>d) << 2)
    const c = load<u32>(at)
    store<u32>(at, sum)
    sum += c
  }
  const end = from + ((<usize>n) << 3)
  for (let p = from; p < end; p += 8) {
    const k = load<u64>(p)
    const at = counts + ((<usize>((k >> shift) & DIGIT_MASK)) << 2)
    const i = load<u32>(at)
    store<u32>(at, i + 1)
    store<u64>(to + ((<usize>i) << 3), k)
  }
}
