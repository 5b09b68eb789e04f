/**
 * Counting in typed arrays (issue 12 §1: no Map of strings). A CountTable maps
 * keys of `keyWords` u32 words to a count. Entries are stored densely in
 * insertion order (keys[id·W … id·W+W−1], counts[id]); an open-addressing
 * slot array (linear probing, load ≤ 1/2) holds id + 1, 0 meaning empty.
 * Past `maxEntries` an insert is refused (-1): the caller decides what an
 * approximation does then (docs/stats.md).
 */
import type { CountTableState, HistogramState } from './types'

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

/** A 32-bit hash of `n` words at `words[at]`, seeded (different seeds give independent hashes). */
export function hashWords(words: ArrayLike<number>, at: number, n: number, seed: number): number {
  let h = seed >>> 0
  for (let i = 0; i < n; i++) {
    h = mix32((h ^ Math.imul(words[at + i]! >>> 0, 0xcc9e2d51)) + 0x9e3779b9 + i)
  }
  return mix32(h ^ n)
}

const SLOT_SEED = 0x2545f491

export class CountTable {
  readonly keyWords: number
  readonly maxEntries: number
  size = 0
  keys: Uint32Array
  counts: Float64Array
  private slots: Int32Array
  private mask: number

  constructor(keyWords: number, maxEntries: number, initial = INITIAL_ENTRIES) {
    this.keyWords = keyWords
    this.maxEntries = maxEntries
    const cap = Math.min(initial, maxEntries)
    this.keys = new Uint32Array(cap * keyWords)
    this.counts = new Float64Array(cap)
    this.slots = new Int32Array(slotCountFor(cap))
    this.mask = this.slots.length - 1
  }

  get full(): boolean {
    return this.size >= this.maxEntries
  }

  /** Bytes held by the arrays (for the memory budget in docs/stats.md). */
  get bytes(): number {
    return this.keys.byteLength + this.counts.byteLength + this.slots.byteLength
  }

  /** The id of the key at `words[at]`, or -1. */
  find(words: ArrayLike<number>, at: number): number {
    const W = this.keyWords
    let s = hashWords(words, at, W, SLOT_SEED) & this.mask
    for (;;) {
      const v = this.slots[s]!
      if (v === 0) return -1
      if (this.sameKey(v - 1, words, at)) return v - 1
      s = (s + 1) & this.mask
    }
  }

  /** Adds `n` to the key's count, inserting it; -1 (and nothing counted) when new and the table is full. */
  add(words: ArrayLike<number>, at: number, n: number): number {
    const W = this.keyWords
    let s = hashWords(words, at, W, SLOT_SEED) & this.mask
    for (;;) {
      const v = this.slots[s]!
      if (v === 0) break
      if (this.sameKey(v - 1, words, at)) {
        this.counts[v - 1]! += n
        return v - 1
      }
      s = (s + 1) & this.mask
    }
    if (this.size >= this.maxEntries) return -1
    if (this.size === this.counts.length) {
      this.grow()
      return this.add(words, at, n)
    }
    const id = this.size++
    for (let i = 0; i < W; i++) this.keys[id * W + i] = words[at + i]!
    this.counts[id] = n
    this.slots[s] = id + 1
    return id
  }

  /** Keeps the entries for which `keep(id)` is true, in order; rebuilds the slots. */
  retain(keep: (id: number) => boolean): void {
    const W = this.keyWords
    let out = 0
    for (let id = 0; id < this.size; id++) {
      if (!keep(id)) continue
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

  private sameKey(id: number, words: ArrayLike<number>, at: number): boolean {
    const W = this.keyWords
    const base = id * W
    for (let i = 0; i < W; i++) if (this.keys[base + i] !== words[at + i]! >>> 0) return false
    return true
  }

  private grow(): void {
    const cap = Math.min(this.counts.length * 2, this.maxEntries)
    const keys = new Uint32Array(cap * this.keyWords)
    keys.set(this.keys)
    const counts = new Float64Array(cap)
    counts.set(this.counts)
    this.keys = keys
    this.counts = counts
    this.slots = new Int32Array(slotCountFor(cap))
    this.mask = this.slots.length - 1
    this.rebuildSlots()
  }

  private rebuildSlots(): void {
    this.slots.fill(0)
    for (let id = 0; id < this.size; id++) {
      let s = hashWords(this.keys, id * this.keyWords, this.keyWords, SLOT_SEED) & this.mask
      while (this.slots[s] !== 0) s = (s + 1) & this.mask
      this.slots[s] = id + 1
    }
  }
}

/** The power of two ≥ 2·entries (load ≤ 1/2 keeps linear probes short). */
function slotCountFor(entries: number): number {
  let n = 16
  while (n < 2 * entries) n *= 2
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
