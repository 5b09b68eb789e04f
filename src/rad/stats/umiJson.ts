/** The UMI figures of the statistics JSON (docs/stats.md): exact from partitions, else from the pair table. */
import { countTableFrom } from './countTable'
import { runsMeanMedian, runsOf, runsOfHistogram } from './countRuns'
import type { CountRuns } from './countRuns'
import { countingSortDescending, meanMedian } from './figures'
import { partitionFigures } from './pairPartitions'
import type { PartitionFigures } from './pairPartitions'
import type { MeanMedian, PartitionState, StatsState, UmiStats } from './statsTypes'

/**
 * Distinct UMIs per barcode of the combined table (scaled by the sampling
 * rate). When the pairs are sampled, a barcode none of whose pairs was drawn
 * would count 0, and one with a drawn pair 1/rate: each estimate is held
 * between 1 and the barcode's reads, which bound it whatever was drawn (a
 * barcode with reads has a UMI; it has no more UMIs than reads).
 */
export function umisPerBarcode(state: StatsState): Float64Array {
  if (state.partitions) return figuresOf(state.partitions).umis
  const b = state.barcodes[0]
  const p = state.pairs
  if (!b || p.size === 0) return new Float64Array(b?.table.size ?? 0)
  const table = countTableFrom(b.table, b.table.size)
  const out = new Float64Array(b.table.size)
  const rate = 2 ** -state.pairShift
  for (let id = 0; id < p.size; id++) {
    const bid = table.find(p.keys, id * p.keyWords)
    if (bid >= 0) out[bid]! += 1 / rate
  }
  if (state.pairShift > 0) {
    const reads = b.table.counts
    for (let i = 0; i < out.length; i++) out[i] = Math.min(reads[i]!, Math.max(1, out[i]!))
  }
  return out
}

/**
 * Distinct UMIs per barcode, descending, as runs (the UMI rank curve: section.ts): from the
 * digest's histogram and the barcodes still listed when the partitions folded them (ADR 0016),
 * else from every barcode's count (umisPerBarcode; estimates when the pairs were sampled).
 */
export function umiRuns(state: StatsState): CountRuns {
  const digest = state.partitions?.digest
  if (digest) return runsOfHistogram(digest.umis, state.partitions!.umiCounts)
  const umis = umisPerBarcode(state)
  return runsOf(countingSortDescending(umis) ?? umis.slice().sort().reverse())
}

const figuresCache = new WeakMap<PartitionState, PartitionFigures>()

/** The partitions' figures, once per state (the JSON and the TSV both ask). */
function figuresOf(s: PartitionState): PartitionFigures {
  let f = figuresCache.get(s)
  if (!f) {
    f = partitionFigures(s)
    figuresCache.set(s, f)
  }
  return f
}

export function umiStats(state: StatsState): UmiStats {
  if (state.partitions) return exactUmiStats(state, state.partitions)
  const p = state.pairs
  const rate = 2 ** -state.pairShift
  // An estimate never exceeds what bounds it: a pair has at least one record.
  const distinct = Math.min(state.records, p.size / rate)
  // Good–Toulmin at t = 1: Σ (−1)^(i+1) n_i, n_i = pairs seen i times (scaled like the sample).
  let gt = 0
  for (let id = 0; id < p.size; id++) gt += (p.counts[id]! % 2 === 1 ? 1 : -1) / rate
  const per = meanMedian(umisPerBarcode(state))
  return {
    distinct_pairs: Math.round(distinct),
    per_barcode: per,
    duplication_rate: distinct > 0 ? state.records / distinct : 0,
    sequencing_saturation: state.records > 0 ? 1 - distinct / state.records : 0,
    good_toulmin_2x: Math.round(gt),
    exact: state.pairShift === 0,
    sampling_rate: rate,
    relative_error: state.pairShift === 0 || p.size === 0 ? 0 : Math.sqrt((1 - rate) / p.size),
  }
}

/**
 * Counted exactly (pairPartitions.ts): no sampling, no error; but a partial report of a counter
 * that spilled sums its pairs over the spilled parts (`approximate`: upper bounds, not exact).
 */
function exactUmiStats(state: StatsState, s: PartitionState): UmiStats {
  const { perBarcode, goodToulmin } = exactUmiFigures(s)
  const distinct = s.pairCount
  return {
    distinct_pairs: distinct,
    per_barcode: perBarcode,
    duplication_rate: distinct > 0 ? state.records / distinct : 0,
    sequencing_saturation: state.records > 0 ? 1 - distinct / state.records : 0,
    good_toulmin_2x: goodToulmin,
    exact: s.approximate !== true,
    sampling_rate: 1,
    relative_error: 0,
  }
}

/**
 * Distinct UMIs per barcode (mean, median) and Good–Toulmin of exact partitions: from each
 * barcode's count, or from the digest's histogram with the barcodes still listed (ADR 0016).
 */
function exactUmiFigures(s: PartitionState): { perBarcode: MeanMedian; goodToulmin: number } {
  const digest = s.digest
  if (!digest) {
    const f = figuresOf(s)
    return { perBarcode: meanMedian(f.umis), goodToulmin: f.goodToulmin }
  }
  const odd = s.oddCounts.reduce((sum, n) => sum + n, digest.odd)
  const perBarcode = runsMeanMedian(runsOfHistogram(digest.umis, s.umiCounts))
  return { perBarcode, goodToulmin: 2 * odd - s.pairCount }
}
