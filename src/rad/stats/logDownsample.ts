/**
 * The barcode-rank (knee) curve, thinned for drawing: a plot of 10 million
 * barcodes needs at most a few thousand points on log–log axes, since a
 * pixel column covers a constant ratio of ranks there. Pure and DOM-free:
 * the stats pass calls it in a worker and sends only the points.
 */
import { forEachRun, runsOf } from './countRuns'
import type { Descending } from './countRuns'

/** Points of the rank curve: rank (1-based), reads at that rank, and reads of ranks 1..rank. */
export interface RankCurve {
  rank: Float64Array
  count: Float64Array
  cumulative: Float64Array
  /** Barcodes on the full curve (the last rank). */
  barcodes: number
  /** Reads of every barcode. */
  total: number
}

/** Enough for a 2,000 px wide plot: ~285 points per decade over 10^7 ranks, every rank below ~120 kept. */
export const RANK_CURVE_POINTS = 2000

/**
 * Ranks ~evenly spaced in log space over 1..N (every rank while they are
 * closer than 1), plus `keep` (cut-offs to show exactly), sorted, unique.
 */
export function logRanks(n: number, points: number, keep: readonly number[] = []): number[] {
  if (n <= 0) return []
  const out = new Set<number>()
  const steps = Math.max(1, points - 1)
  const ratio = Math.log(n) / steps
  for (let i = 0; i <= steps; i++) out.add(Math.min(n, Math.max(1, Math.round(Math.exp(ratio * i)))))
  out.add(n)
  for (const k of keep) if (k >= 1 && k <= n) out.add(Math.round(k))
  return [...out].sort((a, b) => a - b)
}

/**
 * Samples the counts per barcode, descending, at log-spaced ranks (the curve is monotone, so no
 * extreme between two samples is lost), with the exact cumulative reads at each: one walk over
 * the runs of equal counts (countRuns.ts), however many barcodes they hold.
 */
export function logDownsample(counts: Descending, points = RANK_CURVE_POINTS, keep: readonly number[] = []): RankCurve {
  const runs = runsOf(counts)
  const ranks = logRanks(runs.barcodes, points, keep)
  const rank = Float64Array.from(ranks)
  const count = new Float64Array(ranks.length)
  const cumulative = new Float64Array(ranks.length)
  let j = 0
  forEachRun(runs, (start, end, value, before) => {
    // 1-based rank r is 0-based index r − 1: in this run while r ≤ end.
    for (; j < ranks.length && ranks[j]! <= end; j++) {
      count[j] = value
      cumulative[j] = before + value * (ranks[j]! - start)
    }
  })
  return { rank, count, cumulative, barcodes: runs.barcodes, total: runs.total }
}

/** The point at or just below `rank` (the cut-off snaps to drawn points, whose figures are exact). */
export function pointAtRank(curve: RankCurve, rank: number): number {
  let lo = 0
  let hi = curve.rank.length - 1
  if (hi < 0) return -1
  if (rank <= (curve.rank[0] ?? 1)) return 0
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if ((curve.rank[mid] ?? 0) <= rank) lo = mid
    else hi = mid - 1
  }
  return lo
}
