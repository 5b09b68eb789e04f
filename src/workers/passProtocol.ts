/**
 * The contract of the export and cells workers (protocol.ts re-exports it; docs/architecture.md
 * §2): the jobs they are given besides the file, and their replies. Types only.
 */
import type { SnappyFrameTable } from '../io/snappySource'
import type { SourceSpec } from '../io/sourceSpec'
import type { ExportFormat, ExportSummary } from '../io/exportSelection'
import type { ChunkIndex } from '../rad/chunkIndex'
import type { CellQcPart, CellsCut, CellsResult, SortedAnnotations } from '../rad/cells'
import type { CellsKey, KeptCells } from '../rad/cells/cellsSection'
import type { RecordFilter } from '../rad/filter/recordFilter'
import type { BarcodeSet } from '../rad/stats'
import type { ByteSink } from '../rad/subsetWriter'
import type { NbytesConvention, Prelude } from '../rad/types'

/** Which records the user picked in the export dialog. */
export type ExportPick =
  /** Every record the filter matches (the filter is run again: all matches, not only the kept ones). */
  | { kind: 'filter'; filter: RecordFilter }
  /** Chunks from–to, 0-based, inclusive. */
  | { kind: 'chunks'; from: number; to: number }
  /** Records whose barcode is one of the cells above the knee plot's cut-off. */
  | { kind: 'cells'; barcodes: BarcodeSet }

/** Everything the export worker needs besides the file (plain data, structured-clonable). */
export interface ExportJob {
  format: ExportFormat
  pick: ExportPick
  prelude: Prelude
  container: 'none' | 'snappy-framed'
  /** A .sz file's frame table, as the index worker walked it. */
  frames?: SnappyFrameTable | undefined
  /** The session's chunk index (offsets in the RAD stream) and nbytes convention. */
  index: ChunkIndex
  convention: NbytesConvention
}

export interface ExportWorkerApi {
  /**
   * Streams the export to the page's sink (a Comlink proxy: every call is a
   * message, awaited one at a time, so the sink's backpressure reaches the
   * walk and the worker holds one chunk).
   */
  run(
    spec: SourceSpec,
    job: ExportJob,
    sink: ByteSink,
    onProgress: (visited: number, total: number | undefined) => void,
  ): Promise<ExportSummary>
}

/** Everything the cells worker needs besides the file (plain data, structured-clonable). */
export interface CellsJob {
  prelude: Prelude
  index: ChunkIndex
  convention: NbytesConvention
  container: 'none' | 'snappy-framed'
  /** A .sz file's frame table, as the index worker walked it. */
  frames?: SnappyFrameTable | undefined
  cut: CellsCut
  /** The annotation files as the user gave them, under any names, gzip allowed: sorted by content. */
  files: File[]
  /** The mito pattern on gene labels (DEFAULT_MITO unless the user gave one). */
  mito: string
  /** Passes the cache or the sidecar kept for this file (cellsSection.ts): one of the same key is shown, not walked. */
  kept?: KeptCells[]
}

/**
 * The cells pass's figures, and what each given file was taken for; `from` says whether they
 * were counted now ('pass') or kept by the page's cache or `rad index`'s sidecar.
 */
export interface CellsReply extends CellsResult {
  files: SortedAnnotations['kinds']
  /** What chose the cells: the files' content keys, the mito pattern, the cut-off. */
  key: CellsKey
  /** The content key of each of `files`, in their order. */
  fingerprints: string[]
  from: 'pass' | 'cache' | 'sidecar'
}

/** The share of a walk a cells worker counts: the chunks of part `part` of `parts` (by records). */
export interface CellsShare {
  part: number
  parts: number
}

/**
 * A cells worker (docs/cells.md, "On every core"): the lead (share 0) is asked for a kept pass
 * first; without one, each of the K workers counts its share; the others' counts go to the
 * lead's `finish`, which makes the figures.
 */
export interface CellsWorkerApi {
  /** A kept pass of the job's files and cut-off, or undefined; reads nothing of the file. */
  kept(job: CellsJob): Promise<CellsReply | undefined>
  /** Counts the share's chunks: the lead keeps its counts (undefined), the others return theirs. */
  count(
    spec: SourceSpec,
    job: CellsJob,
    share: CellsShare,
    onProgress: (visited: number, total: number | undefined) => void,
  ): Promise<CellQcPart | undefined>
  /** The lead: the figures of its counts and the others'. */
  finish(others: CellQcPart[]): Promise<CellsReply>
}
