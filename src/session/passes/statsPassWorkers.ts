/**
 * The statistics pass's dealings with its workers (statsPass.ts): the channels between them, the
 * final report (each worker's figures drained into worker 0) and the partial ones on the way.
 */
import { transfer } from 'comlink'
import { statsTransferables } from '../../rad/stats'
import type { WorkerCall } from '../rows/decodePool'
import type { StatsReport } from '../../workers/protocol'

/** Partial results this often: often enough to watch the knee form… */
export const REPORT_EVERY_MS = 750
/**
 * …but at most this share of worker 0's time: a report sorts every barcode's
 * count (barcodeCountsDescending; ~0.2 s for 2M barcodes), so the next one
 * waits REPORT_COST_RATIO × the last one's duration when that is longer.
 */
export const REPORT_COST_RATIO = 8
/** Partial reports every REPORT_EVERY_MS (or REPORT_COST_RATIO × the last one's time) until stopped. */
export class PartialReports {
  /** Set when the pass failed: a report on its way is not shown. */
  failed = false
  private readonly ask: () => Promise<StatsReport>
  private readonly show: (r: StatsReport) => void
  private reporting: Promise<void> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private ended = false

  constructor(ask: () => Promise<StatsReport>, show: (r: StatsReport) => void) {
    this.ask = ask
    this.show = show
    this.timer = setTimeout(this.next, REPORT_EVERY_MS)
  }

  private readonly next = (): void => {
    const t0 = performance.now()
    this.reporting = this.ask()
      .then((r) => {
        if (!this.failed) this.show(r)
      })
      .catch(() => undefined)
      .finally(() => {
        this.reporting = undefined
        const wait = Math.max(REPORT_EVERY_MS, REPORT_COST_RATIO * (performance.now() - t0))
        if (!this.ended) this.timer = setTimeout(this.next, wait)
      })
  }

  /** No report after this; resolves once the one on its way (if any) is in. */
  async stop(): Promise<void> {
    this.ended = true
    clearTimeout(this.timer)
    await this.reporting
  }
}

/**
 * Gives each pair of workers a MessageChannel, so the rows of each other's buckets go between
 * them, not through this thread (statsPeers.ts); false where there is one worker or no channels.
 */
export async function connectPeers(calls: readonly WorkerCall[], pass: number): Promise<boolean> {
  if (calls.length < 2 || typeof MessageChannel === 'undefined') return false
  const ports: (MessagePort | undefined)[][] = calls.map(() => calls.map(() => undefined))
  for (let i = 0; i < calls.length; i++) {
    for (let j = i + 1; j < calls.length; j++) {
      const channel = new MessageChannel()
      ports[i]![j] = channel.port1
      ports[j]![i] = channel.port2
    }
  }
  await Promise.all(
    calls.map((call, i) => {
      const mine = ports[i]!
      const transferred = mine.filter((p): p is MessagePort => p !== undefined)
      return call((api) => api.statsPeers(pass, transfer(mine, transferred)))
    }),
  )
  return true
}

/** The final report and a partial one, asked of worker 0 (the others' states sent to it). */
export function reportsOf(calls: readonly WorkerCall[], pass: number) {
  const head = calls[0]!
  // The end: one worker's state at a time, merged before the next is drained: one state in
  // flight, not poolSize − 1 (the memory bound of docs/stats.md).
  const report = async (): Promise<StatsReport> => {
    // Where every worker counts its buckets' pairs exactly, the drained states need no pairs'
    // UMIs (half the file's pairs, ~4 bytes each): their figures merge into worker 0's exactly.
    const exact = await Promise.all(calls.map((call) => call((api) => api.statsExactPairs(pass))))
    const what = exact.every(Boolean) ? 'figures' : 'whole'
    // What each worker spilled is merged by all of them at once (ADR 0015).
    await Promise.all(calls.map((call) => call((api) => api.statsSettle(pass, what))))
    for (const call of calls.slice(1)) {
      const state = await call((api) => api.statsDrain(pass, what))
      // Transferred on, not copied: a drained state can hold half the file's pairs.
      await head((api) => api.statsMerge(pass, transfer([state], statsTransferables(state))))
    }
    const final = await head((api) => api.statsReport(pass))
    const spilled = await Promise.all(calls.map((call) => call((api) => api.statsSpilled(pass))))
    const spilledBytes = spilled.reduce((sum, n) => sum + n, 0)
    return spilledBytes > 0 ? { ...final, spilledBytes } : final
  }
  // On the way: copies of the others' figures (their buckets' pairs stay where they are).
  const partialReport = async (): Promise<StatsReport> => {
    const others = await Promise.all(calls.slice(1).map((call) => call((api) => api.statsSnapshot(pass))))
    // Passed on, not copied: the snapshots are the page's to give away.
    return head((api) => api.statsReport(pass, transfer(others, others.flatMap(statsTransferables))))
  }
  return { report, partialReport }
}
