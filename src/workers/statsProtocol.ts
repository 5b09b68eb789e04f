/**
 * The statistics pass's messages to a decode worker (statsWorker.ts; docs/stats.md, ADR 0004 and
 * 0009): begin, batches, rows handed between bucket owners, snapshots, drains, merges, reports.
 * protocol.ts re-exports them.
 */
import type { NbytesConvention } from '../rad/types'
import type { BarcodeSet, Cutoff, StatsState } from '../rad/stats'
import type { StatsReport } from '../rad/stats/section'
import type { BadChunk, ChunkRequest } from './chunkRequest'

export interface StatsBatchResult {
  /** Chunks added to the worker's accumulator. */
  chunks: number
  bytes: number
  records: number
  /** Chunks that could not be decoded (the index reported them already): skipped. */
  bad: BadChunk[]
  /**
   * Pairs (barcode, UMI) of the batch whose buckets another worker owns, by owner (statsBegin's
   * `owners`; bench/results.md, ADR 0009's seventh and eighth rounds): the pass hands them to it
   * (statsRows). Empty where the workers have channels to each other (statsPeers.ts).
   */
  foreign: (Uint32Array | undefined)[]
}

/** A worker's share of the exact pairs' buckets: the `index`th of `count` ranges (StatsOptions.bucketOwners). */
export interface BucketOwners {
  count: number
  index: number
}

/** A statistics report (the JSON and the knee curve): src/rad/stats/section.ts, shared with the sidecar's section. */
export type { StatsReport }

/**
 * A worker's share of the pass's memory when its exact pairs may spill to the origin's private
 * file system (opfsSpill.ts; ADR 0015): its lists' budget and keys waiting, and the room its spill
 * file may need (asked of the storage quota first: without it, no spill).
 */
export interface SpillPlan {
  budget: number
  pendingKeys: number
  bytes: number
  /**
   * Barcodes the worker keeps a row for (the per-barcode TSV, the cells): past it, its spilled
   * barcodes are folded into a digest at the end (ADR 0016), and its partial reports count the
   * barcodes in memory only.
   */
  rowsUpTo: number
}

/**
 * The index walk's bytes to a statistics worker (walkFeed.ts, statsFeed.ts; ADR 0017): whole
 * chunks the walk has checked, copied into a buffer the walk lends. `segments` are triples
 * (file offset, length, first chunk's number) in the buffer's order; `end` says the walk sends no
 * more. The worker answers each buffer with `free`, giving it back.
 */
export type FeedMessage =
  | { kind: 'bytes'; buffer: ArrayBuffer; length: number; segments: number[]; convention: NbytesConvention }
  | { kind: 'end' }
export interface FeedAnswer {
  kind: 'free'
  buffer: ArrayBuffer
}

/** What the walk fed the pass (ScanSummary.fed): byte ranges [start, end) flattened, in file order. */
export interface FedRanges {
  ranges: number[]
  bytes: number
  chunks: number
}

/** What a worker counted of the walk's bytes (statsFedDone). */
export interface FedTotals {
  chunks: number
  bytes: number
  records: number
  bad: BadChunk[]
}

export interface StatsWorkerApi {
  /**
   * Starts pass `pass` on this worker: a fresh accumulator (any earlier pass's state is dropped)
   * appending only the pairs of its `owners` share of the buckets (all of them by default),
   * spilling its lists to a file past `spill.budget` when the origin's storage has the room.
   */
  statsBegin(pass: number, owners?: BucketOwners, spill?: SpillPlan): Promise<void>
  /** Decodes back-to-back chunks with one read and adds them to the accumulator; bad chunks are skipped. */
  statsBatch(pass: number, batch: ChunkRequest[], convention: NbytesConvention): Promise<StatsBatchResult>
  /**
   * Channels to the other workers of the pass (`ports[o]` to owner o, undefined for itself): the
   * rows of their buckets go to them directly (statsPeers.ts), and StatsBatchResult.foreign stays
   * empty. Without it the page hands them over (statsRows).
   */
  statsPeers(pass: number, ports: (MessagePort | undefined)[]): Promise<void>
  /** Resolves once every peer's rows sent over the channels were counted here (the pass's end). */
  statsPeersDone(pass: number): Promise<void>
  /**
   * The channel the index walk sends its checked chunks over (FeedMessage): counted as they come,
   * each buffer given back (ADR 0017).
   */
  statsFeed(pass: number, port: MessagePort): Promise<void>
  /** Resolves, once the walk's `end` has come and everything it sent is counted, with what was. */
  statsFedDone(pass: number): Promise<FedTotals>
  /** Counts pairs of this worker's buckets another worker decoded (its StatsBatchResult.foreign). */
  statsRows(pass: number, rows: Uint32Array): void
  /**
   * This worker's state since the last drain (transferred), and a fresh accumulator. `figures`
   * leaves the exact pairs' UMIs out (StateExport): for a worker whose state merges into another
   * counting exactly, of other buckets.
   */
  statsDrain(pass: number, what?: 'whole' | 'figures'): StatsState
  /**
   * At the pass's end (its rows all added): merges what this worker spilled into its state and
   * removes its file, so every worker merges at once, not one after another at its drain.
   */
  statsSettle(pass: number, what: 'whole' | 'figures'): void
  /** Whether this worker counts the pairs exactly (its pass's rows all added). */
  statsExactPairs(pass: number): boolean
  /**
   * A copy of this worker's state for a partial report, without the exact pairs' UMIs
   * (reportState): the accumulator goes on counting (bench/results.md, ADR 0009's eighth round).
   */
  statsSnapshot(pass: number): StatsState
  /** Adds other workers' drained states to this worker's accumulator (the pass's total). */
  statsMerge(pass: number, states: StatsState[]): void
  /**
   * The JSON and the plot's data of this worker's accumulator, or, with `others` (the other
   * workers' snapshots, each owning its own buckets), of their sum so far: a partial report.
   */
  statsReport(pass: number, others?: StatsState[]): StatsReport
  /** alevin-fry's --expect-cells / --force-cells cut-offs on this worker's accumulator. */
  statsCutoffs(pass: number, expectCells: number | undefined, forceCells: number | undefined): StatsCutoffs
  /** The barcodes with at least `minCount` records in this worker's accumulator (the export's cells above a cut-off). */
  statsBarcodesAtLeast(pass: number, minCount: number): BarcodeSet
  /** `rad stats FILE --tsv` of this worker's accumulator (barcodeTsv, flagged at the knee), as text. */
  statsTsv(pass: number): string
  /** Bytes this worker's pass spilled to its file so far (ADR 0015): 0 when it never spilled. */
  statsSpilled(pass: number): number
  /** Frees this worker's accumulator. */
  statsEnd(pass: number): void
}

/** alevin-fry's alternatives to the knee (src/rad/stats/knee.ts), for numbers the user typed. */
export interface StatsCutoffs {
  expect: Cutoff | undefined
  force: Cutoff | undefined
}
