/**
 * The whole-file statistics pass (docs/stats.md, ADR 0004 and 0009), run from the page thread but
 * computed in the decode workers: a consumer of the one pass runner (lanes.ts), each worker
 * walking ~16 MiB batches into its own accumulator (statsWorker.ts). Each worker owns a range of
 * the exact pairs' buckets and appends only their pairs; the rows of the others' buckets go to
 * their owner over a MessageChannel between each pair of workers (connectPeers, statsPeers.ts),
 * or through this thread (statsRows) where there are no channels, so no pair is held twice
 * (bench/results.md, ADR 0009's seventh round). Every REPORT_EVERY_MS (or REPORT_COST_RATIO × the
 * last report's time), worker 0 reports its figures with copies of the others' without their
 * pairs (statsSnapshot). At the end, once every row is counted (statsPeersDone), all the workers
 * settle at once (statsSettle): each with a spill file merges, bucket by bucket, what it wrote
 * with what it holds (ADR 0015), folding its barcodes into a digest past its share of
 * PAGE_ROW_BARCODES (ADR 0016). Then the others drain one at a time into worker 0: their figures
 * only, without the pairs' UMIs, or whole states where any worker left the exact pairs. Worker 0
 * answers with the JSON and the thinned rank curve: the page never sees a record.
 */
import { transfer } from 'comlink'
import { RadError } from '../../rad/errors'
import type { NbytesConvention } from '../../rad/types'
import type { WorkerCall } from '../rows/decodePool'
import { lanesOf, passBatches, runLanes } from '../rows/lanes'
import { PartialReports, connectPeers, reportsOf } from './statsPassWorkers'

export { REPORT_COST_RATIO, REPORT_EVERY_MS } from './statsPassWorkers'
import type { ChunkRequest, SpillPlan, StatsBatchResult, StatsReport } from '../../workers/protocol'

/**
 * Bytes a statistics batch reads, half the bulk passes' (BULK_BATCH_BYTES): each worker holds
 * BULK_DEPTH read buffers beside its counts, and on a 1 GiB 10x run the counts need the room
 * (bench/results.md, ADR 0009's seventh round).
 */
export const STATS_BATCH_BYTES = 16 << 20

/**
 * The exact pairs' lists the pass may hold, all workers together, before each worker spills its
 * own to a file of the origin's private file system (ADR 0015), and the keys waiting: the same for
 * every file. The counting core's memory grows to ~3× its lists, so a budget that let a 1 GiB 10x
 * run's lists (~200 MB) stay in memory took the page to 481–511 MiB above idle; spilled in blocks
 * (opfsSpill.ts), the same run costs ~10 % of its speed at ~360 MiB (bench/results.md, issue 35).
 * `globalThis.radStatsBudget` (bytes) and `radStatsPending` (keys), set before the page loads,
 * change them: the browser tests spill the small fixtures so.
 */
export const PAGE_LIST_BUDGET = 64 << 20
export const PAGE_PENDING_KEYS = 2 << 20
/**
 * Barcodes the page keeps a row for, all workers together (16 bytes each, and a few copies at the
 * end): a 10x run's million and more. Past it (a run whose barcodes are nearly all distinct) the
 * figures come from a digest (ADR 0016), and the per-barcode TSV and the cells say so.
 * `globalThis.radStatsRows` changes it (the browser test folds the small fixture so).
 */
export const PAGE_ROW_BARCODES = 4_000_000
/** A spill writes ~4 bytes a distinct pair: at most about this share of the file's bytes (10x runs: ~0.14). */
const SPILL_SHARE_OF_FILE = 0.3

/** A number set on the page before it loaded (the tests' and benchmarks' knobs), else `fallback`. */
function knob(name: 'radStatsBudget' | 'radStatsPending' | 'radStatsRows', fallback: number): number {
  const value = (globalThis as Record<string, unknown>)[name]
  return typeof value === 'number' ? value : fallback
}

/** Each worker's share of the memory plan (SpillPlan), for a pass over `totalBytes`. */
export function spillPlanOf(totalBytes: number, workers: number): SpillPlan {
  return {
    budget: Math.floor(knob('radStatsBudget', PAGE_LIST_BUDGET) / workers),
    pendingKeys: knob('radStatsPending', PAGE_PENDING_KEYS),
    bytes: Math.ceil((SPILL_SHARE_OF_FILE * totalBytes) / workers),
    rowsUpTo: Math.ceil(knob('radStatsRows', PAGE_ROW_BARCODES) / workers),
  }
}

export interface StatsProgress {
  bytes: number
  totalBytes: number
  chunks: number
  totalChunks: number
  records: number
  elapsedMs: number
  /** Remaining time at the rate so far; undefined until some bytes were read. */
  etaMs: number | undefined
  /** Chunks the decoder refused (the index's integrity report lists them): not counted. */
  skippedChunks: number
}

export interface StatsPassOptions {
  pass: number
  signal: AbortSignal
  onProgress: (p: StatsProgress) => void
  /** A partial report (the chunks read so far). */
  onPartial: (r: StatsReport, p: StatsProgress) => void
}

/** A pass's progress before its first batch. */
export function startingProgress(reqs: readonly ChunkRequest[]): StatsProgress {
  return {
    bytes: 0,
    totalBytes: reqs.reduce((sum, r) => sum + r.nbytes, 0),
    chunks: 0,
    totalChunks: reqs.length,
    records: 0,
    elapsedMs: 0,
    etaMs: undefined,
    skippedChunks: 0,
  }
}

/** Runs the pass over `reqs`; resolves with the final report (worker 0 keeps the totals, for statsCutoffs). */
export function runStatsPass(
  calls: readonly WorkerCall[],
  convention: NbytesConvention,
  reqs: readonly ChunkRequest[],
  opts: StatsPassOptions,
): Promise<StatsReport> {
  return runPass(calls, startingProgress(reqs), opts, (run) => run.countChunks(convention, reqs))
}

/** What the index walk fed a pass begun beside it (ADR 0017), once it has ended. */
export interface WalkedRest {
  convention: NbytesConvention
  /** The chunks indexed that the walk did not feed: the pass reads them itself. */
  reqs: ChunkRequest[]
  /** Every chunk indexed, and their bytes (nbytes): the pass's whole. */
  totalChunks: number
  totalBytes: number
}

/** A pass the index walk feeds as it goes (walkFeed.ts, ADR 0017). */
export interface FedPass {
  /** One port a worker; their other ends went to the walk (ScanRequest.feed). */
  ports: readonly MessagePort[]
  /** The bytes the pass will cover, roughly, until the walk has ended (the file's, from the first chunk). */
  expectedBytes: number
  /** The walk's end; rejects (CANCELLED) when it was cancelled or failed before a pass could follow. */
  walked: Promise<WalkedRest>
  /** Set by the pass while the walk feeds it: told the bytes fed so far (ScanProgress.fedBytes). */
  onFed?: ((bytes: number) => void) | undefined
}

/**
 * Runs a pass the index walk feeds: the workers count what it sends as it checks the chunks, then
 * read the chunks it did not feed (damaged ones, all of them if it fed none) as
 * runStatsPass does, and report.
 */
export function runFedStatsPass(
  calls: readonly WorkerCall[],
  fed: FedPass,
  opts: StatsPassOptions,
): Promise<StatsReport> {
  const progress = { ...startingProgress([]), totalBytes: fed.expectedBytes }
  return runPass(calls, progress, opts, async (run) => {
    await run.feedFrom(fed.ports)
    fed.onFed = (bytes) => {
      progress.bytes = Math.min(bytes, progress.totalBytes)
      run.progressed()
    }
    let rest: WalkedRest
    try {
      rest = await untilAborted(fed.walked, opts.signal)
    } finally {
      fed.onFed = undefined
    }
    // The fed chunks are the indexed ones the rest leaves out.
    progress.totalBytes = rest.totalBytes
    progress.totalChunks = rest.totalChunks
    progress.bytes = rest.totalBytes - rest.reqs.reduce((sum, q) => sum + q.nbytes, 0)
    progress.chunks = rest.totalChunks - rest.reqs.length
    await run.countChunks(rest.convention, rest.reqs)
    await run.fedDone()
  })
}

/** `work`, or CANCELLED as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new RadError('CANCELLED', 'the statistics pass was cancelled'))
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(new RadError('CANCELLED', 'the statistics pass was cancelled'))
    }
    signal.addEventListener('abort', onAbort, { once: true })
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener('abort', onAbort)
    })
  })
}

/** What a pass's counting may do (runPass): read chunks, take the walk's feed. */
interface PassRun {
  countChunks(convention: NbytesConvention, reqs: readonly ChunkRequest[]): Promise<void>
  feedFrom(ports: readonly MessagePort[]): Promise<void>
  /** Adds the fed chunks' records (and those it could not count) once the walk's feed is all counted. */
  fedDone(): Promise<void>
  /** Tells the page the progress as it stands. */
  progressed(): void
}

/**
 * The pass's frame: begin on every worker (channels between them), partial reports while `count`
 * runs, the rows all handed over, then the final report.
 */
async function runPass(
  calls: readonly WorkerCall[],
  progress: StatsProgress,
  opts: StatsPassOptions,
  count: (run: PassRun) => Promise<void>,
): Promise<StatsReport> {
  if (!calls[0]) throw new Error('internal: a statistics pass without workers')
  const { pass, signal } = opts
  const started = performance.now()
  const tick = (): StatsProgress => {
    progress.elapsedMs = performance.now() - started
    const rate = progress.bytes / progress.elapsedMs
    progress.etaMs = progress.bytes > 0 ? (progress.totalBytes - progress.bytes) / rate : undefined
    return { ...progress }
  }
  const workers = calls.length
  const plan = spillPlanOf(progress.totalBytes, workers)
  await Promise.all(calls.map((call, index) => call((api) => api.statsBegin(pass, { count: workers, index }, plan))))
  const peered = await connectPeers(calls, pass)
  // Rows on their way to their owner: all counted before the final report.
  const handed = new Set<Promise<void>>()
  let lost: Error | undefined
  const handOver = (foreign: (Uint32Array | undefined)[]): void => {
    foreign.forEach((rows, owner) => {
      const call = calls[owner]
      if (!rows || !call) return
      const sent = call((api) => api.statsRows(pass, transfer(rows, [rows.buffer as ArrayBuffer])))
      const settled: Promise<void> = sent
        .catch((e: unknown) => {
          lost ??= e instanceof Error ? e : new Error(String(e))
        })
        .finally(() => handed.delete(settled))
      handed.add(settled)
    })
  }
  const run: PassRun = {
    countChunks: async (convention, reqs) => {
      const lanes = lanesOf(calls, (api, batch) => api.statsBatch(pass, batch, convention))
      const onBatch = (r: StatsBatchResult, batch: ChunkRequest[]): void => {
        progress.bytes += batch.reduce((sum, q) => sum + q.nbytes, 0)
        progress.chunks += batch.length
        progress.records += r.records
        handOver(r.foreign)
        opts.onProgress(tick())
      }
      await runLanes(lanes, passBatches(reqs, convention, STATS_BATCH_BYTES), onBatch, {
        what: 'the statistics pass',
        signal,
        onBadChunk: () => {
          progress.skippedChunks++
        },
      })
    },
    feedFrom: async (ports) => {
      if (ports.length !== calls.length || (!peered && workers > 1)) {
        throw new Error('internal: a fed pass needs one channel a worker, and channels between them')
      }
      await Promise.all(
        calls.map((call, i) => {
          const port = ports[i]!
          return call((api) => api.statsFeed(pass, transfer(port, [port])))
        }),
      )
    },
    fedDone: async () => {
      const totals = await Promise.all(calls.map((call) => call((api) => api.statsFedDone(pass))))
      for (const t of totals) {
        progress.records += t.records
        progress.skippedChunks += t.bad.length
      }
      opts.onProgress(tick())
    },
    progressed: () => {
      opts.onProgress(tick())
    },
  }
  const { report, partialReport } = reportsOf(calls, pass)
  const partials = new PartialReports(partialReport, (r) => {
    if (!signal.aborted) opts.onPartial(r, tick())
  })
  try {
    await count(run)
  } catch (e) {
    partials.failed = true
    void Promise.all(calls.map((call) => call((api) => api.statsEnd(pass)))).catch(() => undefined)
    throw e
  } finally {
    await partials.stop()
  }
  await Promise.all(handed)
  // Rows sent between the workers directly: each hears every other's end, its rows all counted.
  if (peered) await Promise.all(calls.map((call) => call((api) => api.statsPeersDone(pass))))
  if (lost !== undefined) throw lost
  const final = await report()
  await Promise.all(calls.slice(1).map((call) => call((api) => api.statsEnd(pass))))
  opts.onProgress(tick())
  return final
}
