/**
 * Cell-calling cut-offs on the barcode-rank curve (docs/stats.md "Knee"):
 * the knee-distance method of UMI-tools as docs/stats.md states it, and
 * alevin-fry generate-permit-list's --expect-cells and --force-cells.
 * Input: records per barcode, sorted descending.
 */
import type { Cutoff } from './types'

/** The index farthest from the line through the first and last points of the normalised cumulative curve (ties: the later). */
function farthestIndex(cum: Float64Array, n: number): number {
  const total = cum[n - 1]!
  const x1 = 0
  const y1 = cum[0]! / total
  const x2 = (n - 1) / n
  const y2 = 1
  const dx = x2 - x1
  const dy = y2 - y1
  let best = -1
  let at = 0
  for (let i = 0; i < n; i++) {
    // |dy·x − dx·y + x2·y1 − y2·x1|; the common denominator √(dx²+dy²) does not change the argmax.
    const d = Math.abs(dy * (i / n) - dx * (cum[i]! / total) + x2 * y1 - y2 * x1)
    if (d >= best) {
      best = d
      at = i
    }
  }
  return at
}

function cutoffAt(countsDesc: ArrayLike<number>, index: number, minCount: number): Cutoff {
  let cells = 0
  let kept = 0
  let total = 0
  for (let i = 0; i < countsDesc.length; i++) {
    const c = countsDesc[i]!
    total += c
    if (c >= minCount) {
      cells++
      kept += c
    }
  }
  return { index, cells, minCount, readsShare: total > 0 ? kept / total : 0 }
}

/**
 * The rank the knee-distance method picks: on x = rank/N, y = cumsum/total,
 * the index farthest from the line through the first and last points; then
 * again on the prefix of length max(2, min(N, 5·index)) until the index stops
 * moving, at most 100 rounds. Undefined with fewer than 2 barcodes.
 */
export function kneeIndex(countsDesc: ArrayLike<number>, maxRounds = 100): number | undefined {
  const n = countsDesc.length
  if (n < 2) return undefined
  const cum = new Float64Array(n)
  let acc = 0
  for (let i = 0; i < n; i++) cum[i] = acc += countsDesc[i]!
  if (acc === 0) return undefined
  let index = farthestIndex(cum, n)
  for (let round = 0; round < maxRounds; round++) {
    const next = farthestIndex(cum, Math.max(2, Math.min(n, 5 * index)))
    if (next === index) break
    index = next
  }
  return index
}

/** The knee cut-off: the barcodes with at least as many records as the knee's rank (alevin-fry keeps ties). */
export function kneeDistance(countsDesc: ArrayLike<number>): Cutoff | undefined {
  const index = kneeIndex(countsDesc)
  return index === undefined ? undefined : cutoffAt(countsDesc, index, countsDesc[index]!)
}

/** alevin-fry --force-cells K: the barcodes with at least as many records as rank K−1 (or the last). */
export function forceCellsCutoff(countsDesc: ArrayLike<number>, k: number): Cutoff | undefined {
  const n = countsDesc.length
  if (n === 0 || k < 1) return undefined
  const index = Math.min(n - 1, k - 1)
  return cutoffAt(countsDesc, index, countsDesc[index]!)
}

/**
 * alevin-fry --expect-cells E: robust rank round(0.99·E) (at most the last),
 * threshold max(1, round(count there / 10)).
 */
export function expectCellsCutoff(countsDesc: ArrayLike<number>, expected: number): Cutoff | undefined {
  const n = countsDesc.length
  if (n === 0 || expected < 1) return undefined
  const index = Math.min(n - 1, Math.round(expected * 0.99))
  const minCount = Math.max(1, Math.round(countsDesc[index]! / 10))
  return cutoffAt(countsDesc, index, minCount)
}
