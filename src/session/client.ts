/**
 * The main thread's handle on one open file (docs/architecture.md §2), and the one
 * module the UI imports from workers/. It never reads the file's bytes: it
 * hands the File to an index worker (prelude + chunk walk, indexWorker.ts) and
 * to a pool of decode workers, and keeps the streamed index, a cache of
 * decoded chunks and the page's state (sessionStore.ts). dispose() terminates
 * every worker, which is the only guarantee that nothing from a replaced file
 * keeps running.
 */
import { proxy } from 'comlink'
import '../workers/comlinkErrors'
import { fileChanged, isFileChange } from '../io/fileFingerprint'
import { isFetchFailure } from '../io/httpSource'
import { knownSize, sourceName } from '../io/sourceSpec'
import type { SourceSpec } from '../io/sourceSpec'
import { salvagedFile } from '../io/salvage'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError, fmtInt } from '../rad/errors'
import { inferSemantics } from '../rad/semantics'
import type { ChunkColumns } from '../rad/types'
import { ChunkCache } from './chunkCache'
import { ChunkSchedule } from './chunkSchedule'
import { DecodePool, poolSize } from './decodePool'
import { startFilterRun } from './filterPass'
import type { FilterRun } from './filterPass'
import type { RecordFilter } from '../rad/recordFilter'
import { IndexStore } from '../workers/indexStore'
import type { ExportFormat } from '../io/exportSelection'
import type { ByteSink } from '../rad/subsetWriter'
import { ExportRun, exportJobOf } from './exportRun'
import type { ExportPick } from '../workers/protocol'
import { IndexWorkerLink, checkBeside } from './indexWorkerLink'
import type { OpenedFile, ScanEvents, ScanSummary } from '../workers/protocol'
import { SessionStore } from './sessionStore'
import { StatsRun } from './statsRun'
import { NOT_THE_INDEX, headerMismatch, salvagedName } from './indexClaims'
import { cores, createDecodeWorker } from './defaultWorkers'
import { CellsRun, NO_CELLS, cellsJobOf } from './cellsRun'
import { DEFAULT_MITO } from '../rad/cells'
import { statsWaitForAsk } from './statsOnOpen'
import { cacheEntry, statsFromJson } from '../workers/sessionCache'
import type { IndexCache } from '../workers/sessionCache'
import type { SessionState } from './sessionStore'
import type { StatsReport } from '../workers/protocol'

export interface SessionOptions {
  /** Byte budget of the decoded-chunk cache. */
  cacheBytes?: number
  decodeWorkers?: number
  /** Where the workers come from; the default starts the real ones (tests run them on a MessageChannel). */
  workers?: { index: () => Worker; decode: () => Worker }
  /** A `.rdx` sidecar index of the file (docs/sidecar.md): installed instead of a scan when it matches. */
  sidecar?: Blob
  /** The page's index cache (ADR 0007): a local file seen before opens from it, and a finished index is kept in it. */
  indexCache?: IndexCache
  /**
   * Opened again to be scanned whatever is known of it (docs/sidecar.md): no sidecar, nothing read from
   * the cache. `because`: why the known index of the session before was dropped, shown to the user;
   * undefined when the user asked for the check.
   */
  fresh?: { because: string | undefined }
  /** Asks the page to open the same source again, fresh (checkRecords, or a known index that disagrees with the file). */
  onRescan?: (because: string | undefined) => void
}

const DEFAULT_CACHE_BYTES = 256 << 20
/** holdIndex: the walk stays paused this long after the last scroll event, asked at most this often. */
const HOLD_MS = 300
const HOLD_EVERY_MS = 100

let nextJob = 1

export class RadSession {
  readonly id: number
  /** What this session reads: a File, or a URL read by HTTP Range. */
  readonly source: SourceSpec
  readonly index = new IndexStore()
  private readonly store: SessionStore
  private readonly indexWorker: IndexWorkerLink
  private lastHold = -Infinity
  private readonly pool: DecodePool
  private readonly cache: ChunkCache
  private readonly schedule = new ChunkSchedule()
  /** Chunks asked for again after their decode worker died. */
  private readonly retried = new Set<number>()
  private opened: OpenedFile | undefined
  private disposed = false
  /** The whole-file statistics pass, started when the index is done (statsRun.ts). */
  readonly stats: StatsRun
  private readonly indexCache: IndexCache | undefined
  private readonly fresh: boolean
  private readonly onRescan: ((because: string | undefined) => void) | undefined
  /** The latest cells pass (startCells). */
  private cells: CellsRun | undefined
  /** Set once a known index was found to disagree with the file: the session is being replaced. */
  private dropping = false

  constructor(source: SourceSpec, opts: SessionOptions = {}) {
    this.id = nextJob++
    this.source = source
    this.fresh = opts.fresh !== undefined
    this.onRescan = opts.onRescan
    // Local files only (a URL's index comes from its sidecar, and its server may change the file),
    // and only Files, whose modification time is part of the key (cacheKey).
    this.indexCache = source.kind === 'file' && source.file instanceof File ? opts.indexCache : undefined
    this.store = new SessionStore({ name: sourceName(source), size: knownSize(source) })
    if (opts.fresh?.because !== undefined) this.store.update({ rescannedBecause: opts.fresh.because })
    this.cache = new ChunkCache(opts.cacheBytes ?? DEFAULT_CACHE_BYTES, () => {
      if (!this.disposed) this.store.bumpData()
    })
    this.pool = new DecodePool(source, {
      size: opts.decodeWorkers ?? poolSize(cores()),
      createWorker: opts.workers?.decode ?? createDecodeWorker,
      onWorkerFailed: (message) => {
        this.store.notice(message)
      },
    })
    this.stats = new StatsRun(this.pool, (e) => {
      if (e instanceof RadError && isFileChange(e)) this.fileChanged(e)
    })
    this.stats.subscribe(() => {
      const view = this.stats.getState()
      if (view.phase === 'done' && !view.restored) this.keepInCache(view.report)
    })
    this.indexWorker = new IndexWorkerLink((why) => {
      this.indexFailed(why)
    }, opts.workers?.index)
    this.startScan(opts.sidecar)
  }

  /** The index worker died: report it; everything indexed so far stays browsable. */
  private indexFailed(why: string): void {
    if (this.disposed || !this.indexWorker.running) return
    const where = this.index.count > 0 ? ` after indexing ${fmtInt(this.index.count)} chunks` : ''
    this.finishIndex(
      new RadError(
        'WORKER_FAILED',
        `the index worker stopped (${why})${where}; the rest of the file was not read or checked`,
        undefined,
      ),
    )
    this.store.notice(`The index worker stopped (${why}); a new one was started.`)
  }

  private startScan(sidecar: Blob | undefined): void {
    const events: ScanEvents = {
      indexSource: (indexSource, sidecarRejected) => {
        if (!this.disposed) this.store.update({ indexSource, sidecarRejected })
      },
      opened: (opened) => {
        if (this.disposed) return
        this.opened = opened
        this.pool.open(opened.prelude, opened.container, opened.remote, opened.frames)
        this.store.update({ opened, semantics: inferSemantics(opened.prelude), phase: 'indexing' })
      },
      first: (added: ChunkIndex, chunks, convention) => {
        if (this.disposed) return
        this.index.append(added)
        this.pool.setConvention(convention)
        chunks.forEach((cols, k) => {
          this.cache.insert(k, cols)
        })
        this.store.update({ chunks: this.index.count, records: this.index.records, convention })
      },
      index: (added: ChunkIndex, convention) => {
        if (this.disposed) return
        this.index.append(added)
        this.pool.setConvention(convention)
        this.store.update({ chunks: this.index.count, records: this.index.records, convention })
      },
      progress: (progress) => {
        if (!this.disposed) this.store.update({ progress })
      },
      // A fresh session reads nothing from the cache, but still keeps its own index there (OpenedFile.cacheKey).
      cachedIndex: (key) => (this.fresh ? undefined : this.indexCache?.get(this.cacheKey(key)).catch(() => undefined)),
      cacheRejected: (key, why) => {
        if (!this.disposed) this.store.update({ cacheRejected: why })
        void this.indexCache?.drop(this.cacheKey(key)).catch(() => undefined)
      },
    }
    const useCache = this.indexCache !== undefined && !sidecar
    const given = this.fresh ? { fresh: true } : sidecar ? { sidecar } : {}
    const options = { checkBeside: checkBeside(cores()), useCache, ...given }
    this.indexWorker.api.scan(this.source, this.id, proxy(events), options).then(
      (summary) => {
        this.finishIndex(summary.error ? RadError.fromData(summary.error) : undefined, summary)
      },
      (e: unknown) => {
        this.finishIndex(e instanceof Error ? e : new Error(String(e)))
      },
    )
  }

  private finishIndex(error: Error | undefined, summary?: ScanSummary): void {
    if (this.disposed || !this.indexWorker.running) return
    this.indexWorker.retire()
    this.store.update({
      phase: error ? 'error' : 'done',
      finishedAt: performance.now(),
      error,
      summary,
      cancelled: summary?.cancelled ?? false,
      chunks: this.index.count,
      records: this.index.records,
    })
    if (error instanceof RadError && isFileChange(error)) this.fileChanged(error)
    // A URL whose server failed mid-scan: the statistics would read it again; Retry opens it anew.
    else if (this.index.count > 0 && !summary?.cancelled && !isFetchFailure(error)) this.startStats(summary)
  }

  /** Statistics a cached index or sidecar held show at once; otherwise the pass runs (and the index is kept). */
  private startStats(summary: ScanSummary | undefined): void {
    const kept = statsFromJson(summary?.stats)
    if (kept) {
      this.stats.restore(kept, this.index)
      return
    }
    // A URL opened from its sidecar: the pass would read the whole file over the network; it waits to be asked.
    if (statsWaitForAsk(this.source, this.store.current.indexSource)) {
      this.stats.offer()
      return
    }
    this.stats.start(this.index)
    this.keepInCache(undefined)
  }

  /** Keeps this file's index (with its statistics, once done) in the page's cache, keyed by fingerprint (ADR 0007). */
  private keepInCache(stats: StatsReport | undefined): void {
    const { opened } = this
    const { summary, changed, indexSource } = this.store.current
    if (!this.indexCache || !opened || !summary || changed || this.disposed || indexSource === 'sidecar') return
    // A cached index without statistics gets them once the pass is done; one with them is kept as it is.
    if (indexSource === 'cache' && stats === undefined) return
    const bytes = opened.cacheKey === undefined ? undefined : cacheEntry(opened, this.index, summary, stats)
    if (bytes && opened.cacheKey !== undefined) {
      void this.indexCache.put(this.cacheKey(opened.cacheKey), bytes, sourceName(this.source)).catch(() => undefined)
    }
  }

  /**
   * The index cache's key: the fingerprint (size and the 64 KiB ends), a sample of the middle
   * (OpenedFile.cacheKey, contentSample) and the file's modification time. The fingerprint alone
   * misses an edit in the middle of the file: a file rewritten in place, or another file with the
   * same ends (a copy with one chunk damaged), must be scanned again; the sample catches such an
   * edit in its blocks even when the modification time was restored (ADR 0007).
   */
  private cacheKey(fingerprint: string): string {
    const modified = this.source.kind === 'file' && this.source.file instanceof File ? this.source.file.lastModified : 0
    return `${fingerprint}@${String(modified)}`
  }

  /**
   * The file changed on disk after it was opened (docs/integrity.md): one state for
   * the whole view. The verdict is withdrawn (SessionState.changed), decoded
   * chunks are stale and dropped, queued decodes and the index walk stop.
   * There is no stored index or sidecar to drop: the index lives in this
   * session only.
   */
  private fileChanged(error: RadError): void {
    if (this.disposed || this.store.current.changed) return
    const changed = error.code === 'FILE_CHANGED' ? error : fileChanged(error.message)
    this.store.update({ changed })
    this.cache.markStale(changed)
    this.pool.drop(() => false)
    this.cancel()
  }

  readonly subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener)

  readonly getState = (): SessionState => this.store.getState()

  /** For components that show decoded rows: notified whenever a chunk arrives or fails. */
  readonly subscribeData = (listener: () => void): (() => void) => this.store.subscribeData(listener)

  readonly getDataVersion = (): number => this.store.getDataVersion()

  getChunk(chunk: number): ChunkColumns | undefined {
    return this.cache.get(chunk)
  }

  chunkError(chunk: number): Error | undefined {
    return this.cache.error(chunk)
  }

  /**
   * What the screen needs now: `visible` chunks first, in their order, then
   * `prefetch`. Requests from earlier calls sink below these and are dropped
   * once they go stale (chunkSchedule.ts).
   */
  want(visible: readonly number[], prefetch: readonly number[] = []): void {
    if (this.disposed) return
    for (const { chunk, priority } of this.schedule.want(visible, prefetch, this.index.count)) {
      if (this.pool.reprioritize(chunk, priority) || this.cache.has(chunk)) continue
      this.load(chunk, priority)
    }
    this.pool.drop(this.schedule.isWanted)
  }

  private load(chunk: number, priority: number): void {
    const req = { chunk, offset: this.index.offset(chunk), nbytes: this.index.nbytes(chunk) }
    this.cache
      .load(chunk, () => this.pool.request(req, priority).then((cols) => this.matchingIndex(cols)))
      .catch((e: unknown) => {
        if (e instanceof RadError && isFileChange(e)) {
          this.fileChanged(e)
          return
        }
        this.checkDecodeFailure(chunk, e)
        // Shown in the rows through chunkError(); CANCELLED ones are asked for again. A decode
        // worker that died on this chunk was replaced: ask the new one once (twice means the
        // chunk itself is what kills them).
        if (e instanceof RadError && e.code === 'WORKER_FAILED' && !this.retried.has(chunk) && !this.disposed) {
          this.retried.add(chunk)
          this.cache.forget(chunk)
          this.load(chunk, priority)
        }
      })
  }

  /**
   * A chunk decoded from an index this page did not build (a sidecar, the cache: docs/sidecar.md),
   * checked against its own header: a table that disagrees is dropped, the file scanned again.
   * Throws so that the disagreeing chunk's rows are never shown.
   */
  private matchingIndex(cols: ChunkColumns): ChunkColumns {
    const { indexSource } = this.store.current
    if (indexSource === 'scan') return cols
    const differs = headerMismatch(cols, this.index)
    if (differs === undefined) return cols
    this.dropKnownIndex(differs)
    throw new RadError('BAD_CHUNK_HEADER', `${differs}: the index is being rebuilt`, cols.offset, cols.chunk)
  }

  /** A chunk of a known index that does not decode, though its verdict does not list it as damaged: the table is wrong. */
  private checkDecodeFailure(chunk: number, e: unknown): void {
    const { indexSource, summary } = this.store.current
    if (indexSource === 'scan' || !(e instanceof RadError) || this.dropping) return
    if (NOT_THE_INDEX.has(e.code) || summary?.damagedChunks.includes(chunk)) return
    this.dropKnownIndex(
      `chunk ${fmtInt(chunk)} at byte ${fmtInt(this.index.offset(chunk))} does not decode (${e.message})`,
    )
  }

  /** The sidecar or cached index disagrees with the file: forget it (a cached one for good) and scan again, saying why. */
  private dropKnownIndex(why: string): void {
    if (this.dropping || this.disposed) return
    this.dropping = true
    const { opened } = this
    const { indexSource } = this.store.current
    if (indexSource === 'cache' && opened?.cacheKey !== undefined) {
      void this.indexCache?.drop(this.cacheKey(opened.cacheKey)).catch(() => undefined)
    }
    const what = indexSource === 'cache' ? 'The cached index' : 'The sidecar index'
    this.onRescan?.(`${what} does not match the file (${why}), so it was dropped and the file was scanned instead.`)
  }

  /**
   * Checks every record of a file opened from a sidecar or the cache, whose verdict is only what
   * was recorded (docs/integrity.md): the page opens it again and scans it.
   */
  checkRecords(): void {
    if (!this.disposed) this.onRescan?.(undefined)
  }

  /**
   * The user is scrolling: pause the index walk for a moment, so the page's
   * frames get the CPU. On 2 cores the walk and the browser's reads for it
   * take about one core, and the table missed 10–15% of its frames while
   * indexing (bench/results.md). The walk resumes HOLD_MS after the last scroll event;
   * at most one message per HOLD_EVERY_MS.
   */
  holdIndex(): void {
    if (!this.indexWorker.running || this.disposed) return
    const now = performance.now()
    if (now - this.lastHold < HOLD_EVERY_MS) return
    this.lastHold = now
    void this.indexWorker.api.holdFor(this.id, HOLD_MS)
  }

  /** Stops indexing; every chunk found so far stays browsable. */
  cancel(): void {
    if (!this.indexWorker.running || this.disposed) return
    void this.indexWorker.api.cancel(this.id)
  }

  get isDisposed(): boolean {
    return this.disposed
  }

  /**
   * The valid part of a damaged file, as a File assembled from the salvage
   * plan (io/salvage.ts salvagedFile). Undefined when there is no plan.
   */
  salvagedFile(): File | undefined {
    const offer = this.store.current.summary?.salvage
    // A URL's valid part would have to be downloaded first: `rad salvage` on the server is the way.
    if (!offer || this.disposed || this.store.current.changed || this.source.kind !== 'file') return undefined
    return salvagedFile(this.source.file, offer, salvagedName(sourceName(this.source)))
  }

  /**
   * The valid part, once a decode worker has confirmed that the file is still
   * the one indexed (a download of slices of a changed file fails in the
   * browser without a word). Rejects with FILE_CHANGED (and switches the view
   * to that state) when it is not, or when there is nothing to save.
   */
  async saveValidPart(): Promise<File> {
    const { opened } = this
    if (!opened) throw new Error('internal: saveValidPart() before the file was opened')
    try {
      await this.pool.recheck(opened.fingerprint)
    } catch (e) {
      if (e instanceof RadError && isFileChange(e)) this.fileChanged(e)
      throw e
    }
    const file = this.salvagedFile()
    if (!file) throw this.store.current.changed ?? new Error('there is no valid part to save')
    return file
  }

  /** Starts a record filter over every chunk indexed so far (filterPass.ts); undefined before the first chunks. */
  startFilter(filter: RecordFilter): FilterRun | undefined {
    const { opened } = this
    const { convention } = this.store.current
    if (!opened || !convention || this.disposed) return undefined
    return startFilterRun({ opened, index: this.index, convention, lanes: () => this.pool.filterLanes() }, filter)
  }

  /** Exports a selection in an export worker, streamed to `sink` (exportRun.ts); undefined before the first chunks. */
  startExport(format: ExportFormat, pick: ExportPick, sink: ByteSink): ExportRun | undefined {
    const { opened } = this
    const { convention } = this.store.current
    if (!opened || !convention || this.disposed) return undefined
    return new ExportRun(this.source, exportJobOf(opened, this.index, convention, format, pick), sink)
  }

  /**
   * Starts the cells pass over the knee's cells (cellsRun.ts, docs/cells.md) with the annotation
   * files given, replacing any earlier one; rejects until the statistics are done.
   */
  async startCells(files: File[], mito: string = DEFAULT_MITO): Promise<CellsRun> {
    const { opened } = this
    const { convention } = this.store.current
    const view = this.stats.getState()
    const json = view.report?.json
    if (!opened || !convention || !json || view.phase !== 'done' || this.disposed) {
      throw new Error('cell figures need the statistics first')
    }
    const knee = json.cutoffs?.knee
    const cut = knee
      ? { cells: await this.stats.barcodesAtLeast(knee.minCount), cutoff: 'knee', minReads: knee.minCount }
      : NO_CELLS
    this.cells?.cancel()
    this.cells = new CellsRun(this.source, cellsJobOf(opened, this.index, convention, cut, files, mito))
    return this.cells
  }

  /** Terminates every worker of this file and forgets its data. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.stats.dispose()
    this.cells?.cancel()
    this.indexWorker.terminate()
    this.pool.dispose()
    this.cache.clear()
    // Comlink's port for the scan callbacks may keep this object reachable for a while.
    this.index.clear()
    this.store.clear()
  }
}

/** Opens a dropped or chosen file, or a URL: workers start at once; nothing is read on this thread. */
export function openRadSource(source: SourceSpec, opts?: SessionOptions): RadSession {
  return new RadSession(source, opts)
}
