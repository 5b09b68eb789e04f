/**
 * The barcode-rank (knee) curve, thinned for drawing: a plot of 10 million
 * barcodes needs at most a few thousand points on log–log axes, since a
 * pixel column covers a constant ratio of ranks there. Pure and DOM-free:
 * the stats pass calls it in a worker and sends only the points.
 */

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
 * Samples a descending reads-per-barcode array at log-spaced ranks (the
 * curve is monotone, so no extreme between two samples is lost), with the
 * exact cumulative reads at each: one O(N) pass (10^7 barcodes: ~20 ms).
 */
export function logDownsample(
  descending: ArrayLike<number>,
  points = RANK_CURVE_POINTS,
  keep: readonly number[] = [],
): RankCurve {
  const n = descending.length
  const ranks = logRanks(n, points, keep)
  const rank = new Float64Array(ranks.length)
  const count = new Float64Array(ranks.length)
  const cumulative = new Float64Array(ranks.length)
  const sum = sumSegments(descending, ranks, count, cumulative)
  rank.set(ranks)
  return { rank, count, cumulative, barcodes: n, total: sum }
}

/** Fills count[j] and cumulative[j] for each 1-based rank; returns the total. One tight loop per segment (10^7 barcodes: ~10 ms). */
function sumSegments(
  descending: ArrayLike<number>,
  ranks: readonly number[],
  count: Float64Array,
  cumulative: Float64Array,
): number {
  const n = descending.length
  let sum = 0
  let i = 0
  for (let j = 0; j < ranks.length; j++) {
    const r = ranks[j] as number
    for (; i < r; i++) sum += descending[i] as number
    count[j] = descending[r - 1] as number
    cumulative[j] = sum
  }
  for (; i < n; i++) sum += descending[i] as number
  return sum
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
