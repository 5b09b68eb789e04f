/**
 * The exact pairs' counting core in WebAssembly (AssemblyScript; bench/results.md, ADR 0009's
 * tenth round): what pairPartitions.ts did in JavaScript at ~130 ns a record runs here at ~45.
 * Built by `npm run build:wasm` into ../pairCountingWasm.ts; pairCountingCore.ts drives it.
 *
 * Keys (as pairPartitions.ts): a barcode that fits 32 bits, spread by a multiplication by an odd
 * constant (a bijection); its top 8 bits pick one of 256 buckets, its low 24 bits and the UMI
 * (below 2^31) make a 64-bit key. A bucket's keys wait in its pending array until the caller
 * flushes; each bucket's are then sorted (radixSort.ts) and merged into its lists
 * (bucketLists.ts). No memory is returned to the page: an instance lives as long as its counter.
 *
 * Records of other owners' buckets (a counter of several that share the buckets) go to an
 * outbox per owner, for the caller to hand over (addPairs on the owner's side).
 */

import { mergeKeys } from './bucketLists'
export { allocLists, freeLists, mergeLists, mergedPairs } from './listMerge'
import { releaseSortScratch, sortKeys } from './radixSort'
import { BUCKETS, get, put, table } from './tables'
export { alnTallies, countScRna, forwardAlignments, mixedBarcodes } from './scRnaChunk'

export {
  barcodesHeld,
  bucketBarcodes,
  bucketLowBits,
  bucketOddPairs,
  bucketPairs,
  bucketReads,
  bucketUmiCounts,
  bucketUmis,
  dropBucket,
  held,
} from './bucketLists'

const LOW_BITS: u32 = 24
const LOW_MASK: u32 = (1 << 24) - 1
const SPREAD: u32 = 0x9e3779b1
export const MAX_UMI: u32 = 0x7fffffff

// Per bucket: the keys waiting (u64).
const pendingAt = table()
const pendingSize = table()
const pendingRoom = table()
// Per owner: the outbox of pairs (barcode, UMI) met in its buckets.
const ownerOf = table()
const outboxAt = table()
const outboxSize = table()
const outboxRoom = table()

let input: usize = 0
let inputBytes: u32 = 0
let ownFrom: i32 = 0
let ownTo: i32 = BUCKETS
let flushShare: u32 = 1 << 14
let keysWaiting: u32 = 0

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
  for (; r < n; r++, at += step) {
    const umi = load<u32>(at, 8)
    if ((load<u32>(at, 4) | load<u32>(at, 12)) != 0 || umi > MAX_UMI) break
    addRecordKey(load<u32>(at), umi)
  }
  return r
}

/** A record's (barcode, UMI), the UMI below 2^31: a key of this counter's bucket, or a pair for its owner's outbox. */
export function addRecordKey(barcode: u32, umi: u32): void {
  const spread = barcode * SPREAD
  const b = <i32>(spread >>> LOW_BITS)
  if (b < ownFrom || b >= ownTo) {
    toOutbox(b, barcode, umi)
    return
  }
  const k = get(pendingSize, b)
  if (k == get(pendingRoom, b)) growPending(b)
  store<u64>(<usize>get(pendingAt, b) + ((<usize>k) << 3), ((<u64>(spread & LOW_MASK)) << 32) | (<u64>umi))
  put(pendingSize, b, k + 1)
  keysWaiting++
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

export function outboxPairs(owner: i32): u32 {
  return get(outboxSize, owner)
}

export function outboxPointer(owner: i32): usize {
  return <usize>get(outboxAt, owner)
}

export function clearOutboxes(): void {
  memory.fill(outboxSize, 0, BUCKETS << 2)
}

/**
 * Frees the keys' rooms, the emptied outboxes, the input and the sort's scratch (the end of a pass that spilled: every
 * key merged, the lists written out and dropped), so that what the heap holds is free again in
 * one piece for the end's merges (spilledRuns.ts) instead of the memory growing for them. Counting
 * may go on after: each room is made again when needed.
 */
export function releaseRooms(): void {
  freeEmptyRooms(pendingAt, pendingSize, pendingRoom)
  freeEmptyRooms(outboxAt, outboxSize, outboxRoom)
  if (input) heap.free(input)
  input = 0
  inputBytes = 0
  releaseSortScratch()
}

/** Frees each room of the tables (at, size, room) that holds nothing (a bucket's keys, an owner's outbox). */
function freeEmptyRooms(at: usize, size: usize, room: usize): void {
  for (let i = 0; i < BUCKETS; i++) {
    const block = <usize>get(at, i)
    if (block == 0 || get(size, i) != 0) continue
    heap.free(block)
    put(at, i, 0)
    put(room, i, 0)
  }
}

/** Merges each bucket's waiting keys into its lists. */
export function flush(): void {
  for (let b = 0; b < BUCKETS; b++) {
    const n = get(pendingSize, b)
    if (n == 0) continue
    mergeKeys(b, sortKeys(<usize>get(pendingAt, b), n), n)
    put(pendingSize, b, 0)
  }
  keysWaiting = 0
}

/** Bucket b's keys waiting to be merged. */
export function bucketWaiting(b: i32): u32 {
  return get(pendingSize, b)
}
