/**
 * Counts per barcode in descending order, held as runs of equal counts (docs/stats.md, "Exact at
 * any size"; ADR 0016): a run of 47 million barcodes of one read is one entry. The knee, the
 * cut-offs, the rank curve and the medians read the runs, so a state whose barcodes were folded
 * into histograms (BarcodeDigest) gives the same figures as one that kept a row per barcode.
 */
import { Histogram } from './countTable'
import type { HistogramState, MeanMedian } from './statsTypes'

/** Runs of equal counts, counts strictly descending; `lengths[i]` barcodes have `values[i]`. */
export interface CountRuns {
  values: Float64Array
  lengths: Float64Array
  /** Barcodes in all (Σ lengths). */
  barcodes: number
  /** The counts' sum (Σ values · lengths). */
  total: number
}

/** Counts descending as runs: either a plain descending list or runs already. */
export type Descending = ArrayLike<number> | CountRuns

function isRuns(d: Descending): d is CountRuns {
  return (d as Partial<CountRuns>).lengths !== undefined
}

/** Runs from their values (strictly descending) and lengths. */
export function runsFrom(values: number[], lengths: number[]): CountRuns {
  let barcodes = 0
  let total = 0
  for (let i = 0; i < values.length; i++) {
    barcodes += lengths[i]!
    total += values[i]! * lengths[i]!
  }
  return { values: Float64Array.from(values), lengths: Float64Array.from(lengths), barcodes, total }
}

/** The runs of a descending list (a CountRuns is returned as it is). */
export function runsOf(d: Descending): CountRuns {
  if (isRuns(d)) return d
  const values: number[] = []
  const lengths: number[] = []
  for (let i = 0; i < d.length; i++) {
    const v = d[i]!
    if (values.length > 0 && values[values.length - 1] === v) lengths[lengths.length - 1]!++
    else {
      values.push(v)
      lengths.push(1)
    }
  }
  return runsFrom(values, lengths)
}

/**
 * The runs of a histogram (value → barcodes with that count), with the counts of `more` added (a
 * digest's histogram and the barcodes still listed beside it: ADR 0016).
 */
export function runsOfHistogram(h: HistogramState, more: readonly ArrayLike<number>[] = []): CountRuns {
  const hist = new Histogram(h.dense.length)
  hist.addState(h)
  for (const counts of more) for (let i = 0; i < counts.length; i++) hist.add(counts[i]!)
  const entries = hist.entries()
  entries.reverse()
  return runsFrom(
    entries.map(([v]) => v),
    entries.map(([, n]) => n),
  )
}

/** The runs cut to their first `m` barcodes. */
export function prefixRuns(r: CountRuns, m: number): CountRuns {
  if (m >= r.barcodes) return r
  const values: number[] = []
  const lengths: number[] = []
  let left = m
  for (let i = 0; i < r.values.length && left > 0; i++) {
    const take = Math.min(left, r.lengths[i]!)
    values.push(r.values[i]!)
    lengths.push(take)
    left -= take
  }
  return runsFrom(values, lengths)
}

/** The count at 0-based rank `i` (0 past the end). */
export function countAtRank(r: CountRuns, i: number): number {
  let start = 0
  for (let k = 0; k < r.values.length; k++) {
    start += r.lengths[k]!
    if (i < start) return r.values[k]!
  }
  return 0
}

/** Mean and median of the counts (the mean of the two middle values when the number is even); 0 for none. */
export function runsMeanMedian(r: CountRuns): MeanMedian {
  const n = r.barcodes
  if (n === 0) return { mean: 0, median: 0 }
  const mid = Math.floor(n / 2)
  const median = n % 2 === 1 ? countAtRank(r, mid) : (countAtRank(r, mid - 1) + countAtRank(r, mid)) / 2
  return { mean: r.total / n, median }
}

/**
 * Calls `visit(start, end, value, before)` for each run: ranks [start, end) hold `value`, and
 * `before` is the sum of the counts of the ranks below `start`.
 */
export function forEachRun(
  r: CountRuns,
  visit: (start: number, end: number, value: number, before: number) => void,
): void {
  let start = 0
  let before = 0
  for (let k = 0; k < r.values.length; k++) {
    const len = r.lengths[k]!
    visit(start, start + len, r.values[k]!, before)
    start += len
    before += r.values[k]! * len
  }
}
