/**
 * The merge of two buckets' lists at the end of a pass that spilled (spilledRuns.ts, ADR 0015):
 * partitionLists.ts's mergeLists, here, where the JavaScript one took about a third of a spilled
 * 4 GiB run's CPU (bench/results.md, issue 35). Lists are laid out as a spill writes them
 * (partitionLists.ts, listsIn): for a capacity of `cap` barcodes, the reads (f64 × cap), the low
 * bits (u32 × cap), the distinct UMIs (u32 × cap), then the pairs (u32 each, UMI · 2 + the
 * parity of its reads; one sorted run a barcode, in the barcodes' order).
 */

import { copyBytes, firstAtLeast } from './bucketLists'

// The pairs the last mergeLists wrote.
let pairsWritten: u32 = 0

function readsAt(block: usize): usize {
  return block
}

function lowsAt(block: usize, cap: u32): usize {
  return block + ((<usize>cap) << 3)
}

function countsAt(block: usize, cap: u32): usize {
  return block + <usize>cap * 12
}

function pairsAt(block: usize, cap: u32): usize {
  return block + ((<usize>cap) << 4)
}

/** Words [from, to) copied to `at` (bucketLists.ts's copyBytes); returns the end written. */
function copyWords(at: usize, from: usize, to: usize): usize {
  copyBytes(at, from, to - from)
  return at + to - from
}

/**
 * Merges the sorted run s[sFrom, sTo) into the no shorter run l[lFrom, lTo), writing at `at`;
 * returns the end written. Equal UMIs become one word, their parities added. A much shorter run
 * gallops through the longer one, copying what it skips; runs of like lengths (a cell's UMIs from
 * two spills, interleaved at random) are merged without branches, a word a step.
 */
function mergeRuns(lFrom: usize, lTo: usize, sFrom: usize, sTo: usize, at: usize): usize {
  if ((sTo - sFrom) << 3 >= lTo - lFrom) return mergeAlike(lFrom, lTo, sFrom, sTo, at)
  let p = lFrom
  for (let k = sFrom; k < sTo; k += 4) {
    const w = load<u32>(k)
    const even = w & ~1
    const q = firstAtLeast(p, lTo, even)
    at = copyWords(at, p, q)
    p = q
    if (p < lTo && (load<u32>(p) & ~1) == even) {
      store<u32>(at, load<u32>(p) ^ (w & 1))
      p += 4
    } else store<u32>(at, w)
    at += 4
  }
  return copyWords(at, p, lTo)
}

/** mergeRuns for runs of like lengths: each step writes the smaller word (both, as one, when equal). */
function mergeAlike(a: usize, aTo: usize, b: usize, bTo: usize, at: usize): usize {
  while (a < aTo && b < bTo) {
    const x = load<u32>(a)
    const y = load<u32>(b)
    const xe = x & ~1
    const ye = y & ~1
    store<u32>(at, select<u32>(x, select<u32>(x ^ (y & 1), y, xe == ye), xe < ye))
    a += select<usize>(4, 0, xe <= ye)
    b += select<usize>(4, 0, ye <= xe)
    at += 4
  }
  at = copyWords(at, a, aTo)
  return copyWords(at, b, bTo)
}

/**
 * Lists a (capacity capA, na barcodes, pairsA pairs) and b (capB, nb, pairsB) merged into `out` (capacity capOut ≥
 * na + nb, room for every pair of both): a barcode in both sums its reads and merges its runs.
 * Returns the barcodes written; the pairs written are mergedPairs().
 */
export function mergeLists(
  a: usize,
  capA: u32,
  na: u32,
  pairsA: u32,
  b: usize,
  capB: u32,
  nb: u32,
  pairsB: u32,
  out: usize,
  capOut: u32,
): u32 {
  let i: u32 = 0
  let j: u32 = 0
  let k: u32 = 0
  let pa = pairsAt(a, capA)
  let pb = pairsAt(b, capB)
  const firstPair = pairsAt(out, capOut)
  let np = firstPair
  const lowsA = lowsAt(a, capA)
  const lowsB = lowsAt(b, capB)
  const countsA = countsAt(a, capA)
  const countsB = countsAt(b, capB)
  const lowsOut = lowsAt(out, capOut)
  const countsOut = countsAt(out, capOut)
  while (i < na && j < nb) {
    const x = load<u32>(lowsA + ((<usize>i) << 2))
    const y = load<u32>(lowsB + ((<usize>j) << 2))
    const runA = (<usize>load<u32>(countsA + ((<usize>i) << 2))) << 2
    const runB = (<usize>load<u32>(countsB + ((<usize>j) << 2))) << 2
    let reads: f64
    let end: usize
    if (x < y) {
      reads = load<f64>(readsAt(a) + ((<usize>i) << 3))
      end = copyWords(np, pa, pa + runA)
      pa += runA
      i++
    } else if (y < x) {
      reads = load<f64>(readsAt(b) + ((<usize>j) << 3))
      end = copyWords(np, pb, pb + runB)
      pb += runB
      j++
    } else {
      reads = load<f64>(readsAt(a) + ((<usize>i) << 3)) + load<f64>(readsAt(b) + ((<usize>j) << 3))
      end = runA >= runB ? mergeRuns(pa, pa + runA, pb, pb + runB, np) : mergeRuns(pb, pb + runB, pa, pa + runA, np)
      pa += runA
      pb += runB
      i++
      j++
    }
    store<f64>(readsAt(out) + ((<usize>k) << 3), reads)
    store<u32>(lowsOut + ((<usize>k) << 2), x < y ? x : y)
    store<u32>(countsOut + ((<usize>k) << 2), <u32>((end - np) >> 2))
    np = end
    k++
  }
  // The rest of either: copied as it is.
  const restA = na - i
  const restB = nb - j
  const from = restA > 0 ? a : b
  const cap = restA > 0 ? capA : capB
  const at = restA > 0 ? i : j
  const rest = restA > 0 ? restA : restB
  const pairFrom = restA > 0 ? pa : pb
  const pairTo = restA > 0 ? pairsAt(a, capA) + ((<usize>pairsA) << 2) : pairsAt(b, capB) + ((<usize>pairsB) << 2)
  if (rest > 0) {
    memory.copy(readsAt(out) + ((<usize>k) << 3), readsAt(from) + ((<usize>at) << 3), (<usize>rest) << 3)
    memory.copy(lowsOut + ((<usize>k) << 2), lowsAt(from, cap) + ((<usize>at) << 2), (<usize>rest) << 2)
    memory.copy(countsOut + ((<usize>k) << 2), countsAt(from, cap) + ((<usize>at) << 2), (<usize>rest) << 2)
    np = copyWords(np, pairFrom, pairTo)
    k += rest
  }
  pairsWritten = <u32>((np - firstPair) >> 2)
  return k
}

/** The pairs the last mergeLists wrote. */
export function mergedPairs(): u32 {
  return pairsWritten
}

/** Room for lists (a spilled segment read back, a merge's output), freed with freeLists. */
export function allocLists(bytes: usize): usize {
  return heap.alloc(bytes)
}

export function freeLists(at: usize): void {
  heap.free(at)
}
