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
import { RadError, fmtInt } from '../rad/errors'
import type { ChunkColumns, NbytesConvention } from '../rad/types'
import { ChunkCache } from './chunkCache'
import { ChunkLoader } from './chunkLoader'
import { DecodePool, poolSize } from './decodePool'
import { startFilterRun } from './filterPass'
import type { FilterRun } from './filterPass'
import type { RecordFilter } from '../rad/filter/recordFilter'
import { IndexStore } from './indexStore'
import type { ExportFormat } from '../io/exportSelection'
import type { ByteSink } from '../rad/subsetWriter'
import { ExportRun, exportJobOf } from './exportRun'
import type { ExportPick } from '../workers/protocol'
import { IndexWorkerLink, checkBeside } from './indexWorkerLink'
import type { OpenedFile, ScanSummary } from '../workers/protocol'
import { scanEvents } from './scanEvents'
import { SessionStore } from './sessionStore'
import { StatsRun } from './statsRun'
import { FileIndexCache } from './fileIndexCache'
import { IndexClaims } from './indexClaims'
import { confirmedValidPart } from './validPart'
import { cores, createDecodeWorker } from './defaultWorkers'
import { CellsRun, cellsJobOf, kneeCells } from './cellsRun'
import { DEFAULT_MITO } from '../rad/cells'
import { startStatsOnOpen } from './statsOnOpen'
import type { SessionOptions } from './sessionOptions'
import type { SessionState } from './sessionStore'
import type { StatsReport } from '../workers/protocol'

const DEFAULT_CACHE_BYTES = 256 << 20

let nextJob = 1

export class RadSession {
  readonly id: number
  /** What this session reads: a File, or a URL read by HTTP Range. */
  readonly source: SourceSpec
  readonly index = new IndexStore()
  private readonly store: SessionStore
  private readonly indexWorker: IndexWorkerLink
  private readonly pool: DecodePool
  private readonly cache: ChunkCache
  private readonly loader: ChunkLoader
  private opened: OpenedFile | undefined
  private disposed = false
  /** The whole-file statistics pass, started when the index is done (statsRun.ts). */
  readonly stats: StatsRun
  private readonly indexCache: FileIndexCache | undefined
  private readonly fresh: boolean
  private readonly onRescan: ((because: string | undefined) => void) | undefined
  /** The latest cells pass (startCells). */
  private cells: CellsRun | undefined
  /** Checks a sidecar's or cached index against the chunks as they decode (indexClaims.ts). */
  private readonly claims = new IndexClaims(
    this.index,
    () => this.store.current,
    (why) => {
      this.dropKnownIndex(why)
    },
  )

  constructor(source: SourceSpec, opts: SessionOptions = {}) {
    this.id = nextJob++
    this.source = source
    this.fresh = opts.fresh !== undefined
    this.onRescan = opts.onRescan
    this.indexCache = FileIndexCache.of(source, opts.indexCache)
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
    this.loader = new ChunkLoader({
      index: this.index,
      pool: this.pool,
      cache: this.cache,
      claims: this.claims,
      live: () => !this.disposed,
      onFileChanged: (e) => {
        this.fileChanged(e)
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
    const events = scanEvents({
      store: this.store,
      index: this.index,
      pool: this.pool,
      cache: this.cache,
      indexCache: this.indexCache,
      fresh: this.fresh,
      live: () => !this.disposed,
      onOpened: (opened) => {
        this.opened = opened
      },
    })
    const useCache = this.indexCache !== undefined && !sidecar
    const given = this.fresh ? { fresh: true } : sidecar ? { sidecar } : {}
    // A URL's statistics are counted during the walk: one download, not two (docs/stats.md, "One read for a URL").
    const countStats = this.source.kind === 'url'
    const options = { checkBeside: checkBeside(cores()), useCache, countStats, ...given }
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

  /** The statistics once the index is in (statsOnOpen.ts): kept ones at once, else the pass. */
  private startStats(summary: ScanSummary | undefined): void {
    startStatsOnOpen({
      source: this.source,
      stats: this.stats,
      index: this.index,
      summary,
      indexSource: this.store.current.indexSource,
      keep: (report) => {
        this.keepInCache(report)
      },
    })
  }

  /** Keeps this file's index (with its statistics, once done) in the page's cache (ADR 0007, fileIndexCache.ts). */
  private keepInCache(stats: StatsReport | undefined): void {
    const { opened } = this
    const { summary, changed, indexSource } = this.store.current
    if (!opened || !summary || changed || this.disposed || indexSource === 'sidecar') return
    // A cached index without statistics gets them once the pass is done; one with them is kept as it is.
    if (indexSource === 'cache' && stats === undefined) return
    this.indexCache?.keep(opened, this.index, summary, stats)
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

  /** What the screen needs now: `visible` chunks first, then `prefetch` (chunkLoader.ts). */
  want(visible: readonly number[], prefetch: readonly number[] = []): void {
    if (!this.disposed) this.loader.want(visible, prefetch)
  }

  /** The sidecar or cached index disagrees with the file: forget it (a cached one for good) and scan again, saying why. */
  private dropKnownIndex(why: string): void {
    if (this.disposed) return
    const { opened } = this
    const { indexSource } = this.store.current
    if (indexSource === 'cache' && opened?.cacheKey !== undefined) this.indexCache?.drop(opened.cacheKey)
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

  /** The user is scrolling: the index walk pauses for a moment (IndexWorkerLink.hold). */
  holdIndex(): void {
    if (!this.disposed) this.indexWorker.hold(this.id)
  }

  /** Stops indexing; every chunk found so far stays browsable. */
  cancel(): void {
    if (!this.indexWorker.running || this.disposed) return
    void this.indexWorker.api.cancel(this.id)
  }

  get isDisposed(): boolean {
    return this.disposed
  }

  /** The valid part, once a decode worker has confirmed the file unchanged (validPart.ts). */
  saveValidPart(): Promise<File> {
    return confirmedValidPart({
      source: this.source,
      opened: this.opened,
      state: () => this.store.current,
      pool: this.pool,
      onFileChanged: (e) => {
        this.fileChanged(e)
      },
    })
  }

  /** Starts a record filter over every chunk indexed so far (filterPass.ts); undefined before the first chunks. */
  startFilter(filter: RecordFilter): FilterRun | undefined {
    const file = this.walkable()
    return file && startFilterRun({ ...file, index: this.index, workers: () => this.pool.workers().calls }, filter)
  }

  /** Exports a selection in an export worker, streamed to `sink` (exportRun.ts); undefined before the first chunks. */
  startExport(format: ExportFormat, pick: ExportPick, sink: ByteSink): ExportRun | undefined {
    const file = this.walkable()
    return file && new ExportRun(this.source, exportJobOf(file.opened, this.index, file.convention, format, pick), sink)
  }

  /** The prelude and the nbytes convention a whole-file walk needs; undefined before the first chunks. */
  private walkable(): { opened: OpenedFile; convention: NbytesConvention } | undefined {
    const { opened } = this
    const { convention } = this.store.current
    return opened && convention && !this.disposed ? { opened, convention } : undefined
  }

  /**
   * Starts the cells pass over the knee's cells (cellsRun.ts, docs/cells.md) with the annotation
   * files given, replacing any earlier one; rejects until the statistics are done.
   */
  async startCells(files: File[], mito: string = DEFAULT_MITO): Promise<CellsRun> {
    const file = this.walkable()
    const view = this.stats.getState()
    const json = view.report?.json
    if (!file || !json || view.phase !== 'done') throw new Error('cell figures need the statistics first')
    const cut = await kneeCells(json, this.stats)
    this.cells?.cancel()
    this.cells = new CellsRun(this.source, cellsJobOf(file.opened, this.index, file.convention, cut, files, mito))
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
