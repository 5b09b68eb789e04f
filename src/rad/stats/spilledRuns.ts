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
import { BUCKETS, listBytes, mergeFigures } from './partitionLists'
import type { CoreLists, PairCountingCore } from './pairCountingCore'
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

  /**
   * Bucket b's spilled lists and `more` (lists still in memory: their sizes, and the lists asked
   * for once the core has made their room) as one, merged two by two, the smallest first (each
   * pair merged is about the same size: no run is copied once a run), in the counting core's
   * memory (assembly/listMerge.ts: no garbage, and a third of a spilled run's CPU in JavaScript).
   * Handed to `use` as views of the core's memory, valid only until `use` returns.
   */
  merged(b: number, core: PairCountingCore, more: readonly ListsToCopy[], use: (lists: BucketLists) => void): void {
    const queue: CoreLists[] = this.segments[b]!.map((s) => {
      const lists = core.allocLists(s.barcodes, s.pairs)
      this.store.read(s.offset, listBytes(s.barcodes, s.pairs), core.listBytesOf(lists))
      lists.barcodes = s.barcodes
      lists.pairs = s.pairs
      return lists
    })
    for (const m of more) if (m.barcodes > 0) queue.push(core.copyIn(m.barcodes, m.pairs, m.lists))
    this.segments[b] = []
    this.keptBarcodes -= this.figures?.[b]?.barcodes.length ?? 0
    if (this.figures) this.figures[b] = undefined
    this.oddSums[b] = 0
    while (queue.length > 1) {
      queue.sort((x, y) => x.pairs - y.pairs)
      const [x, y] = queue.splice(0, 2) as [CoreLists, CoreLists]
      queue.push(core.mergeLists(x, y))
      core.freeLists(x)
      core.freeLists(y)
    }
    const last = queue[0]
    if (!last) return
    use(core.listsOf(last))
    core.freeLists(last)
  }
}

/** Lists to merge that are not in the core's room yet: their sizes, and the lists, asked for once the room is made. */
export interface ListsToCopy {
  barcodes: number
  pairs: number
  lists: () => BucketLists
}
