/**
 * Each bucket's lists, and the merge of its sorted keys into them (pairCounting.ts;
 * bench/results.md, ADR 0009's tenth round). Two blocks a bucket:
 * - barcodes: reads (f64 × cap), low bits (u32 × cap), distinct UMIs (u32 × cap), sorted by low bits;
 * - pairs: one u32 a distinct pair, UMI · 2 + the parity of its reads, one run a barcode in the
 *   barcodes' order, each run sorted.
 * Each list sits at [start, end) of its block. A merge writes forward from start − (new entries)
 * and never overtakes what it has still to read, so a block with that room at its front is
 * merged in place; otherwise into a new block a quarter larger than needed.
 */
import { BUCKETS, get, put, table } from './tables'

const barcodeBlock = table()
const barcodeCap = table()
const barcodeStart = table()
const barcodeEnd = table()
const pairBlock = table()
const pairCap = table()
const pairStart = table()
const pairEnd = table()
const oddPairs = table()
let pairsHeld: u32 = 0

/** A list's source and destination block: the same one when its front has room. */
class Lists {
  from: usize = 0
  fromCap: u32 = 0
  to: usize = 0
  toCap: u32 = 0
  toStart: u32 = 0
}

const barcodeLists = new Lists()
const pairLists = new Lists()

// The merge's cursors: barcodes by index (read in the source, written in the destination), pairs
// by address; the change in the bucket's odd pairs.
let readBarcode: u32 = 0
let writeBarcode: u32 = 0
let readPair: usize = 0
let writePair: usize = 0
let oddChange: i32 = 0
// Distinct barcodes and pairs among the keys being merged (countDistinct).
let keyBarcodes: u32 = 0
let keyPairs: u32 = 0

/** Where a merge of `added` more entries into list b of (block, cap, start, end) writes; entries are 2^shift bytes each. */
function place(l: Lists, block: usize, cap: usize, start: usize, end: usize, b: i32, added: u32, shift: u32): void {
  l.from = <usize>get(block, b)
  l.fromCap = get(cap, b)
  const s = get(start, b)
  if (s >= added) {
    l.to = l.from
    l.toCap = l.fromCap
    l.toStart = s - added
    return
  }
  const need = get(end, b) - s + added
  l.toCap = need + (need >> 2) + 16
  l.to = heap.alloc((<usize>l.toCap) << shift)
  l.toStart = l.toCap - need
}

/** Takes the destination as list b's block. */
function settle(l: Lists, block: usize, cap: usize, b: i32): void {
  if (l.to == l.from) return
  if (l.from) heap.free(l.from)
  put(block, b, <u32>l.to)
  put(cap, b, l.toCap)
}

/** The first word in [from, to) that is ≥ x, searched from `from` by doubling steps, then halving. */
export function firstAtLeast(from: usize, to: usize, x: u32): usize {
  let lo = from
  let hi = from
  let step: usize = 4
  while (hi < to && load<u32>(hi) < x) {
    lo = hi + 4
    hi += step
    step <<= 1
  }
  if (hi > to) hi = to
  while (lo < hi) {
    const mid = lo + (((hi - lo) >> 3) << 2)
    if (load<u32>(mid) < x) lo = mid + 4
    else hi = mid
  }
  return lo
}

/**
 * memory.copy(to, from, bytes) for bytes a multiple of 4, `to` ≤ `from` where they overlap: a
 * loop for the few words most merges move (a barcode with one read), where memory.copy's call
 * costs more than the copy.
 */
export function copyBytes(to: usize, from: usize, bytes: usize): void {
  if (bytes > 64) {
    memory.copy(to, from, bytes)
    return
  }
  for (let i: usize = 0; i < bytes; i += 4) store<u32>(to + i, load<u32>(from + i))
}

function codesOf(block: usize, cap: u32): usize {
  return block + ((<usize>cap) << 3)
}

function runsOf(block: usize, cap: u32): usize {
  return block + <usize>cap * 12
}

/** Copies the source's barcodes [readBarcode, upTo) and their pairs to the write cursors. */
function moveBarcodes(upTo: u32, words: usize): void {
  const l = barcodeLists
  const m = <usize>(upTo - readBarcode)
  const from = <usize>readBarcode
  const at = <usize>writeBarcode
  copyBytes(l.to + (at << 3), l.from + (from << 3), m << 3)
  copyBytes(codesOf(l.to, l.toCap) + (at << 2), codesOf(l.from, l.fromCap) + (from << 2), m << 2)
  copyBytes(runsOf(l.to, l.toCap) + (at << 2), runsOf(l.from, l.fromCap) + (from << 2), m << 2)
  readBarcode = upTo
  writeBarcode += <u32>m
  copyBytes(writePair, readPair, words << 2)
  readPair += words << 2
  writePair += words << 2
}

/** Moves the source's barcodes below `code` as they are. */
function moveBarcodesBelow(code: u32, srcEnd: u32): void {
  const codes = codesOf(barcodeLists.from, barcodeLists.fromCap)
  const runs = runsOf(barcodeLists.from, barcodeLists.fromCap)
  let upTo = readBarcode
  let words: usize = 0
  while (upTo < srcEnd && load<u32>(codes + ((<usize>upTo) << 2)) < code) {
    words += load<u32>(runs + ((<usize>upTo) << 2))
    upTo++
  }
  if (upTo > readBarcode) moveBarcodes(upTo, words)
}

/**
 * Merges the keys [j, last) (one barcode's, sorted) into its source run, which ends at runEnd:
 * equal keys make one pair, whose parity joins the run's. A run much longer than the keys that
 * join it (a cell's UMIs so far) is skipped through by search and copied in blocks.
 */
function mergeRun(keys: usize, j: u32, last: u32, runEnd: usize): void {
  let ru = readPair
  let wu = writePair
  let odds = oddChange
  const gallop = runEnd - ru > (<usize>(last - j)) << 5
  while (j < last) {
    const key = load<u64>(keys + ((<usize>j) << 3))
    let next = j + 1
    while (next < last && load<u64>(keys + ((<usize>next) << 3)) == key) next++
    const umi = (<u32>key) << 1
    const odd = (next - j) & 1
    if (gallop) {
      const q = firstAtLeast(ru, runEnd, umi)
      copyBytes(wu, ru, q - ru)
      wu += q - ru
      ru = q
    } else {
      while (ru < runEnd && load<u32>(ru) < umi) {
        store<u32>(wu, load<u32>(ru))
        wu += 4
        ru += 4
      }
    }
    if (ru < runEnd && (load<u32>(ru) & ~1) == umi) {
      const before = load<u32>(ru) & 1
      store<u32>(wu, umi | (before ^ odd))
      odds += <i32>(before ^ odd) - <i32>before
      ru += 4
    } else {
      store<u32>(wu, umi | odd)
      odds += odd
    }
    wu += 4
    j = next
  }
  copyBytes(wu, ru, runEnd - ru)
  readPair = runEnd
  writePair = wu + (runEnd - ru)
  oddChange = odds
}

/** Merges the keys of barcode `code` from key j on; returns the index after its last key. */
function mergeBarcode(keys: usize, j: u32, n: u32, code: u32, srcEnd: u32): u32 {
  const l = barcodeLists
  let reads: f64 = 0
  let runEnd = readPair
  if (readBarcode < srcEnd && load<u32>(codesOf(l.from, l.fromCap) + ((<usize>readBarcode) << 2)) == code) {
    reads = load<f64>(l.from + ((<usize>readBarcode) << 3))
    runEnd += (<usize>load<u32>(runsOf(l.from, l.fromCap) + ((<usize>readBarcode) << 2))) << 2
    readBarcode++
  }
  let last = j
  while (last < n && <u32>(load<u64>(keys + ((<usize>last) << 3)) >> 32) == code) last++
  const runStart = writePair
  mergeRun(keys, j, last, runEnd)
  const at = <usize>writeBarcode
  store<f64>(l.to + (at << 3), reads + <f64>(last - j))
  store<u32>(codesOf(l.to, l.toCap) + (at << 2), code)
  store<u32>(runsOf(l.to, l.toCap) + (at << 2), <u32>((writePair - runStart) >> 2))
  writeBarcode++
  return last
}

/** Distinct barcodes and pairs among n sorted keys (keyBarcodes, keyPairs). */
function countDistinct(keys: usize, n: u32): void {
  keyBarcodes = 0
  keyPairs = 0
  let last: u64 = ~0
  for (let i: u32 = 0; i < n; i++) {
    const k = load<u64>(keys + ((<usize>i) << 3))
    if (k == last) continue
    keyPairs++
    if (k >> 32 != last >> 32) keyBarcodes++
    last = k
  }
}

/** Merges n sorted keys (the barcode's low 24 bits, then the UMI) into bucket b's lists. */
export function mergeKeys(b: i32, keys: usize, n: u32): void {
  countDistinct(keys, n)
  const bl = barcodeLists
  const pl = pairLists
  place(bl, barcodeBlock, barcodeCap, barcodeStart, barcodeEnd, b, keyBarcodes, 4)
  place(pl, pairBlock, pairCap, pairStart, pairEnd, b, keyPairs, 2)
  const srcEnd = get(barcodeEnd, b)
  const pairsBefore = get(pairEnd, b) - get(pairStart, b)
  readBarcode = get(barcodeStart, b)
  writeBarcode = bl.toStart
  readPair = pl.from + ((<usize>get(pairStart, b)) << 2)
  writePair = pl.to + ((<usize>pl.toStart) << 2)
  oddChange = 0
  const firstPair = writePair
  for (let j: u32 = 0; j < n;) {
    const code = <u32>(load<u64>(keys + ((<usize>j) << 3)) >> 32)
    moveBarcodesBelow(code, srcEnd)
    j = mergeBarcode(keys, j, n, code, srcEnd)
  }
  const srcPairsEnd = pl.from + ((<usize>get(pairEnd, b)) << 2)
  moveBarcodes(srcEnd, (srcPairsEnd - readPair) >> 2)
  settle(bl, barcodeBlock, barcodeCap, b)
  settle(pl, pairBlock, pairCap, b)
  const pairs = <u32>((writePair - firstPair) >> 2)
  put(barcodeStart, b, bl.toStart)
  put(barcodeEnd, b, writeBarcode)
  put(pairStart, b, pl.toStart)
  put(pairEnd, b, pl.toStart + pairs)
  pairsHeld += pairs - pairsBefore
  put(oddPairs, b, get(oddPairs, b) + <u32>oddChange)
}

/** Distinct pairs in every bucket's lists. */
export function held(): u32 {
  return pairsHeld
}

export function bucketBarcodes(b: i32): u32 {
  return get(barcodeEnd, b) - get(barcodeStart, b)
}

export function bucketPairs(b: i32): u32 {
  return get(pairEnd, b) - get(pairStart, b)
}

/** Bucket b's reads per barcode (f64). */
export function bucketReads(b: i32): usize {
  return <usize>get(barcodeBlock, b) + ((<usize>get(barcodeStart, b)) << 3)
}

/** Bucket b's barcodes' low bits (u32). */
export function bucketLowBits(b: i32): usize {
  return codesOf(<usize>get(barcodeBlock, b), get(barcodeCap, b)) + ((<usize>get(barcodeStart, b)) << 2)
}

/** Bucket b's distinct UMIs per barcode (u32). */
export function bucketUmiCounts(b: i32): usize {
  return runsOf(<usize>get(barcodeBlock, b), get(barcodeCap, b)) + ((<usize>get(barcodeStart, b)) << 2)
}

/** Bucket b's pairs (u32: UMI · 2 + parity). */
export function bucketUmis(b: i32): usize {
  return <usize>get(pairBlock, b) + ((<usize>get(pairStart, b)) << 2)
}

/** Bucket b's pairs with an odd number of reads. */
export function bucketOddPairs(b: i32): u32 {
  return get(oddPairs, b)
}

/** Barcodes in every bucket's lists. */
export function barcodesHeld(): u32 {
  let n: u32 = 0
  for (let b = 0; b < BUCKETS; b++) n += get(barcodeEnd, b) - get(barcodeStart, b)
  return n
}

/**
 * Empties bucket b's lists, their blocks freed for the next merges: the caller copied them out
 * first (a spill to disk, pairPartitions.ts). An empty bucket is as at the start: no block.
 */
export function dropBucket(b: i32): void {
  pairsHeld -= get(pairEnd, b) - get(pairStart, b)
  const barcodes = <usize>get(barcodeBlock, b)
  const pairs = <usize>get(pairBlock, b)
  if (barcodes) heap.free(barcodes)
  if (pairs) heap.free(pairs)
  put(barcodeBlock, b, 0)
  put(barcodeCap, b, 0)
  put(barcodeStart, b, 0)
  put(barcodeEnd, b, 0)
  put(pairBlock, b, 0)
  put(pairCap, b, 0)
  put(pairStart, b, 0)
  put(pairEnd, b, 0)
  put(oddPairs, b, 0)
}
