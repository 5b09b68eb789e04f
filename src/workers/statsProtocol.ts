/**
 * The statistics pass's half of the decode workers' contract (protocol.ts
 * has the rest): each worker decodes its batches and feeds its own
 * accumulator (src/rad/stats/); only the accumulators' states (typed arrays,
 * transferred) and the small report cross to the page.
 */
import type { RadErrorData } from '../rad/errors'
import type { RankCurve } from '../rad/stats/logDownsample'
import type { NbytesConvention } from '../rad/types'
import type { ChunkRequest } from './protocol'
import type { BarcodeSet, Cutoff, StatsJson, StatsState } from '../rad/stats'

export interface StatsBatchResult {
  /** Chunks added to the worker's accumulator. */
  chunks: number
  bytes: number
  records: number
  /** Chunks that could not be decoded (the index reported them already): skipped. */
  failed: { chunk: number; error: RadErrorData }[]
}

export interface StatsReport {
  json: StatsJson
  /** The barcode-rank curve, thinned in log space; undefined for files without a cell barcode. */
  curve: RankCurve | undefined
}

export interface StatsWorkerApi {
  /** Starts pass `pass` on this worker: a fresh accumulator (any earlier pass's state is dropped). */
  statsBegin(pass: number): Promise<void>
  /** Decodes back-to-back chunks with one read and adds them to the accumulator; bad chunks are skipped. */
  statsBatch(pass: number, batch: ChunkRequest[], convention: NbytesConvention): Promise<StatsBatchResult>
  /** This worker's state since the last drain (transferred), and a fresh accumulator. */
  statsDrain(pass: number): StatsState
  /** Adds other workers' drained states to this worker's accumulator (the pass's total). */
  statsMerge(pass: number, states: StatsState[]): void
  /** The JSON and the plot's data of this worker's accumulator. */
  statsReport(pass: number): StatsReport
  /** alevin-fry's --expect-cells / --force-cells cut-offs on this worker's accumulator. */
  statsCutoffs(pass: number, expectCells: number | undefined, forceCells: number | undefined): StatsCutoffs
  /** The barcodes with at least `minCount` records in this worker's accumulator (the export's cells above a cut-off). */
  statsBarcodesAtLeast(pass: number, minCount: number): BarcodeSet
  /** `rad stats FILE --tsv` of this worker's accumulator (barcodeTsv, flagged at the knee), as text. */
  statsTsv(pass: number): string
  /** Frees this worker's accumulator. */
  statsEnd(pass: number): void
}

/** alevin-fry's alternatives to the knee (src/rad/stats/knee.ts), for numbers the user typed. */
export interface StatsCutoffs {
  expect: Cutoff | undefined
  force: Cutoff | undefined
}
