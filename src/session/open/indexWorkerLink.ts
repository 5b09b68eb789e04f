/**
 * The life of the index worker (docs/architecture.md §2): one is started before
 * any file is chosen (the spare), each file takes it, a heartbeat watches it
 * while it scans, and when the scan ends it is terminated and a new spare is
 * started for the next file.
 */
import { wrap } from 'comlink'
import type { Remote } from 'comlink'
import '../../workers/comlinkErrors'
import type { IndexApi } from '../../workers/protocol'

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

/** Whether a scan on a machine with `cores` (navigator.hardwareConcurrency) checks records beside the walk. */
export function checkBeside(cores: number | undefined): boolean {
  return (cores || 2) >= CHECK_BESIDE_MIN_CORES
}

let spareIndexWorker: Worker | undefined

/** Pre-warmed workers that failed before a file needed them (their error event is gone). */
const failedWorkers = new WeakSet<Worker>()

function createIndexWorker(): Worker {
  const worker = new Worker(new URL('../../workers/index.worker.ts', import.meta.url), {
    type: 'module',
    name: 'rad-index',
  })
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

/**
 * One file's index worker while it scans. `onFailed` hears, at most once and
 * only while the scan runs, that the worker crashed, sent a message that
 * could not be read, or stopped answering.
 */
/** hold: the walk stays paused this long after the last scroll event, asked at most this often. */
const HOLD_MS = 300
const HOLD_EVERY_MS = 100

export class IndexWorkerLink {
  readonly api: Remote<IndexApi>
  private readonly worker: Worker
  private readonly onFailed: (why: string) => void
  private heartbeat: ReturnType<typeof setInterval> | undefined
  private scanning = true
  private lastHold = -Infinity

  /** `create` replaces the spare and the real worker (tests run one on a MessageChannel). */
  constructor(onFailed: (why: string) => void, create?: () => Worker) {
    this.onFailed = onFailed
    this.worker = create ? create() : takeIndexWorker()
    this.worker.addEventListener('error', (ev) => {
      ev.preventDefault()
      this.fail(ev.message || 'it crashed')
    })
    this.worker.addEventListener('messageerror', () => {
      this.fail('a message from it could not be read')
    })
    this.api = wrap<IndexApi>(this.worker)
    this.startHeartbeat()
  }

  /** True until the scan ended, failed or was abandoned. */
  get running(): boolean {
    return this.scanning
  }

  /**
   * The user is scrolling: pause scan `jobId`'s walk for a moment, so the page's frames get the
   * CPU. On 2 cores the walk and the browser's reads for it take about one core, and the table
   * missed 10–15% of its frames while indexing (bench/results.md). The walk resumes HOLD_MS after
   * the last scroll event; at most one message per HOLD_EVERY_MS.
   */
  hold(jobId: number): void {
    if (!this.scanning) return
    const now = performance.now()
    if (now - this.lastHold < HOLD_EVERY_MS) return
    this.lastHold = now
    void this.api.holdFor(jobId, HOLD_MS)
  }

  private fail(why: string): void {
    if (this.scanning) this.onFailed(why)
  }

  /**
   * Pings the worker while it scans; a ping unanswered for INDEX_SILENCE_MS
   * means the worker is gone. A tick that comes much later than planned (a
   * busy or throttled page) restarts the clock instead of judging the worker
   * by it.
   */
  private startHeartbeat(): void {
    let sentAt: number | undefined
    let lastTick = Date.now()
    this.heartbeat = setInterval(() => {
      const now = Date.now()
      const late = now - lastTick > 3 * HEARTBEAT_MS
      lastTick = now
      if (!this.scanning) {
        clearInterval(this.heartbeat)
        return
      }
      if (sentAt !== undefined) {
        if (late) sentAt = now
        else if (now - sentAt > INDEX_SILENCE_MS) this.fail(`no answer for ${String(INDEX_SILENCE_MS / 1000)} s`)
        return
      }
      const sent = now
      sentAt = sent
      this.api.ping().then(
        () => {
          if (sentAt === sent) sentAt = undefined
        },
        () => {
          // A worker that cannot answer is caught by the silence above.
        },
      )
    }, HEARTBEAT_MS)
  }

  /** The scan is over: free the worker's memory at once, and get one ready for the next file. */
  retire(): void {
    if (!this.scanning) return
    this.terminate()
    prewarmIndexWorker()
  }

  /** Stops the worker and the heartbeat; no spare is started (the file is being closed). */
  terminate(): void {
    this.scanning = false
    clearInterval(this.heartbeat)
    this.worker.terminate()
  }
}
