/**
 * A set of (lo, hi) u32 word pairs in one open-addressing array: 8 bytes a
 * slot plus a byte saying it is used, load ≤ 3/4, doubling when it fills.
 * A 10x permit list of 3M barcodes (2-bit packed, docs/format.md §7.8) takes
 * 32 MB here, where the statistics' CountTable (keys, counts and hashed slots)
 * would take ~130 MB: a set needs neither counts nor insertion order, and one
 * probe touches one slot (the cells pass adds ~50M keys: docs/cells.md).
 */
import { hash2 } from '../stats/countTable'

const SEED = 0x5eedcafe

/** Slots: a power of two with the keys at ≤ 3/4 load. */
function slotCount(keys: number): number {
  let n = 16
  while (n * 3 < keys * 4) n *= 2
  return n
}

export class PackedSet {
  size = 0
  /** (lo, hi) per slot; `used` says which slots hold a key (a key may be all zeros: poly-A). */
  private words: Uint32Array
  private used: Uint8Array
  private mask: number
  private limit: number

  constructor(expectedKeys = 0) {
    const slots = slotCount(Math.max(1, expectedKeys))
    this.words = new Uint32Array(2 * slots)
    this.used = new Uint8Array(slots)
    this.mask = slots - 1
    this.limit = (slots * 3) >> 2
  }

  /** Bytes held (for the budget in docs/cells.md). */
  get bytes(): number {
    return this.words.byteLength + this.used.byteLength
  }

  /** Adds the key; false when it was already there. */
  add(lo: number, hi: number): boolean {
    const words = this.words
    const used = this.used
    let s = hash2(lo, hi, SEED) & this.mask
    while (used[s] === 1) {
      if (words[2 * s] === lo && words[2 * s + 1] === hi) return false
      s = (s + 1) & this.mask
    }
    if (this.size >= this.limit) {
      this.grow()
      return this.add(lo, hi)
    }
    used[s] = 1
    words[2 * s] = lo
    words[2 * s + 1] = hi
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

  /** Calls `visit` with every key, in slot order. */
  forEach(visit: (lo: number, hi: number) => void): void {
    for (let s = 0; s < this.used.length; s++) if (this.used[s] === 1) visit(this.words[2 * s]!, this.words[2 * s + 1]!)
  }

  private grow(): void {
    const { words, used } = this
    const slots = 2 * used.length
    this.words = new Uint32Array(2 * slots)
    this.used = new Uint8Array(slots)
    this.mask = slots - 1
    this.limit = (slots * 3) >> 2
    this.size = 0
    for (let s = 0; s < used.length; s++) if (used[s] === 1) this.add(words[2 * s]!, words[2 * s + 1]!)
  }
}

const BUCKET_BITS = 8
const BUCKETS = 1 << BUCKET_BITS
/** Keys a bucket buffers before they go into its set (8k keys: 64 KB, 16 MB in all). */
const BUFFERED = 8192

/**
 * A PackedSet split by hash into 256 sets, each fed in batches: a key is first
 * appended to its bucket's buffer (a streaming write), and a full buffer goes
 * into the bucket's set at once, while that set is in cache. Random probes
 * into one 40 MB table cost a cache miss each (~100 ns; the cells pass adds
 * ~50M keys); probes into a 150 KB bucket set do not (docs/cells.md).
 */
export class PartitionedSet {
  private readonly sets = Array.from({ length: BUCKETS }, () => new PackedSet(BUFFERED))
  private readonly buffer = new Uint32Array(2 * BUFFERED * BUCKETS)
  private readonly filled = new Uint32Array(BUCKETS)

  add(lo: number, hi: number): void {
    const b = hash2(hi, lo, SEED) >>> (32 - BUCKET_BITS)
    const n = this.filled[b]!
    const at = 2 * (b * BUFFERED + n)
    this.buffer[at] = lo
    this.buffer[at + 1] = hi
    this.filled[b] = n + 1
    if (n + 1 === BUFFERED) this.flush(b)
  }

  /** Bytes held (for the budget in docs/cells.md). */
  get bytes(): number {
    return this.buffer.byteLength + this.sets.reduce((sum, s) => sum + s.bytes, 0)
  }

  has(lo: number, hi: number): boolean {
    const b = hash2(hi, lo, SEED) >>> (32 - BUCKET_BITS)
    this.flush(b)
    return this.sets[b]!.has(lo, hi)
  }

  /** The distinct keys. */
  get size(): number {
    for (let b = 0; b < BUCKETS; b++) this.flush(b)
    return this.sets.reduce((n, set) => n + set.size, 0)
  }

  /** Calls `visit` with every distinct key. */
  forEach(visit: (lo: number, hi: number) => void): void {
    for (let b = 0; b < BUCKETS; b++) this.flush(b)
    for (const set of this.sets) set.forEach(visit)
  }

  private flush(b: number): void {
    const set = this.sets[b]!
    const from = 2 * b * BUFFERED
    const to = from + 2 * this.filled[b]!
    for (let i = from; i < to; i += 2) set.add(this.buffer[i]!, this.buffer[i + 1]!)
    this.filled[b] = 0
  }
}
