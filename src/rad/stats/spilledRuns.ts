/**
 * The exact pairs' lists spilled to disk when they pass a memory budget (docs/stats.md, "Exact
 * at any size"; docs/adr/0015): each bucket's lists are written out as they are (sorted) and the
 * counting core starts that bucket again empty; at the end each bucket's spilled lists and what
 * the core still holds are merged, one bucket at a time, so the memory of the end is one bucket's
 * (a 256th of the pairs), not the file's. A bucket's lists are exact however they were split:
 * mergeLists adds a barcode's reads and a pair's parities.
 *
 * The store is synchronous: counters run in worker threads (a temporary file, cli/spillFile.ts)
 * and page workers (the Origin Private File System's sync access handles).
 */
import { BUCKETS, listBytes, listsIn, mergeFigures, mergeLists } from './partitionLists'
import type { BucketLists } from './partitionLists'
import { oddWords } from './partitionFigures'
import type { SpillStore } from './statsTypes'

export type { SpillOptions, SpillStore } from './statsTypes'

/** One bucket's lists as spilled: reads (f64), then low bits, distinct UMIs (u32 each) and the pairs (u32). */
interface Segment {
  offset: number
  barcodes: number
  pairs: number
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
}

/** Free buffers a pool keeps at most (a bucket's merge holds about as many at once). */
const POOL_BUFFERS = 16

/**
 * Buffers the end's merge reuses from bucket to bucket (the buckets' sizes are alike). Fresh
 * arrays for every segment read and every merge were garbage the collector let pile up: ~150 MiB
 * a worker at the end of the page's pass on a 4 GiB run (bench/results.md, issue 35).
 */
class BufferPool {
  private readonly free: ArrayBuffer[] = []

  /** The smallest free buffer of at least `bytes`, or a new one a quarter larger. */
  take(bytes: number): ArrayBuffer {
    let best = -1
    for (let i = 0; i < this.free.length; i++) {
      const n = this.free[i]!.byteLength
      if (n >= bytes && (best < 0 || n < this.free[best]!.byteLength)) best = i
    }
    if (best >= 0) return this.free.splice(best, 1)[0]!
    return new ArrayBuffer(8 * Math.ceil((1.25 * bytes) / 8))
  }

  /** Takes `buffer` back; past POOL_BUFFERS the smallest is let go. */
  give(buffer: ArrayBuffer): void {
    this.free.push(buffer)
    if (this.free.length <= POOL_BUFFERS) return
    let smallest = 0
    for (let i = 1; i < this.free.length; i++) {
      if (this.free[i]!.byteLength < this.free[smallest]!.byteLength) smallest = i
    }
    this.free.splice(smallest, 1)
  }
}

export class SpilledRuns {
  private readonly store: SpillStore
  private readonly segments: Segment[][] = Array.from({ length: BUCKETS }, () => [])
  /** Per bucket, the spilled barcodes' figures merged (pairs summed: an upper bound), when kept. */
  private figures: (BucketLists | undefined)[] | undefined
  /** Pairs with odd reads in each bucket's spilled lists, summed over spills (for partial reports). */
  private readonly oddSums = new Float64Array(BUCKETS)
  /** Barcodes the kept figures hold, and how many they may hold before they are dropped. */
  private keptBarcodes = 0
  private readonly keepUpTo: number
  /** Spills so far. */
  spills = 0
  private readonly pool = new BufferPool()

  constructor(store: SpillStore, keepFigures = false, keepUpTo = Infinity) {
    this.store = store
    this.figures = keepFigures ? [] : undefined
    this.keepUpTo = keepUpTo
  }

  /** Whether the spilled barcodes' figures were kept for partial reports (not dropped past their bound). */
  get figuresKept(): boolean {
    return this.figures !== undefined
  }

  /** Bucket b's spilled barcodes' figures so far (distinct UMIs summed over spills), if kept. */
  spilledFigures(b: number): { lists: BucketLists; odd: number } | undefined {
    if (!this.figures) return undefined
    const none = new Uint32Array(0)
    const lists = this.figures[b] ?? { barcodes: none, reads: new Float64Array(0), umiCounts: none, umis: none }
    return { lists, odd: this.oddSums[b]! }
  }

  /** Whether bucket b has lists on disk. */
  has(b: number): boolean {
    return this.segments[b]!.length > 0
  }

  /** Writes bucket b's lists (views may be of the core's memory: they are written, not kept). */
  write(b: number, lists: BucketLists): void {
    const n = lists.barcodes.length
    if (n === 0) return
    const offset = this.store.append([
      bytesOf(lists.reads),
      bytesOf(lists.barcodes),
      bytesOf(lists.umiCounts),
      bytesOf(lists.umis),
    ])
    this.segments[b]!.push({ offset, barcodes: n, pairs: lists.umis.length })
    if (this.figures) {
      const copy = {
        barcodes: lists.barcodes.slice(),
        reads: lists.reads.slice(),
        umiCounts: lists.umiCounts.slice(),
        umis: new Uint32Array(0),
      }
      const kept = this.figures[b]
      this.keptBarcodes -= kept?.barcodes.length ?? 0
      this.figures[b] = kept ? mergeFigures(kept, copy) : copy
      this.keptBarcodes += this.figures[b].barcodes.length
      this.oddSums[b] = this.oddSums[b]! + oddWords(lists.umis)
      // Past the bound they are dropped for good: partial reports then count what is in memory.
      if (this.keptBarcodes > this.keepUpTo) this.figures = undefined
    }
  }

  /** Lists for `barcodes` and `pairs` in a buffer of the pool (`taken` lists the buffers lent). */
  private pooledLists(barcodes: number, pairs: number, taken: Set<ArrayBuffer>): BucketLists {
    const buffer = this.pool.take(listBytes(barcodes, pairs))
    taken.add(buffer)
    return listsIn(buffer, barcodes, pairs)
  }

  /** Gives `lists`' buffer back to the pool if it was lent from it. */
  private giveBack(lists: BucketLists, taken: Set<ArrayBuffer>): void {
    const buffer = lists.reads.buffer as ArrayBuffer
    if (!taken.delete(buffer)) return
    this.pool.give(buffer)
  }

  /**
   * Bucket b's spilled lists and `more` (lists still in memory, views allowed) as one, merged two
   * by two, the smallest first (each pair merged is about the same size: no run is copied once a
   * run), handed to `use`: they live in the pool's buffers, valid only until `use` returns.
   */
  merged(b: number, more: readonly BucketLists[], use: (lists: BucketLists) => void): void {
    const taken = new Set<ArrayBuffer>()
    const room = (barcodes: number, pairs: number): BucketLists => this.pooledLists(barcodes, pairs, taken)
    const queue = this.segments[b]!.map((s) => {
      const lists = room(s.barcodes, s.pairs)
      this.store.read(s.offset, listBytes(s.barcodes, s.pairs), new Uint8Array(lists.reads.buffer))
      return lists
    })
    queue.push(...more.filter((l) => l.barcodes.length > 0))
    this.segments[b] = []
    this.keptBarcodes -= this.figures?.[b]?.barcodes.length ?? 0
    if (this.figures) this.figures[b] = undefined
    this.oddSums[b] = 0
    while (queue.length > 1) {
      queue.sort((x, y) => x.umis.length - y.umis.length)
      const [x, y] = queue.splice(0, 2) as [BucketLists, BucketLists]
      queue.push(mergeLists(x, y, room))
      this.giveBack(x, taken)
      this.giveBack(y, taken)
    }
    const lists = queue[0]
    if (lists) use(lists)
    for (const buffer of taken) this.pool.give(buffer)
  }
}
