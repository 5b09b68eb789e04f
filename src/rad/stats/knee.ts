/**
 * Cell-calling cut-offs on the barcode-rank curve (docs/stats.md "Knee"):
 * the knee-distance method of UMI-tools as docs/stats.md states it, and
 * alevin-fry generate-permit-list's --expect-cells and --force-cells.
 * Input: records per barcode, descending, as a list or as runs of equal counts (countRuns.ts).
 */
import { countAtRank, forEachRun, prefixRuns, runsOf } from './countRuns'
import type { CountRuns, Descending } from './countRuns'
import type { Cutoff } from './statsTypes'

/** A run whose distance changes by less than this end to end is flat: its points differ by rounding only. */
const FLAT = 1e-12

/**
 * The index farthest from the line through the first and last points of the normalised cumulative
 * curve (ties: the later). Within a run of equal counts the cumulative sum grows linearly, so the
 * distance is |a linear function| there and its largest value is at one of the run's ends: only
 * those are looked at (a run of a million barcodes costs two points). A run parallel to the line
 * (its points all equally far, but for rounding) is looked at whole, so the rounding picks the same
 * point as a walk over every barcode (alevin-fry's).
 */
function farthestIndex(r: CountRuns): number {
  const n = r.barcodes
  const total = r.total
  const y1 = r.values[0]! / total
  const x2 = (n - 1) / n
  const dx = x2
  const dy = 1 - y1
  const norm = Math.hypot(dy, dx)
  let best = -1
  let at = 0
  const look = (i: number, cum: number): void => {
    // |dy·x − dx·y + x2·y1 − y2·x1| / |(dx, dy)|, with x1 = 0 and y2 = 1 (docs/stats.md, "Knee").
    const d = Math.abs(dy * (i / n) - dx * (cum / total) + x2 * y1) / norm
    if (d >= best) {
      best = d
      at = i
    }
  }
  forEachRun(r, (start, end, value, before) => {
    const flat = Math.abs(dy / n - (dx * value) / total) * (end - start) < FLAT
    if (flat) for (let i = start; i < end; i++) look(i, before + value * (i - start + 1))
    else {
      look(start, before + value)
      if (end - 1 > start) look(end - 1, before + value * (end - start))
    }
  })
  return at
}

function cutoffAt(r: CountRuns, index: number, minCount: number): Cutoff {
  let cells = 0
  let kept = 0
  forEachRun(r, (start, end, value) => {
    if (value < minCount) return
    cells += end - start
    kept += value * (end - start)
  })
  return { index, cells, minCount, readsShare: r.total > 0 ? kept / r.total : 0 }
}

/**
 * The rank the knee-distance method picks: on x = rank/N, y = cumsum/total,
 * the index farthest from the line through the first and last points; then
 * again on the prefix of length max(2, min(N, 5·index)) until the index stops
 * moving, at most 100 rounds. Undefined with fewer than 2 barcodes.
 */
export function kneeIndex(counts: Descending, maxRounds = 100): number | undefined {
  const r = runsOf(counts)
  const n = r.barcodes
  if (n < 2 || r.total === 0) return undefined
  let index = farthestIndex(r)
  for (let round = 0; round < maxRounds; round++) {
    const next = farthestIndex(prefixRuns(r, Math.max(2, Math.min(n, 5 * index))))
    if (next === index) break
    index = next
  }
  return index
}

/** The knee cut-off: the barcodes with at least as many records as the knee's rank (alevin-fry keeps ties). */
export function kneeDistance(counts: Descending): Cutoff | undefined {
  const r = runsOf(counts)
  const index = kneeIndex(r)
  return index === undefined ? undefined : cutoffAt(r, index, countAtRank(r, index))
}

/** alevin-fry --force-cells K: the barcodes with at least as many records as rank K−1 (or the last). */
export function forceCellsCutoff(counts: Descending, k: number): Cutoff | undefined {
  const r = runsOf(counts)
  if (r.barcodes === 0 || k < 1) return undefined
  const index = Math.min(r.barcodes - 1, k - 1)
  return cutoffAt(r, index, countAtRank(r, index))
}

/**
 * alevin-fry --expect-cells E: robust rank round(0.99·E) (at most the last),
 * threshold max(1, round(count there / 10)).
 */
export function expectCellsCutoff(counts: Descending, expected: number): Cutoff | undefined {
  const r = runsOf(counts)
  if (r.barcodes === 0 || expected < 1) return undefined
  const index = Math.min(r.barcodes - 1, Math.round(expected * 0.99))
  const minCount = Math.max(1, Math.round(countAtRank(r, index) / 10))
  return cutoffAt(r, index, minCount)
}
