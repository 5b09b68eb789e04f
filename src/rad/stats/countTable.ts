/**
 * Counting in typed arrays (no Map of strings: docs/adr/0009). A CountTable maps
 * keys of `keyWords` u32 words to a count. Entries are stored densely in
 * insertion order (keys[id·W … id·W+W−1], counts[id]); an open-addressing
 * slot array (linear probing, load ≤ 3/4) holds id + 1, 0 meaning empty.
 * Past `maxEntries` an insert is refused (-1): the caller decides what an
 * approximation does then (docs/stats.md).
 */
import type { CountTableState, HistogramState } from './statsTypes'

const INITIAL_ENTRIES = 1024

/** murmur3's 32-bit finaliser: every input bit reaches every output bit. */
export function mix32(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * Odd multipliers, one per key word (golden-ratio and murmur/xxhash primes):
 * a key hashes as the sum of its words times these, then mix32. Cheaper than
 * murmur3's per-word rounds (4× measured: bench/results.md, ADR 0009's first round);
 * mix32 spreads every bit to both ends (slots use the low bits, sampling and
 * the HyperLogLog the high ones).
 */
const MULT = [0x9e3779b1, 0x85ebca77, 0xc2b2ae3d, 0x27d4eb2f, 0x165667b1, 0xd3a2646d, 0xfd7046c5, 0xb55a4f09]

function multiplier(i: number): number {
  return i < MULT.length ? MULT[i]! : (Math.imul(i, 0x9e3779b1) | 1) >>> 0
}

/** The hash of the key (a, b), seeded: a barcode level. Equal to hashWords(…, 2, seed). */
export function hash2(a: number, b: number, seed: number): number {
  return mix32((Math.imul(a ^ seed, 0x9e3779b1) + Math.imul(b, 0x85ebca77)) | 0)
}

/** The hash of the key (a, b, c, d), seeded: a pair. Equal to hashWords(…, 4, seed). */
export function hash4(a: number, b: number, c: number, d: number, seed: number): number {
  return mix32(
    (Math.imul(a ^ seed, 0x9e3779b1) + Math.imul(b, 0x85ebca77) + Math.imul(c, 0xc2b2ae3d) + Math.imul(d, 0x27d4eb2f)) |
      0,
  )
}

/** The hash of `n` words at `words[at]`, seeded (different seeds give independent hashes). */
export function hashWords(words: Uint32Array, at: number, n: number, seed: number): number {
  if (n === 2) return hash2(words[at]!, words[at + 1]!, seed)
  if (n === 4) return hash4(words[at]!, words[at + 1]!, words[at + 2]!, words[at + 3]!, seed)
  let h = n > 0 ? Math.imul(words[at]! ^ seed, MULT[0]!) : seed
  for (let i = 1; i < n; i++) h = (h + Math.imul(words[at + i]!, multiplier(i))) | 0
  return mix32(h)
}

const SLOT_SEED = 0x2545f491

export class CountTable {
  readonly keyWords: number
  readonly maxEntries: number
  /** The hash seed of the slots (addHashed callers hash with it). */
  readonly seed: number
  size = 0
  keys: Uint32Array
  counts: Float64Array
  /** Two words a slot: id + 1 (0 = empty), then the key's hash, so a probe compares keys only on equal hashes. */
  private slots: Int32Array
  private mask: number

  constructor(keyWords: number, maxEntries: number, initial = INITIAL_ENTRIES, seed = SLOT_SEED) {
    this.keyWords = keyWords
    this.maxEntries = maxEntries
    this.seed = seed
    const cap = Math.min(initial, maxEntries)
    this.keys = new Uint32Array(cap * keyWords)
    this.counts = new Float64Array(cap)
    this.slots = new Int32Array(2 * slotCountFor(cap))
    this.mask = this.slots.length / 2 - 1
  }

  get full(): boolean {
    return this.size >= this.maxEntries
  }

  /** Bytes held by the arrays (for the memory budget in docs/stats.md). */
  get bytes(): number {
    return this.keys.byteLength + this.counts.byteLength + this.slots.byteLength
  }

  /** The id of the key at `words[at]`, or -1. */
  find(words: Uint32Array, at: number): number {
    const hash = hashWords(words, at, this.keyWords, this.seed)
    const slots = this.slots
    let s = hash & this.mask
    for (;;) {
      const v = slots[2 * s]!
      if (v === 0) return -1
      if (slots[2 * s + 1] === (hash | 0) && this.sameKey(v - 1, words, at)) return v - 1
      s = (s + 1) & this.mask
    }
  }

  /** Adds `n` to the key's count, inserting it; -1 (and nothing counted) when new and the table is full. */
  add(words: Uint32Array, at: number, n: number): number {
    return this.addHashed(words, at, n, hashWords(words, at, this.keyWords, this.seed))
  }

  /** `add` with the key's hashWords(…, this.seed) already computed. */
  addHashed(words: Uint32Array, at: number, n: number, hash: number): number {
    const slots = this.slots
    const keys = this.keys
    const W = this.keyWords
    const h = hash | 0
    let s = hash & this.mask
    for (;;) {
      const v = slots[2 * s]!
      if (v === 0) break
      if (slots[2 * s + 1] === h) {
        const base = (v - 1) * W
        let i = 0
        while (i < W && keys[base + i] === words[at + i]) i++
        if (i === W) {
          this.counts[v - 1]! += n
          return v - 1
        }
      }
      s = (s + 1) & this.mask
    }
    if (this.size >= this.maxEntries) return -1
    if (this.size === this.counts.length) {
      this.grow()
      return this.addHashed(words, at, n, hash)
    }
    const id = this.size++
    for (let i = 0; i < W; i++) keys[id * W + i] = words[at + i]!
    this.counts[id] = n
    slots[2 * s] = id + 1
    slots[2 * s + 1] = hash
    return id
  }

  /**
   * Adds 1 for each key rows[r·stride …] (hash hashes[r]) for r in [from, n),
   * skipping keys outside the sample of `shift` (inSample); stops at the first
   * key the full table refuses and returns its r (n when none was refused).
   * One call per chunk column: the probe loop is inlined here, with no call
   * or closure per key (docs/adr/0009-statistics-pass-speed.md).
   */
  addRows(rows: Uint32Array, stride: number, hashes: Uint32Array, from: number, n: number, shift = 0): number {
    const W = this.keyWords
    for (let r = from, at = from * stride; r < n; r++, at += stride) {
      const hash = hashes[r]!
      if (shift !== 0 && hash >>> (32 - shift) !== 0) continue
      if (this.probeAdd(rows, at, hash, W) < 0) return r
    }
    return n
  }

  /** addHashed of 1, inlined in addRows' loop. */
  private probeAdd(words: Uint32Array, at: number, hash: number, W: number): number {
    const slots = this.slots
    const keys = this.keys
    const h = hash | 0
    let s = hash & this.mask
    for (;;) {
      const v = slots[2 * s]!
      if (v === 0) break
      if (slots[2 * s + 1] === h) {
        const base = (v - 1) * W
        let i = 0
        while (i < W && keys[base + i] === words[at + i]) i++
        if (i === W) {
          this.counts[v - 1]!++
          return v - 1
        }
      }
      s = (s + 1) & this.mask
    }
    return this.addHashed(words, at, 1, hash)
  }

  /** Keeps the entries for which `keep(id, hash)` is true, in order; rebuilds the slots. */
  retain(keep: (id: number, hash: number) => boolean): void {
    const W = this.keyWords
    let out = 0
    for (let id = 0; id < this.size; id++) {
      if (!keep(id, this.hashOf(id))) continue
      if (out !== id) {
        this.keys.copyWithin(out * W, id * W, id * W + W)
        this.counts[out] = this.counts[id]!
      }
      out++
    }
    this.size = out
    this.rebuildSlots()
  }

  /** A compact copy (transferable, structured-clonable). */
  exportState(): CountTableState {
    return {
      keyWords: this.keyWords,
      size: this.size,
      keys: this.keys.slice(0, this.size * this.keyWords),
      counts: this.counts.slice(0, this.size),
    }
  }

  /** Adds every entry of `state`; calls `overflow(id)` for those that found the table full. */
  addState(state: CountTableState, overflow?: (id: number) => void): void {
    for (let id = 0; id < state.size; id++) {
      if (this.add(state.keys, id * this.keyWords, state.counts[id]!) < 0) overflow?.(id)
    }
  }

  private sameKey(id: number, words: Uint32Array, at: number): boolean {
    const W = this.keyWords
    const base = id * W
    for (let i = 0; i < W; i++) if (this.keys[base + i] !== words[at + i]) return false
    return true
  }

  /** Room for `entries` (up to the cap) at once: a merge into an empty table grows it once, not by a chain of doublings. */
  reserve(entries: number): void {
    if (entries > this.counts.length && this.counts.length < this.maxEntries) this.growTo(entries)
  }

  private grow(): void {
    this.growTo(this.counts.length * 2)
  }

  private growTo(entries: number): void {
    const cap = Math.min(entries, this.maxEntries)
    const keys = new Uint32Array(cap * this.keyWords)
    keys.set(this.keys)
    const counts = new Float64Array(cap)
    counts.set(this.counts)
    this.keys = keys
    this.counts = counts
    this.slots = new Int32Array(2 * slotCountFor(cap))
    this.mask = this.slots.length / 2 - 1
    this.rebuildSlots()
  }

  /** The slot hash of entry `id` (recomputed: no per-entry hash is kept, to save 4 bytes an entry). */
  private hashOf(id: number): number {
    return hashWords(this.keys, id * this.keyWords, this.keyWords, this.seed)
  }

  private rebuildSlots(): void {
    const slots = this.slots
    slots.fill(0)
    for (let id = 0; id < this.size; id++) {
      const hash = this.hashOf(id)
      let s = hash & this.mask
      while (slots[2 * s] !== 0) s = (s + 1) & this.mask
      slots[2 * s] = id + 1
      slots[2 * s + 1] = hash
    }
  }
}

/**
 * The power of two ≥ 4/3·entries: load ≤ 3/4 (½ before: the barcode table at
 * its cap took 4M slots, 33 MB, now 2M; probes stay within a cache line or
 * two; bench/results.md, ADR 0009's first round).
 */
function slotCountFor(entries: number): number {
  let n = 16
  while (3 * n < 4 * entries) n *= 2
  return n
}

/** A CountTable from an exported state (for merging and for statsJson). */
export function countTableFrom(state: CountTableState, maxEntries: number): CountTable {
  const t = new CountTable(state.keyWords, Math.max(maxEntries, state.size), Math.max(state.size, 1))
  t.addState(state)
  return t
}

/**
 * A histogram of non-negative integers: a dense array below `dense`, a
 * CountTable (exact, uncapped: its keys are few) above.
 */
export class Histogram {
  readonly dense: Float64Array
  readonly sparse: CountTable
  private readonly word = new Uint32Array(2)

  constructor(dense: number) {
    this.dense = new Float64Array(dense)
    this.sparse = new CountTable(2, Number.MAX_SAFE_INTEGER, 16)
  }

  add(value: number, n = 1): void {
    if (value < this.dense.length) {
      this.dense[value]! += n
      return
    }
    this.word[0] = value % 0x100000000
    this.word[1] = Math.floor(value / 0x100000000)
    this.sparse.add(this.word, 0, n)
  }

  /** [value, count] pairs with count > 0, ascending value. */
  entries(): [number, number][] {
    const out: [number, number][] = []
    this.dense.forEach((n, v) => {
      if (n > 0) out.push([v, n])
    })
    const big: [number, number][] = []
    for (let id = 0; id < this.sparse.size; id++) {
      const v = this.sparse.keys[2 * id]! + this.sparse.keys[2 * id + 1]! * 0x100000000
      big.push([v, this.sparse.counts[id]!])
    }
    big.sort((a, b) => a[0] - b[0])
    return out.concat(big)
  }

  exportState(): HistogramState {
    return { dense: this.dense.slice(), sparse: this.sparse.exportState() }
  }

  addState(state: HistogramState): void {
    for (let v = 0; v < state.dense.length; v++) {
      const n = state.dense[v]!
      if (n > 0) this.add(v, n)
    }
    this.sparse.addState(state.sparse)
  }
}
