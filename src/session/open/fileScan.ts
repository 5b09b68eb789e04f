/**
 * The index side of an open file (docs/architecture.md §2): the index worker's walk, what its
 * end starts (the statistics, statsOnOpen.ts), a known index that proves wrong, and what is kept
 * in the page's cache (ADR 0007). The walk's events land through scanEvents.ts; this module holds
 * the prelude they report (`opened`), which every pass then starts from.
 */
import { proxy, transfer } from 'comlink'
import { isFileChange } from '../../io/fileFingerprint'
import { isFetchFailure } from '../../io/httpSource'
import type { SourceSpec } from '../../io/sourceSpec'
import { cellsSectionFromJson, withKeptCells } from '../../rad/cells/cellsSection'
import type { KeptCells } from '../../rad/cells/cellsSection'
import { RadError, fmtInt } from '../../rad/errors'
import type { OpenedFile, ScanEvents, ScanSummary, StatsReport } from '../../workers/protocol'
import { chunksNotFed, indexedBytes } from '../rows/lanes'
import { cores } from '../defaultWorkers'
import { startStatsOnOpen } from '../passes/statsOnOpen'
import type { StatsRun } from '../passes/statsRun'
import type { ChunkCache } from '../rows/chunkCache'
import type { DecodePool } from '../rows/decodePool'
import type { SessionStore } from '../sessionStore'
import type { FileIndexCache } from './fileIndexCache'
import type { IndexStore } from './indexStore'
import { IndexWorkerLink, checkBeside } from './indexWorkerLink'
import { scanEvents } from './scanEvents'

export interface ScanOf {
  id: number
  source: SourceSpec
  store: SessionStore
  index: IndexStore
  pool: DecodePool
  cache: ChunkCache
  stats: StatsRun
  indexCache: FileIndexCache | undefined
  /** The user asked for a scan: nothing is read from the cache or a sidecar. */
  fresh: boolean
  /** Cells passes the session before kept of the same bytes ("Check every record"): kept on. */
  carriedCells: readonly KeptCells[]
  live: () => boolean
  /** The file changed on disk (docs/integrity.md): the session switches its view to that state. */
  onFileChanged: (e: RadError) => void
  /** Open the file again, scanning it; `because` says why when a known index proved wrong. */
  onRescan: ((because: string | undefined, keptCells?: readonly KeptCells[]) => void) | undefined
  createIndexWorker: (() => Worker) | undefined
}

export class FileScan {
  /** The prelude and container, once the worker has read them. */
  opened: OpenedFile | undefined
  /**
   * Cells passes kept for this file, newest first: the cache's or the sidecar's (read when the
   * index is in), then this page's own as they finish (keepCells). src/rad/cells/cellsSection.ts.
   */
  keptCells: KeptCells[] = []
  private readonly worker: IndexWorkerLink
  private readonly of: ScanOf

  constructor(of: ScanOf, sidecar: Blob | undefined) {
    this.of = of
    this.keptCells = [...of.carriedCells]
    of.stats.subscribe(() => {
      const view = of.stats.getState()
      if (view.phase === 'done' && !view.restored) this.keepInCache(view.report)
    })
    this.worker = new IndexWorkerLink((why) => {
      this.failed(why)
    }, of.createIndexWorker)
    this.start(sidecar)
  }

  get running(): boolean {
    return this.worker.running
  }

  /** The user is scrolling: the walk pauses for a moment (IndexWorkerLink.hold). */
  hold(): void {
    this.worker.hold(this.of.id)
  }

  /** Stops indexing; every chunk found so far stays browsable. */
  cancel(): void {
    if (this.worker.running) void this.worker.api.cancel(this.of.id)
  }

  terminate(): void {
    this.worker.terminate()
  }

  /**
   * Opens the file again and scans it: a known index's verdict is only what was recorded. The
   * cells passes kept go with it: they are of the same bytes, whatever the check finds.
   */
  checkRecords(): void {
    this.of.onRescan?.(undefined, this.keptCells)
  }

  /** The sidecar or cached index disagrees with the file: forget it (a cached one for good) and scan again, saying why. */
  dropKnownIndex(why: string): void {
    if (!this.of.live()) return
    const { indexSource } = this.of.store.current
    const key = this.opened?.cacheKey
    if (indexSource === 'cache' && key !== undefined) this.of.indexCache?.drop(key)
    const what = indexSource === 'cache' ? 'The cached index' : 'The sidecar index'
    this.of.onRescan?.(`${what} does not match the file (${why}), so it was dropped and the file was scanned instead.`)
  }

  /**
   * A finished cells pass: kept with the others, and in the page's cache with the index (ADR 0007).
   * Only where the page keeps a cache for the file (not a URL, not a file opened with its sidecar):
   * what is shown as kept was kept.
   */
  keepCells(entry: KeptCells): void {
    const { of } = this
    if (!of.live() || !of.indexCache || of.store.current.indexSource === 'sidecar') return
    this.keptCells = withKeptCells(this.keptCells, entry)
    const view = of.stats.getState()
    if (view.phase === 'done') this.keepInCache(view.report)
  }

  private start(sidecar: Blob | undefined): void {
    const { of } = this
    const onOpened = (opened: OpenedFile): void => {
      this.opened = opened
    }
    // A URL's statistics are counted during the walk: one download, not two (docs/stats.md, "One read for a URL").
    const countStats = of.source.kind === 'url'
    // A local file's walk feeds the statistics pass begun beside it: one read, not two (ADR 0017).
    const feed = !countStats && typeof MessageChannel !== 'undefined' ? of.stats.feedChannels(of.pool.size) : []
    const events = this.fedEvents(scanEvents({ ...of, onOpened }), feed.length > 0)
    const useCache = of.indexCache !== undefined && !sidecar
    const given = of.fresh ? { fresh: true } : sidecar ? { sidecar } : {}
    const options = {
      checkBeside: checkBeside(cores()),
      useCache,
      countStats,
      ...given,
      ...(feed.length ? { feed } : {}),
    }
    this.worker.api.scan(of.source, of.id, proxy(events), transfer(options, feed)).then(
      (summary) => {
        this.finish(summary.error ? RadError.fromData(summary.error) : undefined, summary)
      },
      (e: unknown) => {
        this.finish(e instanceof Error ? e : new Error(String(e)))
      },
    )
  }

  /**
   * The scan's events, with the fed pass's part (ADR 0017) when `feeding`: the pass begins once
   * the walk is under way (the index comes from a scan, the pool has the convention), and hears
   * the walk's feed as it goes.
   */
  private fedEvents(events: ScanEvents, feeding: boolean): ScanEvents {
    if (!feeding) return events
    const { of } = this
    let scanning = false
    const begin = (): void => {
      const opened = this.opened
      if (!scanning || !opened || !of.live()) return
      const expected = opened.sourceSize - opened.prelude.firstChunkOffset
      of.stats.startFed(expected, () => {
        if (this.worker.running) void this.worker.api.stopFeed(of.id)
      })
    }
    return {
      ...events,
      indexSource: (indexSource, rejected) => {
        scanning = indexSource === 'scan'
        events.indexSource(indexSource, rejected)
      },
      first: (added, chunks, convention) => {
        events.first(added, chunks, convention)
        begin()
      },
      index: (added, convention) => {
        events.index(added, convention)
        begin()
      },
      progress: (p) => {
        events.progress(p)
        if (p.fedBytes !== undefined && of.live()) of.stats.fedProgress(p.fedBytes)
      },
    }
  }

  /** The index worker died: report it; everything indexed so far stays browsable. */
  private failed(why: string): void {
    if (!this.of.live() || !this.worker.running) return
    const { count } = this.of.index
    const where = count > 0 ? ` after indexing ${fmtInt(count)} chunks` : ''
    const what = `the index worker stopped (${why})${where}; the rest of the file was not read or checked`
    this.finish(new RadError('WORKER_FAILED', what, undefined))
    this.of.store.notice(`The index worker stopped (${why}); a new one was started.`)
  }

  private finish(error: Error | undefined, summary?: ScanSummary): void {
    const { of } = this
    if (!of.live() || !this.worker.running) return
    this.worker.retire()
    of.store.update({
      phase: error ? 'error' : 'done',
      finishedAt: performance.now(),
      error,
      summary,
      cancelled: summary?.cancelled ?? false,
      chunks: of.index.count,
      records: of.index.records,
    })
    this.readKeptCells(summary)
    if (error instanceof RadError && isFileChange(error)) {
      of.stats.dropFed()
      of.onFileChanged(error)
    }
    // A URL whose server failed mid-scan: the statistics would read it again; Retry opens it anew.
    else if (of.index.count > 0 && !summary?.cancelled && !isFetchFailure(error)) this.startStats(summary)
    else of.stats.dropFed()
  }

  /** The cells passes a sidecar or cached index held; entries of another shape are dropped with a notice. */
  private readKeptCells(summary: ScanSummary | undefined): void {
    const { kept, dropped } = cellsSectionFromJson(summary?.cells)
    // A fresh scan reads nothing kept: the session before hands its cells on (checkRecords).
    this.keptCells = kept.length > 0 ? kept : [...this.of.carriedCells]
    const what = this.of.store.current.indexSource === 'cache' ? 'cached index' : 'sidecar index'
    if (dropped.length > 0) {
      this.of.store.notice(
        `Part of the ${what} was not used: its cells section does not have the expected shape (${dropped[0] ?? ''}).`,
      )
    }
  }

  /** The statistics once the index is in (statsOnOpen.ts): kept ones at once, else the pass. */
  private startStats(summary: ScanSummary | undefined): void {
    const { source, stats, index, store } = this.of
    const keep = (report: StatsReport | undefined): void => {
      this.keepInCache(report)
    }
    // The pass the walk fed goes on with the chunks it did not feed (ADR 0017).
    const rest = {
      convention: summary?.convention ?? 'header-inclusive',
      reqs: chunksNotFed(index, summary?.fed),
      totalChunks: index.count,
      totalBytes: indexedBytes(index),
    } as const
    const fed = summary ? stats.walkEnded(rest) : 'none'
    if (!summary) stats.dropFed()
    if (fed === 'taken') keep(undefined)
    if (fed !== 'none') return
    startStatsOnOpen({ source, stats, index, summary, indexSource: store.current.indexSource, keep })
  }

  /** Keeps this file's index (with its statistics, once done) in the page's cache (ADR 0007, fileIndexCache.ts). */
  private keepInCache(stats: StatsReport | undefined): void {
    const { opened, of } = this
    const { summary, changed, indexSource } = of.store.current
    if (!opened || !summary || changed || !of.live() || indexSource === 'sidecar') return
    // A cached index without statistics gets them once the pass is done; one with them is kept as it is.
    if (indexSource === 'cache' && stats === undefined) return
    of.indexCache?.keep(opened, of.index, summary, stats, this.keptCells)
  }
}
