/**
 * The index worker's work (docs/architecture.md §2): per scan, open the source, install a
 * sidecar or cached index or walk and check every chunk (knownIndex.ts, scanFile.ts), and stream
 * the index to the page. index.worker.ts is its one-line entry; tests call makeIndexApi.
 */
import { transfer } from 'comlink'
import type { Remote } from 'comlink'
import { openByteSource, remoteVersionOf } from '../io/sourceSpec'
import type { SourceSpec } from '../io/sourceSpec'
import { RadError } from '../rad/errors'
import type { Prelude } from '../rad/types'
import type { RecordChecker } from './checksBeside'
import type { ByteSource } from '../io/byteSource'
import type { IndexApi, ScanEvents, ScanRequest, ScanSummary } from './protocol'
import { CHECK_TIMEOUT_MS, remoteChecker } from './remoteChecker'
import { cancelled, unreadable } from './scanFile'
import { scanOrInstall } from './knownIndex'
import { sidecarOf } from '../io/sidecarBeside'
import { WalkFeed } from './walkFeed'

interface Job {
  controller: AbortController
  /** performance.now() until which the walk stays paused (holdFor). */
  holdUntil: number
  /** The statistics pass's channels (ScanRequest.feed), when the page gave them. */
  feed: WalkFeed | undefined
}

/** The longest pause one holdFor call can ask for: a page that stops asking lets the walk go on soon. */
const MAX_HOLD_MS = 1000

function startCheckerWorker(): Worker | undefined {
  try {
    return new Worker(new URL('./check.worker.ts', import.meta.url), { type: 'module', name: 'rad-check' })
  } catch {
    // No nested workers here: the records are checked in this thread instead.
    return undefined
  }
}

/** The record checker of ADR 0002 (counting the statistics too when `count`), when this thread can start one. */
function startChecker(prelude: Prelude, count: boolean): RecordChecker | undefined {
  const worker = startCheckerWorker()
  return worker && remoteChecker(prelude, worker, CHECK_TIMEOUT_MS, count)
}

/**
 * Cancel pressed before the scan proper (reading the fingerprint, the content sample, a
 * sidecar): a cancel, as scanFile reports one during the walk, never an internal error.
 */
async function cancelledIfAborted(
  signal: AbortSignal,
  started: number,
  work: Promise<ScanSummary>,
): Promise<ScanSummary> {
  try {
    return await work
  } catch (e) {
    if (signal.aborted) return cancelled(started)
    throw e
  }
}

/** How the scan opens its source: openByteSource, or a test's bytes. */
export type OpenSource = (spec: SourceSpec, signal: AbortSignal) => Promise<ByteSource>

/**
 * The index worker's API (index.worker.ts exposes one): each scan opens its source (`open`, the
 * real one by default, so tests run this very code on MessageChannels) and keeps a job to cancel
 * or hold.
 */
export function makeIndexApi(open: OpenSource = openByteSource): IndexApi {
  const jobs = new Map<number, Job>()
  return {
    async scan(
      spec: SourceSpec,
      jobId: number,
      events: Remote<ScanEvents>,
      options?: ScanRequest,
    ): Promise<ScanSummary> {
      const controller = new AbortController()
      const feed = options?.feed && options.feed.length > 0 ? new WalkFeed(options.feed) : undefined
      const job: Job = { controller, holdUntil: 0, feed }
      jobs.set(jobId, job)
      try {
        const started = Date.now()
        // A URL's sidecar is fetched while its first bytes are: one round trip for both.
        // Asked to scan fresh (docs/sidecar.md, "A sidecar is a claim"): no sidecar, not even a URL's.
        const sidecar = options?.fresh
          ? Promise.resolve(undefined)
          : sidecarOf(spec, options?.sidecar, controller.signal)
        let source
        try {
          source = await open(spec, controller.signal)
        } catch (e) {
          // Cancel pressed while the first bytes were awaited (a stalled server): a cancel, not a failure.
          if (controller.signal.aborted) return cancelled(started)
          // A URL that cannot be read (unreachable, CORS, no Range): no verdict, the failure named (scanFile.ts).
          if (e instanceof RadError) return unreadable(e, started)
          throw e
        }
        const remote = remoteVersionOf(source)
        const summary = await cancelledIfAborted(
          controller.signal,
          started,
          scanOrInstall(
            source,
            await sidecar,
            {
              indexSource: (indexSource, rejected) => events.indexSource(indexSource, rejected),
              opened: (opened) => events.opened(remote ? { ...opened, remote } : opened),
              first: (index, chunks, convention, buffers) => events.first(transfer(index, buffers), chunks, convention),
              index: (added, convention, buffers) => events.index(transfer(added, buffers), convention),
              progress: (p) => events.progress(p),
              ...(options?.useCache
                ? {
                    cachedIndex: (key: string) => events.cachedIndex(key),
                    cacheRejected: (key: string, why: string) => events.cacheRejected(key, why),
                  }
                : {}),
            },
            {
              signal: controller.signal,
              // Counting needs the checker thread whatever the cores (ScanRequest.countStats).
              checker: options?.checkBeside || options?.countStats ? startChecker : undefined,
              countStats: options?.countStats === true,
              held: () => Math.max(0, job.holdUntil - performance.now()),
              ...(feed ? { feed } : {}),
            },
          ),
        )
        const head = summary.salvage?.head.buffer
        return head instanceof ArrayBuffer ? transfer(summary, [head]) : summary
      } finally {
        // Not walked, or stopped early: the pass's workers hear the feed ended all the same.
        feed?.finish()
        jobs.delete(jobId)
      }
    },
    cancel(jobId: number): void {
      jobs.get(jobId)?.controller.abort()
    },
    stopFeed(jobId: number): void {
      jobs.get(jobId)?.feed?.stop()
    },
    holdFor(jobId: number, ms: number): void {
      const job = jobs.get(jobId)
      if (job) job.holdUntil = performance.now() + Math.min(ms, MAX_HOLD_MS)
    },
    ping(): number {
      return jobs.size
    },
  }
}
