/** What the chunk scan (scanChunks.ts) is asked, reports as it goes, and returns. */
import type { CheckPlan } from '../rad/checks/checkPlan'
import type { ChunkIndex } from '../rad/chunkIndex'
import type { RadErrorData } from '../rad/errors'
import type { IntegrityIssue } from '../rad/checks/integrity'
import type { NbytesConvention } from '../rad/types'
import type { ScanTiming } from './scanPace'

export interface ScanProgress {
  bytesScanned: number
  bytesTotal: number
  chunks: number
  records: number
  elapsedMs: number
  /** Bytes fed to the statistics pass beside the walk so far (ADR 0017), when it feeds one. */
  fedBytes?: number
}

export type ChunkVerdict = boolean | undefined

export interface ScanChunksOptions {
  signal?: AbortSignal
  /**
   * Every chunk's on-disk bytes (header included). Throwing a RadError stops
   * the scan with that error; returning (or resolving to) true stops it quietly.
   */
  onChunk?: (
    bytes: Uint8Array,
    offset: number,
    chunk: number,
    convention: NbytesConvention,
  ) => ChunkVerdict | Promise<ChunkVerdict>
  /**
   * The bytes of each clean run (whole chunks that passed the header checks and, with `check`,
   * the records' checks), and of each chunk the careful path found sound (a run of one):
   * `chunks` chunks from `firstChunk` at file offset `start`. A promise holds the walk until it
   * settles (the statistics feed, walkFeed.ts). Only plain chunks.
   */
  onCleanRun?: (
    bytes: Uint8Array,
    start: number,
    firstChunk: number,
    chunks: number,
    convention: NbytesConvention,
  ) => Promise<void> | undefined
  /** Check every chunk's records in place (layout, reference ids, sequence widths). */
  check?: CheckPlan
  /** New index entries since the last call (fresh buffers, safe to transfer). */
  onIndex?: (added: ChunkIndex, convention: NbytesConvention) => void
  onProgress?: (p: ScanProgress) => void
  progressIntervalMs?: number
  blockSize?: number
  /**
   * Milliseconds the scan should stay paused now (0: go on). The page asks
   * for pauses while the user scrolls, so that on a machine with few cores
   * the scan does not take the CPU the page needs for its frames (docs/adr/0002).
   */
  held?: () => number
}

export interface ScanResult {
  index: ChunkIndex
  timing: ScanTiming
  records: number
  convention: NbytesConvention
  /** Where the scan stopped (end of the last good chunk). */
  endOffset: number
  /** Alignments in all chunks, when `check` was given. */
  alignments: number | undefined
  /** The problem that stopped the scan; every chunk before it is in `index`. */
  error: RadErrorData | undefined
  /** Everything worth saying about the file, the stopping error included. */
  issues: IntegrityIssue[]
  /** Every chunk whose records failed a check, listed in `issues` or not (a salvage leaves them out). */
  damagedChunks: number[]
  /** The messages of the issues that are not errors. */
  warnings: string[]
  /** True when `signal` stopped the scan: what it found before is kept; the rest was not read. */
  cancelled: boolean
}
