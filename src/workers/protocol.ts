/**
 * The whole contract between the main thread (src/session/) and the workers
 * (docs/architecture.md §2): every request, reply and progress type (the statistics pass's in
 * statsProtocol.ts, the export and cells workers' in passProtocol.ts, re-exported here), and the
 * bulk pass's constants; types and constants only. Only plain data crosses: the File handle and small
 * numbers go in; the prelude, index slices and decoded chunk columns (typed
 * arrays, transferred) come out. No class instance crosses except RadError,
 * which comlinkErrors.ts rebuilds on the other side.
 */
import type { FileFingerprint } from '../io/fileFingerprint'
import type { SalvagePlan } from '../io/salvage'
import type { RemoteVersion, SourceSpec } from '../io/sourceSpec'
import type { ScanProgress } from '../io/scanChunks'
import type { ScanTiming } from '../io/scanPace'
import type { SnappyFrameTable } from '../io/snappySource'
import type { ChunkIndex } from '../rad/chunkIndex'
import type { RadErrorData } from '../rad/errors'
import type { DroppedSection, HashedFingerprint } from '../rad/sidecar/sidecar'
import type { IntegrityIssue, IntegrityStatus } from '../rad/checks/integrity'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'
import type { CompiledFilter } from '../rad/filter/recordFilter'
import type { BadChunk, ChunkRequest } from './chunkRequest'
import type { FedRanges, StatsReport, StatsWorkerApi } from './statsProtocol'

/** What the index worker learns as soon as the prelude is read. */
export interface OpenedFile {
  prelude: Prelude
  /** 'snappy-framed' when the file was a whole-file Snappy stream (.sz). */
  container: 'none' | 'snappy-framed'
  /** Size of the file itself. */
  fileSize: number
  /** Size of the RAD stream (differs from fileSize for .sz). */
  sourceSize: number
  /** The file's size and the bytes at both ends when it was opened: the page re-checks them (docs/integrity.md). */
  fingerprint: FileFingerprint
  /** The sidecar fingerprint (64 KiB ends hashed): what deep links, the index cache and sidecars name the file by (fingerprintKey). */
  hashed: HashedFingerprint
  /**
   * The page's index cache key (ADR 0007) without the modification time: the fingerprint key and a
   * sample of the file's middle (contentSample), `SIZE-HEADTAIL~SAMPLE`. Only when the page keeps a cache.
   */
  cacheKey?: string
  /** For a .sz file, the frame table the index worker walked: decode workers reuse it. */
  frames?: SnappyFrameTable
  /** A URL's size and ETag/Last-Modified as first read: the decode workers read against this version. */
  remote?: RemoteVersion
}

export type { ScanProgress }

/** Where a session's index came from: a walk of the file, a `.rdx` sidecar, or the page's index cache (knownIndex.ts). */
export type IndexSource = 'scan' | 'sidecar' | 'cache'

/** Callbacks the index worker calls while it scans (passed as a Comlink.proxy). */
export interface ScanEvents {
  opened(file: OpenedFile): void
  /** The first chunks, indexed and decoded, so records show before the walk gets going. */
  first(index: ChunkIndex, chunks: ChunkColumns[], convention: NbytesConvention): void
  /** New index entries since the last call; buffers are transferred. */
  index(added: ChunkIndex, convention: NbytesConvention): void
  progress(p: ScanProgress): void
  /** Before anything else: whether a sidecar's index is used, or why a sidecar given was rejected. */
  indexSource(source: IndexSource, rejected: string | undefined): void
  /** Asked once the fingerprint and the content sample are known, when ScanRequest.useCache: the `.rdx` bytes the page keeps for this key (OpenedFile.cacheKey), if any. */
  cachedIndex(key: string): Uint8Array | undefined | Promise<Uint8Array | undefined>
  /** The cached index could not be used (it is then dropped and the file scanned), in plain words. */
  cacheRejected(key: string, why: string): void
}

/**
 * "Save the valid part" (docs/integrity.md), planned by the index worker (io/salvage.ts):
 * the download is `head` followed by `file.slice(start, end)` for each range, put
 * together by salvagedFile (io/salvage.ts) without reading a byte of the file.
 */
export type SalvageOffer = SalvagePlan

export interface ScanSummary {
  /** False when the prelude could not be read (not RAD, empty, cut in the header…). */
  preludeRead: boolean
  chunks: number
  records: number
  /** Alignments in the checked chunks (undefined when the walk did not finish). */
  alignments: number | undefined
  convention: NbytesConvention
  /** End of the last good chunk. */
  endOffset: number
  /** The first problem in the chunk walk; every chunk before it is indexed. */
  error: RadErrorData | undefined
  /** The integrity report: every problem, with its chunk and absolute byte offset. */
  issues: IntegrityIssue[]
  /** Every chunk whose records are damaged (the issues list at most 1,000 of them). */
  damagedChunks: number[]
  /** 'incomplete' when the scan was cancelled: the rest of the file was not checked. */
  status: IntegrityStatus | 'incomplete'
  /** The salvage plan when the file is damaged and a browser can write it (not for .sz). */
  salvage: SalvageOffer | undefined
  warnings: string[]
  cancelled: boolean
  elapsedMs: number
  /** Where the chunk walk's time went, when it ran (bench/results.md reports it). */
  timing?: ScanTiming
  /**
   * Compressed files: milliseconds from the start until every chunk was
   * indexed, before the records' checks pass (ADR 0003). The summary, and so
   * the integrity verdict, comes only when that pass has finished.
   */
  mappedMs?: number
  /**
   * Sections of a sidecar's or cached index's that were read but not used (their shape is not the
   * expected one; docs/sidecar.md): the page says so. A dropped verdict leaves status 'incomplete'.
   */
  dropped?: DroppedSection[]
  /**
   * Whole-file statistics a sidecar or the index cache held, or the walk counted
   * (ScanRequest.countStats), as a StatsReport in JSON (src/rad/stats/section.ts): shown instead
   * of a new pass.
   */
  stats?: unknown
  /**
   * The chunks the walk fed the statistics pass as it went (ScanRequest.feed, ADR 0017); the pass
   * reads the others itself. Absent when it fed none (no feed, a known index, compressed chunks).
   */
  fed?: FedRanges
  /**
   * Cells passes a sidecar or the index cache kept, under their annotations' fingerprints and
   * cut-offs (src/rad/cells/cellsSection.ts, JSON as stored): shown instead of a pass when the
   * same files are given at the same cut-off.
   */
  cells?: unknown
}

export interface ScanRequest {
  /**
   * Check records in a checker worker beside the walk (ADR 0002) rather than
   * inside it. Pays only with a spare core: see CHECK_BESIDE_MIN_CORES (indexWorkerLink.ts).
   */
  checkBeside: boolean
  /** A `.rdx` sidecar index of the file (docs/sidecar.md): used when it matches, else the file is scanned. */
  sidecar?: Blob
  /** The page keeps an index cache: ask it (ScanEvents.cachedIndex) before scanning. */
  useCache?: boolean
  /** Scan whatever is known (docs/sidecar.md, "Check every record"): no sidecar, not even the one beside a URL. */
  fresh?: boolean
  /**
   * Count the whole-file statistics during the walk, in the record checker (walkCount.ts), and
   * return them in the summary: the page asks for a URL, whose statistics pass would download the
   * file a second time (docs/stats.md, "One read for a URL"). The records are then checked beside
   * the walk whatever `checkBeside` says (the counting needs the checker's thread). A file
   * installed from a sidecar or the cache is not walked and counts nothing.
   */
  countStats?: boolean
  /**
   * One channel a decode worker: the walk sends them the chunks it has checked, for the
   * statistics pass the page began beside it (walkFeed.ts, ADR 0017), so a local file is read
   * once for both. Only plain chunks walked in the index worker's own thread are fed.
   */
  feed?: MessagePort[]
}

export interface IndexApi {
  /**
   * Reads the prelude, then walks and checks every chunk. Problems with the
   * file (a prelude that cannot be read included) are in the summary; only
   * internal failures reject.
   */
  scan(source: SourceSpec, jobId: number, events: ScanEvents, options?: ScanRequest): Promise<ScanSummary>
  /** Stops scan `jobId` at its next read; the chunks found so far stay indexed. */
  cancel(jobId: number): void
  /**
   * Pauses scan `jobId`'s walk for the next `ms` (at most 1 s): the page asks
   * while the user scrolls, so its frames get the CPU on a machine with few
   * cores (bench/results.md). Later calls extend or shorten the pause.
   */
  holdFor(jobId: number, ms: number): void
  /** The statistics pass fed by scan `jobId` is gone: the walk feeds it no more (ADR 0017). */
  stopFeed(jobId: number): void
  /** Answers at once: the page's heartbeat, to notice a worker that died without an error event. */
  ping(): number
}

export type { BadChunk, ChunkRequest } from './chunkRequest'

/** The table's decode of a batch: the good chunks' columns in order, and the bad chunks. */
export interface DecodedBatch {
  columns: ChunkColumns[]
  bad: BadChunk[]
}

export interface DecodeApi {
  /** Called once per worker; every decode call waits for it. `frames`: a .sz file's frame table (OpenedFile). */
  open(
    source: SourceSpec,
    prelude: Prelude,
    container: OpenedFile['container'],
    frames: SnappyFrameTable | undefined,
  ): Promise<void>
  /**
   * Decodes chunks that lie back to back in the file with one read (walkBatch.ts). Returns the
   * columns of every good chunk, in order, and the bad ones with why (the one bad-chunk rule).
   *
   * The columns of one call may share a buffer (they are views on the
   * batch's bytes, decoded in place). `spare`, a buffer the caller is done
   * with (transferred back, e.g. one an earlier call returned), is read into
   * instead of fresh memory when it is large enough.
   */
  decode(batch: ChunkRequest[], convention: NbytesConvention, spare?: ArrayBuffer): Promise<DecodedBatch>
  /** Reads both ends of the file again: rejects with FILE_CHANGED unless they match `fingerprint`. */
  recheck(fingerprint: FileFingerprint): Promise<void>
  /** Decodes back-to-back chunks and returns only the numbers of the records matching a filter (filterBatch.ts). */
  filter(batch: ChunkRequest[], convention: NbytesConvention, job: FilterJob): Promise<FilterBatchResult>
}

/**
 * A bulk pass reads this much per call: a Blob read costs the worker's
 * thread ~0.8 ms before its first byte, and the browser's own read work per
 * byte falls with size (one worker: 4 MiB reads 0.63 GB/s, 16 MiB 1.07,
 * 64 MiB 1.2)…
 */
export const BULK_BATCH_BYTES = 32 << 20

/** …with this many calls in flight per worker (the next batch's read overlaps this one's decoding). */
export const BULK_DEPTH = 2

/** What the page asks a decode worker to match (plain data). */
export interface FilterJob {
  filter: CompiledFilter
  /**
   * The file is alevin-fry collate output (one chunk per corrected barcode,
   * docs/format.md §4.3): a barcode-only filter is answered from each chunk's
   * first record, without decoding its columns.
   */
  collated: boolean
}

/** The matches in one batch: per chunk with any, its count, then the indices (in the chunk) of all, concatenated. */
export interface FilterBatchResult {
  /** Chunks of the batch with at least one match, in order. */
  chunks: Uint32Array
  /** Matches in each of `chunks`. */
  counts: Uint32Array
  /** 1 where every record of the chunk matches (collated fast path): its indices are not listed in `records`. */
  whole: Uint8Array
  /** Indices within their chunk of the matching records, chunk after chunk (whole chunks left out). */
  records: Uint32Array
  /** Chunks that could not be decoded: skipped (the integrity report names them). */
  bad: BadChunk[]
}

/** What a decode worker exposes: decoding (protocol.ts) and the statistics pass (statsProtocol.ts). */
export type DecodeWorkerApi = DecodeApi & StatsWorkerApi

export type {
  CellsJob,
  CellsReply,
  CellsShare,
  CellsWorkerApi,
  ExportJob,
  ExportPick,
  ExportWorkerApi,
} from './passProtocol'
export type {
  BucketOwners,
  FedRanges,
  FedTotals,
  FeedAnswer,
  FeedMessage,
  SpillPlan,
  StatsBatchResult,
  StatsCutoffs,
  StatsReport,
  StatsWorkerApi,
} from './statsProtocol'

/** Chunks copied back to back; entry i is chunk[i] at file offset offset[i], bytes [start[i], start[i+1]). */
export interface CheckBatch {
  bytes: Uint8Array
  chunk: Uint32Array
  offset: Float64Array
  /** count + 1 entries. */
  start: Uint32Array
  count: number
  convention: NbytesConvention
}

export interface CheckResult {
  alignments: number
  issues: IntegrityIssue[]
  /** Chunk-local faults, including those beyond the listed issues. */
  damaged: number
  /** Every damaged chunk, listed in `issues` or not (a salvage must leave them all out). */
  damagedChunks: number[]
}

/**
 * What the record checker worker exposes (check.worker.ts; recordChecks.ts makeCheckerApi): open
 * once per file, then check batches; opened with `count`, it also counts the whole-file statistics
 * of every chunk it is given, and `counted` answers with their report once the walk is over.
 */
export interface CheckerApi {
  open(prelude: Prelude, count?: boolean): void
  check(batch: CheckBatch): CheckResult
  counted(): StatsReport | undefined
}
