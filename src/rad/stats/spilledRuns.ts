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
import { listsAt, roomBytes } from './pairCountingCore'
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
  /** The end's merges' two rooms (one block: the front, then the back), in `core`'s memory. */
  private room: { core: PairCountingCore; at: number; bytes: number } | undefined

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
   * Bucket b's spilled lists and `more` (lists in JavaScript's memory, merged in from elsewhere)
   * as one, handed to `use` as views of the counting core's memory,
   * valid only until `use` returns. They are merged in the core (assembly/listMerge.ts: no
   * garbage, a third of a spilled run's CPU in JavaScript) in rounds between two rooms of the
   * bucket's size: the lists laid out in one, each round merges them two by two into the other.
   * So the end's memory is twice the largest bucket, however many segments it has (a 20 GB run
   * has ~80 a bucket), and it is taken once, not a merge at a time (bench/results.md, ADR 0015).
   */
  merged(b: number, core: PairCountingCore, more: readonly BucketLists[], use: (lists: BucketLists) => void): void {
    const segments = this.segments[b]!
    const extra = more.filter((m) => m.barcodes.length > 0)
    if (segments.length + extra.length === 0) return
    // Laid out smallest first, so each round merges lists of like sizes (a short one is not
    // copied round after round beside a long one).
    const inputs = [
      ...segments.map((s) => ({
        ...s,
        fill: (l: CoreLists) => {
          this.readSegment(s, core, l)
        },
      })),
      ...extra.map((m) => ({
        barcodes: m.barcodes.length,
        pairs: m.umis.length,
        fill: (l: CoreLists) => {
          core.copyInto(l, m)
        },
      })),
    ].sort((x, y) => x.pairs - y.pairs)
    let [front, back] = this.rooms(
      core,
      inputs.reduce((sum, l) => sum + roomBytes(l.barcodes, l.pairs), 0),
    )
    let lists: CoreLists[] = []
    let at = front
    for (const input of inputs) {
      const l = listsAt(at, input.barcodes, input.pairs)
      input.fill(l)
      lists.push(l)
      at += roomBytes(input.barcodes, input.pairs)
    }
    this.segments[b] = []
    this.keptBarcodes -= this.figures?.[b]?.barcodes.length ?? 0
    if (this.figures) this.figures[b] = undefined
    this.oddSums[b] = 0
    while (lists.length > 1) {
      lists = mergeRound(core, lists, back)
      ;[front, back] = [back, front]
    }
    use(core.listsOf(lists[0]!))
  }

  /** Segment `s` read back into `l` (its room exactly the segment's size). */
  private readSegment(s: Segment, core: PairCountingCore, l: CoreLists): void {
    this.store.read(s.offset, listBytes(s.barcodes, s.pairs), core.listBytesOf(l))
    l.barcodes = s.barcodes
    l.pairs = s.pairs
  }

  /**
   * Two rooms of `bytes` each in the core's memory, kept from one bucket to the next (grown by a
   * quarter more when short: freed and made again now and then, not a bucket at a time).
   */
  private rooms(core: PairCountingCore, bytes: number): [number, number] {
    if (this.room && (this.room.core !== core || this.room.bytes < bytes)) this.releaseRooms()
    if (!this.room) {
      const half = 8 * Math.ceil((1.25 * bytes) / 8)
      this.room = { core, at: core.allocRoom(2 * half), bytes: half }
    }
    return [this.room.at, this.room.at + this.room.bytes]
  }

  /** Frees the merges' rooms (after the last bucket merged). */
  releaseRooms(): void {
    if (this.room) this.room.core.freeRoom(this.room.at)
    this.room = undefined
  }
}

/**
 * One round: `lists` (smallest first) merged two by two into the room at `to`, laid out one after
 * the other (each output's room is its inputs' counts: no larger than their rooms, so the round
 * fits in a room of the same size); with an odd number the smallest is copied across as it is.
 */
function mergeRound(core: PairCountingCore, lists: readonly CoreLists[], to: number): CoreLists[] {
  const out: CoreLists[] = []
  let at = to
  const place = (cap: number, pairCap: number): CoreLists => {
    const l = listsAt(at, cap, pairCap)
    at += roomBytes(cap, pairCap)
    out.push(l)
    return l
  }
  const first = lists.length % 2
  if (first) core.copyInto(place(lists[0]!.barcodes, lists[0]!.pairs), core.listsOf(lists[0]!))
  for (let i = first; i < lists.length; i += 2) {
    const x = lists[i]!
    const y = lists[i + 1]!
    core.mergeInto(x, y, place(x.barcodes + y.barcodes, x.pairs + y.pairs))
  }
  return out
}
