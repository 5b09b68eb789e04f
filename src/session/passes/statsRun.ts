/**
 * The page's handle on a file's statistics pass (statsPass.ts): its state in
 * the shape useSyncExternalStore reads, Cancel, and the cut-off questions
 * asked of the finished totals. RadSession starts it once the index is done.
 */
import type { Remote } from 'comlink'
import { RadError } from '../../rad/errors'
import type { BarcodeSet } from '../../rad/stats'
import type { DecodePool } from '../rows/decodePool'
import type { DecodeWorkerApi } from '../../workers/protocol'
import type { IndexStore } from '../open/indexStore'
import { indexedChunks } from '../rows/lanes'
import { Store } from '../store'
import { runFedStatsPass, runStatsPass, startingProgress } from './statsPass'
import type { FedPass, StatsPassOptions, StatsProgress, WalkedRest } from './statsPass'
import type { StatsCutoffs, StatsReport } from '../../workers/protocol'

export type StatsPhase = 'idle' | 'running' | 'done' | 'error'

export interface StatsView {
  phase: StatsPhase
  progress: StatsProgress | undefined
  /** The latest report: partial while running, final when done. */
  report: StatsReport | undefined
  error: Error | undefined
  cancelled: boolean
  /** Idle until asked (statsOnOpen.ts): the page offers to start the pass. */
  offered: boolean
  /**
   * The report was kept from an earlier visit (the index cache, ADR 0007) or a sidecar, or counted
   * during the index walk: no pass ran this time.
   */
  restored?: boolean
  /**
   * Where a restored report came from: this browser's index cache, the file's `.rdx` sidecar
   * (written by `rad index`, report.writer; docs/sidecar.md, "The statistics section"), or the
   * index walk that read the file (a URL: docs/stats.md, "One read for a URL").
   */
  restoredFrom?: StatsOrigin
  /**
   * A restored report whose totals are not in the decode workers yet: the per-barcode answers
   * (Save TSV, typed cut-offs, the cells above the knee) count every record first (askHead).
   */
  totalsMissing?: boolean
  /** That count's progress while it runs, behind the shown report (undefined: none runs). */
  totalsProgress?: StatsProgress
}

/** Where a report shown without a pass came from (StatsView.restoredFrom). */
export type StatsOrigin = 'cache' | 'sidecar' | 'walk'

const IDLE: StatsView = {
  phase: 'idle',
  progress: undefined,
  report: undefined,
  error: undefined,
  cancelled: false,
  offered: false,
  restored: false,
  restoredFrom: undefined,
  totalsMissing: false,
  totalsProgress: undefined,
}

let nextPass = 1

/** A fed pass's hooks (feedChannels): its channels and the walk's end, told once. */
interface FedHooks {
  pass: FedPass
  resolve: (rest: WalkedRest) => void
  reject: (e: Error) => void
  /** startFed has begun the pass on the workers (its ports are theirs). */
  started: boolean
  /** start() was asked during the walk: a pass over the whole index follows it. */
  startAtEnd?: boolean
}

export class StatsRun {
  private readonly store = new Store<StatsView>(IDLE)
  private abort: AbortController | undefined
  private pass = 0
  private readonly pool: DecodePool
  private readonly onFailed: (e: Error) => void
  /** Set by restore(): the cut-offs need the workers' totals, so a pass runs behind the shown report first. */
  private behind: { index: IndexStore; totals: Promise<void> | undefined } | undefined
  /** The index walk's feed (ADR 0017), from feedChannels until the walk has ended. */
  private fed: FedHooks | undefined

  /** `onFailed` hears of a failure other than a cancel (a changed file, a worker that died). */
  constructor(pool: DecodePool, onFailed: (e: Error) => void) {
    this.pool = pool
    this.onFailed = onFailed
  }

  get subscribe(): Store<StatsView>['subscribe'] {
    return this.store.subscribe
  }

  get getState(): Store<StatsView>['getState'] {
    return this.store.getState
  }

  private update(patch: Partial<StatsView>): void {
    this.store.update(patch)
  }

  /**
   * Starts a pass over every indexed chunk (a running one is cancelled first). Asked while the
   * walk is still under way (Run again after cancelling a fed pass), it waits for the index:
   * the pass runs when the walk ends (walkEnded), not over part of the file.
   */
  start(index: IndexStore): void {
    if (this.fed) {
      this.fed.startAtEnd = true
      this.pass = nextPass++
      this.abort?.abort()
      this.update({ ...IDLE })
      return
    }
    const reqs = indexedChunks(index)
    this.run((workers, opts) => runStatsPass(workers.calls, workers.convention, reqs, opts))
  }

  /**
   * Channels for the index walk to feed a pass begun beside it (ADR 0017): the walk's ends
   * (ScanRequest.feed). startFed begins the pass once the walk is under way; the walk's end is
   * told by walkEnded, or dropFed when no pass is to follow it.
   */
  feedChannels(workers: number): MessagePort[] {
    this.dropFed()
    const channels = Array.from({ length: workers }, () => new MessageChannel())
    let resolve: (rest: WalkedRest) => void = () => undefined
    let reject: (e: Error) => void = () => undefined
    const walked = new Promise<WalkedRest>((res, rej) => {
      resolve = res
      reject = rej
    })
    walked.catch(() => undefined)
    const pass: FedPass = { ports: channels.map((c) => c.port1), expectedBytes: 0, walked }
    this.fed = { pass, resolve, reject, started: false }
    return channels.map((c) => c.port2)
  }

  /**
   * Begins the pass the walk feeds (the pool has the prelude and the convention): `expectedBytes`
   * for its progress until the walk ends; `onGone` tells the walk to stop feeding a pass that
   * failed or was cancelled.
   */
  startFed(expectedBytes: number, onGone: () => void): void {
    const fed = this.fed
    if (!fed || fed.started) return
    fed.started = true
    fed.pass.expectedBytes = expectedBytes
    this.run((workers, opts) => runFedStatsPass(workers.calls, fed.pass, opts), onGone)
  }

  /** The walk's feed so far (ScanProgress.fedBytes). */
  fedProgress(bytes: number): void {
    this.fed?.pass.onFed?.(bytes)
  }

  /**
   * The walk has ended, and a pass is to follow it: 'taken' when the fed pass takes `rest` (the
   * chunks it did not feed) and goes on; 'ended' when one was begun and has already ended (failed
   * or cancelled: its view says so); 'none' when none was begun (start() runs the pass).
   */
  walkEnded(rest: WalkedRest): 'taken' | 'ended' | 'none' {
    const fed = this.fed
    this.fed = undefined
    if (!fed) return 'none'
    if (!fed.started || this.store.getState().phase !== 'running') {
      this.closeFed(fed)
      return fed.started && !fed.startAtEnd ? 'ended' : 'none'
    }
    fed.resolve(rest)
    return 'taken'
  }

  /** No pass follows the walk (cancelled, failed, a known index): a fed pass begun beside it goes, unseen. */
  dropFed(): void {
    const fed = this.fed
    this.fed = undefined
    if (!fed) return
    this.closeFed(fed)
    if (!fed.started) return
    this.pass = nextPass++
    this.abort?.abort()
    this.update({ ...IDLE })
  }

  private closeFed(fed: FedHooks): void {
    fed.reject(new RadError('CANCELLED', 'the index walk ended without a pass to follow it'))
    if (!fed.started) for (const port of fed.pass.ports) port.close()
  }

  /** Runs a pass (`count`), a running one cancelled first; `onFailed` hears of its failure. */
  private run(
    count: (workers: ReturnType<DecodePool['workers']>, opts: StatsPassOptions) => Promise<StatsReport>,
    onFailed?: () => void,
  ): void {
    this.cancel()
    this.behind = undefined
    const abort = new AbortController()
    this.abort = abort
    const pass = nextPass++
    this.pass = pass
    this.update({ ...IDLE, phase: 'running' })
    const mine = (): boolean => this.pass === pass && !abort.signal.aborted
    let workers: ReturnType<DecodePool['workers']>
    try {
      workers = this.pool.workers()
    } catch (e) {
      onFailed?.()
      this.fail(e)
      return
    }
    count(workers, {
      pass,
      signal: abort.signal,
      onProgress: (progress) => {
        if (mine()) this.update({ progress })
      },
      onPartial: (report, progress) => {
        if (mine()) this.update({ report, progress })
      },
    }).then(
      (report) => {
        if (mine()) this.update({ phase: 'done', report })
      },
      (e: unknown) => {
        onFailed?.()
        if (this.pass === pass) this.fail(e)
      },
    )
  }

  private fail(e: unknown): void {
    const error = e instanceof Error ? e : new Error(String(e))
    const cancelled = error instanceof RadError && error.code === 'CANCELLED'
    this.update({ phase: 'error', error, cancelled })
    if (!cancelled) this.onFailed(error)
  }

  /** Leaves the pass to the user's ask (start() when they do). */
  offer(): void {
    this.update({ ...IDLE, offered: true })
  }

  /**
   * Shows a finished report kept from an earlier visit (ADR 0007), in the file's sidecar, or
   * counted during the index walk, instead of running the pass.
   */
  restore(report: StatsReport, index: IndexStore, from: StatsOrigin = 'cache'): void {
    this.cancel()
    this.behind = { index, totals: undefined }
    this.update({ ...IDLE, phase: 'done', report, restored: true, restoredFrom: from, totalsMissing: true })
  }

  /**
   * A restored report's pass, run behind it (once, unless it fails or is cancelled: then the next
   * ask runs it again): the per-barcode answers are asked of its totals. Its progress shows
   * (totalsProgress), the shown report stays.
   */
  private totalsBehind(index: IndexStore): Promise<void> {
    const pass = nextPass++
    this.pass = pass
    const workers = this.pool.workers()
    const abort = new AbortController()
    this.abort = abort
    const mine = (): boolean => this.pass === pass
    const reqs = indexedChunks(index)
    this.update({ totalsProgress: startingProgress(reqs) })
    return runStatsPass(workers.calls, workers.convention, reqs, {
      pass,
      signal: abort.signal,
      onProgress: (progress) => {
        if (mine() && !abort.signal.aborted) this.update({ totalsProgress: progress })
      },
      onPartial: () => undefined,
    }).then(
      () => {
        if (mine()) this.update({ totalsMissing: false, totalsProgress: undefined })
      },
      (e: unknown) => {
        if (this.behind) this.behind.totals = undefined
        if (mine()) this.update({ totalsProgress: undefined })
        throw e
      },
    )
  }

  /** Cancels the pass, or the count running behind a restored report. */
  cancel(): void {
    const view = this.store.getState()
    if (view.phase !== 'running' && view.totalsProgress === undefined) return
    this.abort?.abort()
  }

  /** alevin-fry's --expect-cells / --force-cells cut-offs, from the finished pass's totals. */
  cutoffs(expectCells: number | undefined, forceCells: number | undefined): Promise<StatsCutoffs> {
    return this.askHead((api, pass) => api.statsCutoffs(pass, expectCells, forceCells))
  }

  /** The finished pass's barcodes with at least `minCount` records (the export's cells above a cut-off). */
  barcodesAtLeast(minCount: number): Promise<BarcodeSet> {
    return this.askHead((api, pass) => api.statsBarcodesAtLeast(pass, minCount))
  }

  /** The finished pass as `rad stats FILE --tsv` prints it (the same function makes the same bytes). */
  tsv(): Promise<string> {
    return this.askHead((api, pass) => api.statsTsv(pass))
  }

  /**
   * Asks the worker holding the finished pass's merged totals (the first decode worker). A report
   * restored from the cache, a sidecar or the walk has no totals in the workers: the pass runs
   * behind it first, once (for a URL, a second download).
   */
  private async askHead<T>(ask: (api: Remote<DecodeWorkerApi>, pass: number) => Promise<T>): Promise<T> {
    if (this.store.getState().phase !== 'done') throw new Error('the statistics pass has not finished')
    if (this.behind) {
      this.behind.totals ??= this.totalsBehind(this.behind.index)
      await this.behind.totals
    }
    const head = this.pool.workers().calls[0]
    if (!head) throw new Error('internal: no decode worker')
    const pass = this.pass
    return head((api) => ask(api, pass))
  }

  dispose(): void {
    this.dropFed()
    this.abort?.abort()
    this.pass = -1
    this.store.clear()
  }
}
