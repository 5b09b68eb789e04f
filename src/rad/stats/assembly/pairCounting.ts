/**
 * The exact pairs' counting core in WebAssembly (AssemblyScript; docs/adr/0009, tenth round):
 * what pairPartitions.ts did in JavaScript at ~130 ns a record runs here at ~45. Built by
 * `npm run build:wasm` into ../pairCountingWasm.ts; pairCountingCore.ts drives it.
 *
 * Keys (as pairPartitions.ts): a barcode that fits 32 bits, spread by a multiplication by an odd
 * constant (a bijection); its top 8 bits pick one of 256 buckets, its low 24 bits and the UMI
 * (below 2^31) make a 64-bit key. A bucket's keys wait in its pending array until the caller
 * flushes; each bucket's are then sorted by LSD radix (12-bit digits, a digit every key shares
 * skipped) and merged into its lists:
 * - barcodes: reads (f64), low bits (u32) and distinct UMIs (u32), sorted by low bits;
 * - pairs: one u32 a distinct pair, UMI · 2 + the parity of its reads, one run a barcode in the
 *   barcodes' order, each run sorted.
 * Each list sits at [start, end) of its block. A merge writes forward from start − (new entries)
 * and never overtakes what it has still to read, so a block with that room at its front is
 * merged in place; otherwise into a block a quarter larger than needed. No memory is returned
 * to the page: an instance lives as long as its counter.
 *
 * Records of other owners' buckets (a counter of several that share the buckets) go to an
 * outbox per owner, for the caller to hand over (addPairs on the owner's side).
 */

const BUCKETS: i32 = 256
const LOW_BITS: u32 = 24
const LOW_MASK: u32 = (1 << 24) - 1
const SPREAD: u32 = 0x9e3779b1
const MAX_UMI: u32 = 0x7fffffff
const DIGITS: i32 = 1 << 12
const DIGIT_MASK: u64 = (1 << 12) - 1
const RADIX_PASSES: i32 = 5

/** A table of 256 u32, zeroed. */
function table(): usize {
  const t = heap.alloc(BUCKETS << 2)
  memory.fill(t, 0, BUCKETS << 2)
  return t
}

function get(t: usize, i: i32): u32 {
  return load<u32>(t + ((<usize>i) << 2))
}

function put(t: usize, i: i32, v: u32): void {
  store<u32>(t + ((<usize>i) << 2), v)
}

// Per bucket: pending keys (u64), then the lists' blocks (barcodes: reads f64 × cap, low bits
// u32 × cap, UMI counts u32 × cap; pairs: u32 × cap) and the [start, end) they use.
const pendingAt = table()
const pendingSize = table()
const pendingRoom = table()
const barcodeBlock = table()
const barcodeCap = table()
const barcodeStart = table()
const barcodeEnd = table()
const pairBlock = table()
const pairCap = table()
const pairStart = table()
const pairEnd = table()
const oddPairs = table()
// Per owner: the outbox of pairs (barcode, UMI) met in its buckets.
const ownerOf = table()
const outboxAt = table()
const outboxSize = table()
const outboxRoom = table()

const digitCounts = heap.alloc((<usize>(RADIX_PASSES * DIGITS)) << 2)
let sortScratch: usize = 0
let sortScratchKeys: u32 = 0
let input: usize = 0
let inputBytes: u32 = 0
let ownFrom: i32 = 0
let ownTo: i32 = BUCKETS
let flushShare: u32 = 1 << 14
let keysWaiting: u32 = 0
let pairsHeld: u32 = 0

/** This counter is owner `self` of `owners`; a bucket's first key gets room for `share` keys. */
export function setup(owners: i32, self: i32, share: u32): void {
  for (let o = 0; o < owners; o++) {
    const from = (o * BUCKETS + owners - 1) / owners
    for (let b = from; b < BUCKETS; b++) put(ownerOf, b, o)
  }
  ownFrom = (self * BUCKETS + owners - 1) / owners
  ownTo = ((self + 1) * BUCKETS + owners - 1) / owners
  flushShare = share
}

/** Room for the caller's rows or pairs: valid until the next call that allocates. */
export function inputRoom(bytes: u32): usize {
  if (bytes > inputBytes) {
    if (input) heap.free(input)
    input = heap.alloc(bytes)
    inputBytes = bytes
  }
  return input
}

function growPending(b: i32): void {
  const room = max(2 * get(pendingSize, b), flushShare)
  const at = <usize>get(pendingAt, b)
  const bytes = (<usize>room) << 3
  put(pendingAt, b, <u32>(at ? heap.realloc(at, bytes) : heap.alloc(bytes)))
  put(pendingRoom, b, room)
}

function addKey(b: i32, key: u64): void {
  const k = get(pendingSize, b)
  if (k == get(pendingRoom, b)) growPending(b)
  store<u64>(<usize>get(pendingAt, b) + ((<usize>k) << 3), key)
  put(pendingSize, b, k + 1)
}

function toOutbox(b: i32, barcode: u32, umi: u32): void {
  const o = <i32>get(ownerOf, b)
  const k = get(outboxSize, o)
  if (k == get(outboxRoom, o)) {
    const room = max(2 * k, 4096)
    const at = <usize>get(outboxAt, o)
    const bytes = (<usize>room) << 3
    put(outboxAt, o, <u32>(at ? heap.realloc(at, bytes) : heap.alloc(bytes)))
    put(outboxRoom, o, room)
  }
  const at = <usize>get(outboxAt, o) + ((<usize>k) << 3)
  store<u32>(at, barcode)
  store<u32>(at, umi, 4)
  put(outboxSize, o, k + 1)
}

/**
 * Rows [0, n) at the input, `stride` words each (barcode low, high, UMI low, high); stops at a
 * row whose barcode or UMI does not fit 32 bits (or whose UMI is 2^31 or more) and returns its
 * index (n when none).
 */
export function addRows(stride: u32, n: u32): u32 {
  const step = (<usize>stride) << 2
  let at = input
  let r: u32 = 0
  let own: u32 = 0
  for (; r < n; r++, at += step) {
    const barcode = load<u32>(at)
    const umi = load<u32>(at, 8)
    if ((load<u32>(at, 4) | load<u32>(at, 12)) != 0 || umi > MAX_UMI) break
    const spread = barcode * SPREAD
    const b = <i32>(spread >>> LOW_BITS)
    if (b < ownFrom || b >= ownTo) {
      toOutbox(b, barcode, umi)
      continue
    }
    const k = get(pendingSize, b)
    if (k == get(pendingRoom, b)) growPending(b)
    store<u64>(<usize>get(pendingAt, b) + ((<usize>k) << 3), ((<u64>(spread & LOW_MASK)) << 32) | (<u64>umi))
    put(pendingSize, b, k + 1)
    own++
  }
  keysWaiting += own
  return r
}

/** Pairs (barcode, UMI) [0, n) at the input, of this counter's buckets (another owner's outbox). */
export function addPairs(n: u32): void {
  for (let i: u32 = 0; i < n; i++) {
    const at = input + ((<usize>i) << 3)
    const spread = load<u32>(at) * SPREAD
    addKey(<i32>(spread >>> LOW_BITS), ((<u64>(spread & LOW_MASK)) << 32) | (<u64>load<u32>(at, 4)))
  }
  keysWaiting += n
}

export function waiting(): u32 {
  return keysWaiting
}

export function held(): u32 {
  return pairsHeld
}

export function outboxPairs(owner: i32): u32 {
  return get(outboxSize, owner)
}

export function outboxPointer(owner: i32): usize {
  return <usize>get(outboxAt, owner)
}

export function clearOutboxes(): void {
  memory.fill(outboxSize, 0, BUCKETS << 2)
}

function bump(at: usize): void {
  store<u32>(at, load<u32>(at) + 1)
}

/** n keys sorted: at `keys` or in the scratch array. */
function sortKeys(keys: usize, n: u32): usize {
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

/** Merges each bucket's waiting keys into its lists. */
export function flush(): void {
  for (let b = 0; b < BUCKETS; b++) if (get(pendingSize, b)) flushBucket(b)
  keysWaiting = 0
}

/** A list's source and destination: the same block when its front has room. */
class Lists {
  from: usize = 0
  fromCap: u32 = 0
  to: usize = 0
  toCap: u32 = 0
  toStart: u32 = 0
}

const barcodeLists = new Lists()
const pairLists = new Lists()

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
function firstAtLeast(from: usize, to: usize, x: u32): usize {
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
function copyBytes(to: usize, from: usize, bytes: usize): void {
  if (bytes > 64) {
    memory.copy(to, from, bytes)
    return
  }
  for (let i: usize = 0; i < bytes; i += 4) store<u32>(to + i, load<u32>(from + i))
}

/** Copies barcodes [from, to) of the source to `at` in the destination (all three arrays). */
function copyBarcodes(l: Lists, from: u32, to: u32, at: u32): void {
  const m = <usize>(to - from)
  const sc = l.from + ((<usize>l.fromCap) << 3)
  const dc = l.to + ((<usize>l.toCap) << 3)
  copyBytes(l.to + ((<usize>at) << 3), l.from + ((<usize>from) << 3), m << 3)
  copyBytes(dc + ((<usize>at) << 2), sc + ((<usize>from) << 2), m << 2)
  copyBytes(dc + ((<usize>(l.toCap + at)) << 2), sc + ((<usize>(l.fromCap + from)) << 2), m << 2)
}

function flushBucket(b: i32): void {
  const n = get(pendingSize, b)
  const keys = sortKeys(<usize>get(pendingAt, b), n)
  let newBarcodes: u32 = 0
  let newPairs: u32 = 0
  let last: u64 = ~0
  for (let i: u32 = 0; i < n; i++) {
    const k = load<u64>(keys + ((<usize>i) << 3))
    if (k == last) continue
    newPairs++
    if (k >> 32 != last >> 32) newBarcodes++
    last = k
  }
  const bl = barcodeLists
  const pl = pairLists
  place(bl, barcodeBlock, barcodeCap, barcodeStart, barcodeEnd, b, newBarcodes, 4)
  place(pl, pairBlock, pairCap, pairStart, pairEnd, b, newPairs, 2)
  const srcCodes = bl.from + ((<usize>bl.fromCap) << 3)
  const srcRuns = srcCodes + ((<usize>bl.fromCap) << 2)
  const dstCodes = bl.to + ((<usize>bl.toCap) << 3)
  const dstRuns = dstCodes + ((<usize>bl.toCap) << 2)
  const srcEnd = get(barcodeEnd, b)
  const pairsBefore = get(pairEnd, b) - get(pairStart, b)
  let rb = get(barcodeStart, b)
  let wb = bl.toStart
  let ru = <usize>pl.from + ((<usize>get(pairStart, b)) << 2)
  let wu = <usize>pl.to + ((<usize>pl.toStart) << 2)
  const firstPair = wu
  let odds: i32 = 0
  let j: u32 = 0
  while (j < n) {
    const code = <u32>(load<u64>(keys + ((<usize>j) << 3)) >> 32)
    // The source's barcodes below this one move as they are.
    let upTo = rb
    let words: usize = 0
    while (upTo < srcEnd && load<u32>(srcCodes + ((<usize>upTo) << 2)) < code) {
      words += load<u32>(srcRuns + ((<usize>upTo) << 2))
      upTo++
    }
    if (upTo > rb) {
      copyBarcodes(bl, rb, upTo, wb)
      wb += upTo - rb
      rb = upTo
      copyBytes(wu, ru, words << 2)
      wu += words << 2
      ru += words << 2
    }
    let reads: f64 = 0
    let runEnd = ru
    if (rb < srcEnd && load<u32>(srcCodes + ((<usize>rb) << 2)) == code) {
      reads = load<f64>(bl.from + ((<usize>rb) << 3))
      runEnd = ru + ((<usize>load<u32>(srcRuns + ((<usize>rb) << 2))) << 2)
      rb++
    }
    const runStart = wu
    const firstKey = j
    let lastKey = j
    while (lastKey < n && <u32>(load<u64>(keys + ((<usize>lastKey) << 3)) >> 32) == code) lastKey++
    // A run much longer than the keys that join it (a cell's UMIs so far) is skipped through by
    // search and copied in blocks; a short one is walked.
    const gallop = runEnd - ru > (<usize>(lastKey - j)) << 5
    while (j < lastKey) {
      const key = load<u64>(keys + ((<usize>j) << 3))
      let next = j + 1
      while (next < lastKey && load<u64>(keys + ((<usize>next) << 3)) == key) next++
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
    wu += runEnd - ru
    ru = runEnd
    store<f64>(bl.to + ((<usize>wb) << 3), reads + <f64>(j - firstKey))
    store<u32>(dstCodes + ((<usize>wb) << 2), code)
    store<u32>(dstRuns + ((<usize>wb) << 2), <u32>((wu - runStart) >> 2))
    wb++
  }
  copyBarcodes(bl, rb, srcEnd, wb)
  wb += srcEnd - rb
  const srcPairsEnd = <usize>pl.from + ((<usize>get(pairEnd, b)) << 2)
  memory.copy(wu, ru, srcPairsEnd - ru)
  wu += srcPairsEnd - ru
  settle(bl, barcodeBlock, barcodeCap, b)
  settle(pl, pairBlock, pairCap, b)
  put(barcodeStart, b, bl.toStart)
  put(barcodeEnd, b, wb)
  put(pairStart, b, pl.toStart)
  put(pairEnd, b, pl.toStart + <u32>((wu - firstPair) >> 2))
  pairsHeld += <u32>((wu - firstPair) >> 2) - pairsBefore
  put(oddPairs, b, get(oddPairs, b) + <u32>odds)
  put(pendingSize, b, 0)
}

export function bucketBarcodes(b: i32): u32 {
  return get(barcodeEnd, b) - get(barcodeStart, b)
}

/** Bucket b's keys waiting to be merged. */
export function bucketWaiting(b: i32): u32 {
  return get(pendingSize, b)
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
  return <usize>get(barcodeBlock, b) + ((<usize>(2 * get(barcodeCap, b) + get(barcodeStart, b))) << 2)
}

/** Bucket b's distinct UMIs per barcode (u32). */
export function bucketUmiCounts(b: i32): usize {
  return bucketLowBits(b) + ((<usize>get(barcodeCap, b)) << 2)
}

/** Bucket b's pairs (u32: UMI · 2 + parity). */
export function bucketUmis(b: i32): usize {
  return <usize>get(pairBlock, b) + ((<usize>get(pairStart, b)) << 2)
}

/** Bucket b's pairs with an odd number of reads. */
export function bucketOddPairs(b: i32): u32 {
  return get(oddPairs, b)
}
