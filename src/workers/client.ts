/**
 * The main thread's handle on one open file (ARCHITECTURE §5.3). It never
 * reads the file's bytes: it hands the File to an index worker (prelude +
 * chunk walk) and to a pool of decode workers, and keeps the streamed index
 * and a cache of decoded chunks. dispose() terminates every worker, which is
 * the only guarantee that nothing from a replaced file keeps running.
 */
import { proxy, wrap } from 'comlink'
import type { Remote } from 'comlink'
import './comlinkErrors'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError, fmtInt } from '../rad/errors'
import { inferSemantics } from '../rad/semantics'
import type { Semantics } from '../rad/semantics'
import type { ChunkColumns, NbytesConvention } from '../rad/types'
import { ChunkCache } from './chunkCache'
import { DecodePool, poolSize } from './decodePool'
import { IndexStore } from './indexStore'
import type { IndexApi, OpenedFile, ScanEvents, ScanProgress, ScanSummary } from './protocol'

export type { OpenedFile, SalvageOffer, ScanProgress, ScanSummary } from './protocol'
export type { IndexStore } from './indexStore'

export type SessionPhase = 'opening' | 'indexing' | 'done' | 'error'

export interface SessionState {
  phase: SessionPhase
  fileName: string
  fileSize: number
  opened: OpenedFile | undefined
  semantics: Semantics | undefined
  progress: ScanProgress | undefined
  /** Chunks and records indexed so far (what can be browsed). */
  chunks: number
  records: number
  convention: NbytesConvention | undefined
  summary: ScanSummary | undefined
  /** True when the user stopped the indexing; the chunks found stay browsable. */
  cancelled: boolean
  /** The problem; when `opened` is set, everything indexed before it stays browsable. */
  error: RadError | Error | undefined
  /** Worker failures and the like, in plain words. */
  notices: string[]
}

export interface SessionOptions {
  /** Byte budget of the decoded-chunk cache. */
  cacheBytes?: number
  decodeWorkers?: number
}

const DEFAULT_CACHE_BYTES = 256 << 20
/** Queued decode requests older than this many `want` calls are dropped. */
const STALE_WANTS = 8
/** holdIndex: the walk stays paused this long after the last scroll event, asked at most this often. */
const HOLD_MS = 300
const HOLD_EVERY_MS = 100

/** The page pings the index worker this often while it scans… */
const HEARTBEAT_MS = 1000
/**
 * …and takes it for dead when a ping stays unanswered this long. A worker
 * that dies can do so without an error event (it closed itself, or the
 * browser stopped it); without this the page would wait forever. The scan
 * answers between reads, and its longest synchronous step (checking or
 * decompressing one chunk of up to 1 GiB) takes a few seconds at most.
 */
export const INDEX_SILENCE_MS = 15_000
/**
 * With this many cores or more, records are checked in a worker beside the
 * index walk (ADR 0002); with fewer, inside it. On this project's 2-core
 * machine (1.1 GB salmon file, Chromium, median of 7) the index runs at
 * 0.78 GB/s without checks and 0.54 GB/s with them, inside or beside alike:
 * without a spare core the checker thread only competes with the walk and
 * the browser's file reads. Beside the walk, the checks leave the index
 * worker only a chunk copy per chunk, which a spare core should turn into
 * most of the unchecked speed (not measurable here).
 */
export const CHECK_BESIDE_MIN_CORES = 4

let nextJob = 1

let spareIndexWorker: Worker | undefined

/** Pre-warmed workers that failed before a file needed them (their error event is gone). */
const failedWorkers = new WeakSet<Worker>()

function createIndexWorker(): Worker {
  const worker = new Worker(new URL('./index.worker.ts', import.meta.url), { type: 'module', name: 'rad-index' })
  worker.addEventListener('error', () => failedWorkers.add(worker))
  return worker
}

function takeIndexWorker(): Worker {
  let worker = spareIndexWorker
  spareIndexWorker = undefined
  if (worker && failedWorkers.has(worker)) {
    worker.terminate()
    worker = undefined
  }
  return worker ?? createIndexWorker()
}

/**
 * Starts an index worker before any file is chosen, so opening one does not
 * wait ~60 ms for the worker's code to load. Called at page load and after
 * each file finishes indexing (never while one indexes, so that the workers
 * of a file being replaced are exactly the ones terminated).
 */
export function prewarmIndexWorker(): void {
  if (typeof Worker !== 'undefined') spareIndexWorker ??= createIndexWorker()
}

export class RadSession {
  readonly id: number
  readonly file: File
  readonly index = new IndexStore()
  private state: SessionState
  private readonly listeners = new Set<() => void>()
  private readonly dataListeners = new Set<() => void>()
  private dataVersion = 0
  private readonly indexWorker: Worker
  private readonly indexApi: Remote<IndexApi>
  private indexRunning = true
  private lastHold = -Infinity
  private heartbeat: ReturnType<typeof setInterval> | undefined
  private readonly pool: DecodePool
  private readonly cache: ChunkCache
  private wantEpoch = 0
  private readonly wantedAt = new Map<number, number>()
  /** Chunks asked for again after their decode worker died. */
  private readonly retried = new Set<number>()
  private disposed = false

  constructor(file: File, opts: SessionOptions = {}) {
    this.id = nextJob++
    this.file = file
    this.state = {
      phase: 'opening',
      fileName: file.name,
      fileSize: file.size,
      opened: undefined,
      semantics: undefined,
      progress: undefined,
      chunks: 0,
      records: 0,
      convention: undefined,
      summary: undefined,
      cancelled: false,
      error: undefined,
      notices: [],
    }
    this.cache = new ChunkCache(opts.cacheBytes ?? DEFAULT_CACHE_BYTES, () => {
      this.bumpData()
    })
    this.pool = new DecodePool(file, {
      size: opts.decodeWorkers ?? poolSize(navigator.hardwareConcurrency),
      createWorker: () =>
        new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module', name: 'rad-decode' }),
      onWorkerFailed: (message) => {
        this.update({ notices: [...this.state.notices, message] })
      },
    })
    this.indexWorker = takeIndexWorker()
    this.indexWorker.addEventListener('error', (ev) => {
      ev.preventDefault()
      this.indexFailed(ev.message || 'it crashed')
    })
    this.indexWorker.addEventListener('messageerror', () => {
      this.indexFailed('a message from it could not be read')
    })
    this.indexApi = wrap<IndexApi>(this.indexWorker)
    this.startScan()
    this.startHeartbeat()
  }

  /**
   * Pings the index worker while it scans; a ping unanswered for
   * INDEX_SILENCE_MS means the worker is gone. A tick that comes much later
   * than planned (a busy or throttled page) restarts the clock instead of
   * judging the worker by it.
   */
  private startHeartbeat(): void {
    let sentAt: number | undefined
    let lastTick = Date.now()
    this.heartbeat = setInterval(() => {
      const now = Date.now()
      const late = now - lastTick > 3 * HEARTBEAT_MS
      lastTick = now
      if (!this.indexRunning || this.disposed) {
        clearInterval(this.heartbeat)
        return
      }
      if (sentAt !== undefined) {
        if (late) sentAt = now
        else if (now - sentAt > INDEX_SILENCE_MS) this.indexFailed(`no answer for ${String(INDEX_SILENCE_MS / 1000)} s`)
        return
      }
      const sent = now
      sentAt = sent
      this.indexApi.ping().then(
        () => {
          if (sentAt === sent) sentAt = undefined
        },
        () => {
          // A worker that cannot answer is caught by the silence above.
        },
      )
    }, HEARTBEAT_MS)
  }

  /** The index worker died: report it; everything indexed so far stays browsable. */
  private indexFailed(why: string): void {
    if (this.disposed || !this.indexRunning) return
    const where = this.index.count > 0 ? ` after indexing ${fmtInt(this.index.count)} chunks` : ''
    this.finishIndex(
      new RadError(
        'WORKER_FAILED',
        `the index worker stopped (${why})${where}; the rest of the file was not read or checked`,
        undefined,
      ),
    )
    this.update({ notices: [...this.state.notices, `The index worker stopped (${why}); a new one was started.`] })
  }

  private startScan(): void {
    const events: ScanEvents = {
      opened: (opened) => {
        if (this.disposed) return
        this.pool.open(opened.prelude, opened.container)
        this.update({ opened, semantics: inferSemantics(opened.prelude), phase: 'indexing' })
      },
      first: (added: ChunkIndex, chunks, convention) => {
        if (this.disposed) return
        this.index.append(added)
        this.pool.setConvention(convention)
        chunks.forEach((cols, k) => {
          this.cache.insert(k, cols)
        })
        this.update({ chunks: this.index.count, records: this.index.records, convention })
      },
      index: (added: ChunkIndex, convention) => {
        if (this.disposed) return
        this.index.append(added)
        this.pool.setConvention(convention)
        this.update({ chunks: this.index.count, records: this.index.records, convention })
      },
      progress: (progress) => {
        if (!this.disposed) this.update({ progress })
      },
    }
    const checkBeside = (navigator.hardwareConcurrency || 2) >= CHECK_BESIDE_MIN_CORES
    this.indexApi.scan(this.file, this.id, proxy(events), { checkBeside }).then(
      (summary) => {
        this.finishIndex(summary.error ? RadError.fromData(summary.error) : undefined, summary)
      },
      (e: unknown) => {
        this.finishIndex(e instanceof Error ? e : new Error(String(e)))
      },
    )
  }

  private finishIndex(error: Error | undefined, summary?: ScanSummary): void {
    if (this.disposed || !this.indexRunning) return
    this.indexRunning = false
    clearInterval(this.heartbeat)
    // The index worker's job is over: free its memory at once, and get one ready for the next file.
    this.indexWorker.terminate()
    prewarmIndexWorker()
    this.update({
      phase: error ? 'error' : 'done',
      error,
      summary,
      cancelled: summary?.cancelled ?? false,
      chunks: this.index.count,
      records: this.index.records,
    })
  }

  private update(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l()
  }

  private bumpData(): void {
    if (this.disposed) return
    this.dataVersion++
    for (const l of this.dataListeners) l()
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  readonly getState = (): SessionState => this.state

  /** For components that show decoded rows: notified whenever a chunk arrives or fails. */
  readonly subscribeData = (listener: () => void): (() => void) => {
    this.dataListeners.add(listener)
    return () => this.dataListeners.delete(listener)
  }

  readonly getDataVersion = (): number => this.dataVersion

  getChunk(chunk: number): ChunkColumns | undefined {
    return this.cache.get(chunk)
  }

  chunkError(chunk: number): Error | undefined {
    return this.cache.error(chunk)
  }

  /**
   * What the screen needs now: `visible` chunks first, then `prefetch`.
   * Requests from earlier calls sink below these and are eventually dropped.
   */
  want(visible: readonly number[], prefetch: readonly number[] = []): void {
    if (this.disposed) return
    const epoch = ++this.wantEpoch
    const ask = (chunk: number, priority: number): void => {
      if (chunk < 0 || chunk >= this.index.count) return
      this.wantedAt.set(chunk, epoch)
      if (this.pool.reprioritize(chunk, priority) || this.cache.has(chunk)) return
      this.load(chunk, priority)
    }
    visible.forEach((chunk, i) => {
      ask(chunk, -4 * epoch - 2 + i / (visible.length + 1))
    })
    prefetch.forEach((chunk) => {
      ask(chunk, -4 * epoch)
    })
    this.pool.drop((chunk) => (this.wantedAt.get(chunk) ?? 0) > epoch - STALE_WANTS)
    if (this.wantedAt.size > 4096) {
      for (const [chunk, at] of this.wantedAt) if (at <= epoch - STALE_WANTS) this.wantedAt.delete(chunk)
    }
  }

  private load(chunk: number, priority: number): void {
    const req = { chunk, offset: this.index.offset(chunk), nbytes: this.index.nbytes(chunk) }
    this.cache
      .load(chunk, () => this.pool.request(req, priority))
      .catch((e: unknown) => {
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
   * The user is scrolling: pause the index walk for a moment, so the page's
   * frames get the CPU. On 2 cores the walk and the browser's reads for it
   * take about one core, and the table missed 10–15% of its frames while
   * indexing (issue 4). The walk resumes HOLD_MS after the last scroll event;
   * at most one message per HOLD_EVERY_MS.
   */
  holdIndex(): void {
    if (!this.indexRunning || this.disposed) return
    const now = performance.now()
    if (now - this.lastHold < HOLD_EVERY_MS) return
    this.lastHold = now
    void this.indexApi.holdFor(this.id, HOLD_MS)
  }

  /** Stops indexing; every chunk found so far stays browsable. */
  cancel(): void {
    if (!this.indexRunning || this.disposed) return
    void this.indexApi.cancel(this.id)
  }

  get isDisposed(): boolean {
    return this.disposed
  }

  /**
   * The valid part of a damaged file, as a File assembled from the salvage
   * plan: the corrected prelude (from the index worker) and `Blob.slice`s of
   * the intact chunks. Slicing reads nothing: the browser copies the bytes
   * only when the download is written. Undefined when there is no plan.
   */
  salvagedFile(): File | undefined {
    const offer = this.state.summary?.salvage
    if (!offer || this.disposed) return undefined
    const parts: BlobPart[] = [offer.head as Uint8Array<ArrayBuffer>]
    for (const [start, end] of offer.ranges) parts.push(this.file.slice(start, end))
    return new File(parts, salvagedName(this.file.name), { type: 'application/octet-stream' })
  }

  /** Terminates every worker of this file and forgets its data. */
  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    this.indexRunning = false
    clearInterval(this.heartbeat)
    this.indexWorker.terminate()
    this.pool.dispose()
    this.cache.clear()
    // Comlink's port for the scan callbacks may keep this object reachable for a while.
    this.index.clear()
    this.listeners.clear()
    this.dataListeners.clear()
  }
}

/** `map.rad` → `map.salvaged.rad`; other names get the suffix appended. */
export function salvagedName(name: string): string {
  const base = name.replace(/\.rad$/i, '')
  return `${base === '' ? 'file' : base}.salvaged.rad`
}

/** Opens a dropped or chosen file: workers start at once; nothing is read on this thread. */
export function openRadFile(file: File, opts?: SessionOptions): RadSession {
  return new RadSession(file, opts)
}
