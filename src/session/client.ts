/**
 * The main thread's handle on one open file (docs/architecture.md §2): RadSession, which the UI
 * reaches through session/index.ts. It never reads the file's bytes: it hands the File or URL to
 * an index worker (open/fileScan.ts: the chunk walk, or a sidecar or cached index) and to a pool
 * of decode workers (rows/decodePool.ts), and keeps the streamed index (open/indexStore.ts), a
 * cache of decoded chunks (rows/chunkCache.ts) and the page's state (sessionStore.ts). The
 * whole-file passes start from it: the statistics (`stats`, passes/statsRun.ts) and the filter,
 * export, cells and valid-part passes (`passes`, passes/filePasses.ts). dispose() terminates its
 * workers (an export's belongs to the ExportRun its caller holds), which is the only guarantee
 * that nothing from a replaced file keeps running.
 */
import '../workers/comlinkErrors'
import { fileChanged, isFileChange } from '../io/fileFingerprint'
import { knownSize, sourceName } from '../io/sourceSpec'
import type { SourceSpec } from '../io/sourceSpec'
import { RadError } from '../rad/errors'
import type { KeptCells } from '../rad/cells/cellsSection'
import type { ChunkColumns } from '../rad/types'
import { cores, createDecodeWorker } from './defaultWorkers'
import { FileIndexCache } from './open/fileIndexCache'
import { FileScan } from './open/fileScan'
import { IndexClaims } from './open/indexClaims'
import { IndexStore } from './open/indexStore'
import { FilePasses } from './passes/filePasses'
import type { WalkableFile } from './passes/filePasses'
import { StatsRun } from './passes/statsRun'
import { ChunkCache } from './rows/chunkCache'
import { ChunkLoader } from './rows/chunkLoader'
import { DecodePool, poolSize } from './rows/decodePool'
import type { SessionOptions } from './sessionOptions'
import { SessionStore } from './sessionStore'
import type { SessionState } from './sessionStore'
import type { OpenedFile } from '../workers/protocol'

const DEFAULT_CACHE_BYTES = 256 << 20

let nextJob = 1

export class RadSession {
  readonly id: number
  /** What this session reads: a File, or a URL read by HTTP Range. */
  readonly source: SourceSpec
  readonly index = new IndexStore()
  /** The whole-file statistics pass, started when the index is done (statsRun.ts). */
  readonly stats: StatsRun
  /** The filter, export, cells and valid-part passes, started from the opened file (filePasses.ts). */
  readonly passes: FilePasses
  private readonly store: SessionStore
  private readonly scan: FileScan
  private readonly pool: DecodePool
  private readonly cache: ChunkCache
  private readonly loader: ChunkLoader
  private disposed = false

  constructor(source: SourceSpec, opts: SessionOptions = {}) {
    this.id = nextJob++
    this.source = source
    this.store = new SessionStore({ name: sourceName(source), size: knownSize(source) })
    if (opts.fresh?.because !== undefined) this.store.update({ rescannedBecause: opts.fresh.because })
    const live = (): boolean => !this.disposed
    const onFileChanged = (e: RadError): void => {
      this.fileChanged(e)
    }
    this.cache = new ChunkCache(opts.cacheBytes ?? DEFAULT_CACHE_BYTES, () => {
      if (live()) this.store.bumpData()
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
    const { store, index, pool, cache, stats } = this
    const indexCache = FileIndexCache.of(source, opts.indexCache)
    const fresh = opts.fresh !== undefined
    const [onRescan, createIndexWorker] = [opts.onRescan, opts.workers?.index]
    const carriedCells = opts.fresh?.keptCells ?? []
    const scanOf = { id: this.id, source, store, index, pool, cache, stats, indexCache, fresh, carriedCells, live }
    this.scan = new FileScan({ ...scanOf, onFileChanged, onRescan, createIndexWorker }, opts.sidecar)
    // Checks a sidecar's or cached index against the chunks as they decode (indexClaims.ts).
    const claims = new IndexClaims(
      index,
      () => store.current,
      (why) => {
        this.scan.dropKnownIndex(why)
      },
      onFileChanged,
    )
    this.loader = new ChunkLoader({ index, pool, cache, claims, live, onFileChanged })
    const walkable = (): WalkableFile | undefined => this.walkable()
    const opened = (): OpenedFile | undefined => this.scan.opened
    const keptCells = (): KeptCells[] => this.scan.keptCells
    const keepCells = (entry: KeptCells): void => {
      this.scan.keepCells(entry)
    }
    const state = (): SessionState => store.current
    this.passes = new FilePasses({ source, walkable, opened, state, pool, stats, onFileChanged, keptCells, keepCells })
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

  /** The prelude and the nbytes convention a whole-file walk needs; undefined before the first chunks. */
  private walkable(): WalkableFile | undefined {
    const { opened } = this.scan
    const { convention } = this.store.current
    if (!opened || !convention || this.disposed) return undefined
    return { source: this.source, opened, index: this.index, convention }
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

  /**
   * Checks every record of a file opened from a sidecar or the cache, whose verdict is only what
   * was recorded (docs/integrity.md): the page opens it again and scans it.
   */
  checkRecords(): void {
    if (!this.disposed) this.scan.checkRecords()
  }

  /** The user is scrolling: the index walk pauses for a moment (IndexWorkerLink.hold). */
  holdIndex(): void {
    if (!this.disposed) this.scan.hold()
  }

  /** Stops indexing; every chunk found so far stays browsable. */
  cancel(): void {
    if (!this.disposed) this.scan.cancel()
  }

  get isDisposed(): boolean {
    return this.disposed
  }

  /** Terminates every worker of this file and forgets its data. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.stats.dispose()
    this.passes.dispose()
    this.scan.terminate()
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
