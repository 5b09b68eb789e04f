/** The barcode figures of the statistics JSON and the per-barcode TSV (docs/stats.md). */
import { decode2bit, widerThan } from '../text/display'
import type { Semantics } from '../prelude/semantics'
import { HLL_RELATIVE_ERROR, hllEstimate } from './hll'
import { runsMeanMedian, runsOf, runsOfHistogram } from './countRuns'
import type { CountRuns } from './countRuns'
import { countingSortDescending, meanMedian, topRanked } from './figures'
import { umisPerBarcode } from './umiJson'
import type { BarcodeStats, BarcodeTableState, CountTableState, StatsState } from './statsTypes'

const runsOfTable = new WeakMap<CountTableState, CountRuns>()

/**
 * Records per barcode of the combined identity, descending, as runs of equal counts (countRuns.ts:
 * the knee, the cut-offs, the rank curve and the median read them): from the table's counts, or,
 * when the partitions folded barcodes into a digest (ADR 0016), from its histogram and the
 * barcodes still listed. Once per state (the JSON, its knee and the worker's report all ask).
 */
export function barcodeRuns(state: StatsState): CountRuns {
  const b = state.barcodes[0]
  if (!b) return runsOf([])
  let runs = runsOfTable.get(b.table)
  if (!runs) {
    const digest = state.partitions?.digest
    runs = digest
      ? runsOfHistogram(digest.reads, state.partitions!.reads)
      : runsOfCounts(b.table.counts.subarray(0, b.table.size))
    runsOfTable.set(b.table, runs)
  }
  return runs
}

function runsOfCounts(counts: Float64Array): CountRuns {
  return runsOf(countingSortDescending(counts) ?? counts.slice().sort().reverse())
}

/**
 * The order of two barcodes' key words that equals the order of their text, or undefined when
 * it may not: 2-bit values are first-base-high (docs/format.md §7.8), so for one length per level
 * numeric order is text order, unless a length is unknown (the text is then the number) or a
 * value has bits above its length (which the text drops).
 */
function packedOrder(
  sem: Semantics,
  levels: number[],
  keys: Uint32Array,
  keyWords: number,
  size: number,
): ((i: number, j: number) => number) | undefined {
  const lens = levels.map((l) => sem.barcodes[l]?.len ?? 0)
  if (lens.some((len) => len <= 0 || len > 32)) return undefined
  // widerThan, with the one-word case (every u32 barcode) as a plain comparison: 1.5M keys.
  const oneWordLimits = lens.map((len) => 2 ** (2 * len))
  for (let i = 0; i < size; i++) {
    for (let lv = 0; lv < lens.length; lv++) {
      const lo = keys[i * keyWords + 2 * lv]!
      const hi = keys[i * keyWords + 2 * lv + 1]!
      const wider = hi === 0 ? lo >= oneWordLimits[lv]! : widerThan((BigInt(hi) << 32n) | BigInt(lo), lens[lv]!)
      if (wider) return undefined
    }
  }
  return (i, j) => {
    for (let w = 0; w < 2 * lens.length; w += 2) {
      const hi = keys[i * keyWords + w + 1]! - keys[j * keyWords + w + 1]!
      if (hi !== 0) return hi
      const lo = keys[i * keyWords + w]! - keys[j * keyWords + w]!
      if (lo !== 0) return lo
    }
    return 0
  }
}

/** Turns key words into ACGT… per level (joined with "+"), lengths from the semantics. */
function barcodeText(sem: Semantics, levels: number[]): (keys: Uint32Array, at: number) => string {
  return (keys, at) =>
    levels
      .map((l, i) => {
        const lo = keys[at + 2 * i]!
        const hi = keys[at + 2 * i + 1]!
        const len = sem.barcodes[l]?.len ?? 0
        const value = hi === 0 && len <= 16 ? lo : (BigInt(hi) << 32n) | BigInt(lo)
        return len > 0 ? decode2bit(value, len) : String(value)
      })
      .join('+')
}

export function barcodeStats(
  s: BarcodeTableState,
  tag: string,
  sem: Semantics,
  levels: number[],
  records: number,
  top: number,
  /** Every counted barcode's records as runs (barcodeRuns), when the table holds only the top ones. */
  runs?: CountRuns,
): BarcodeStats {
  const t = s.table
  const text = barcodeText(sem, levels)
  const untracked = s.untrackedRecords > 0
  const extra = untracked ? hllEstimate(s.hll) : 0
  // An estimate never exceeds what bounds it: a barcode has at least one record.
  const distinct = Math.min(records, (runs?.barcodes ?? t.size) + Math.round(extra))
  const median = runs ? runsMeanMedian(runs).median : meanMedian(t.counts.slice(0, t.size)).median
  return {
    tag,
    distinct,
    reads_per_barcode: { mean: distinct > 0 ? records / distinct : 0, median },
    top: topRanked(
      t.size,
      (i) => t.counts[i]!,
      (i) => text(t.keys, i * t.keyWords),
      top,
      packedOrder(sem, levels, t.keys, t.keyWords, t.size),
    ),
    exact: !untracked,
    distinct_error: Math.round(extra * HLL_RELATIVE_ERROR),
    untracked_records: s.untrackedRecords,
    top_exact: !untracked,
  }
}

/** MultiQC-friendly lines: header, then barcode, reads, distinct UMIs, above the knee (reads ≥ the knee's minCount: 1/0), reads descending. */
export function barcodeTsv(state: StatsState, sem: Semantics, kneeMinCount: number | null): string[] {
  const b = state.barcodes[0]
  if (!b) return []
  const t: CountTableState = b.table
  const umis = umisPerBarcode(state)
  const text = barcodeText(
    sem,
    sem.barcodes.map((_, i) => i),
  )
  const ids = Array.from({ length: t.size }, (_, i) => i)
  const keys = ids.map((i) => text(t.keys, i * t.keyWords))
  ids.sort((x, y) => t.counts[y]! - t.counts[x]! || (keys[x]! < keys[y]! ? -1 : keys[x]! > keys[y]! ? 1 : 0))
  const minCount = kneeMinCount ?? Infinity
  const lines = ['barcode\treads\tdistinct_umis\tabove_knee']
  for (const i of ids) {
    const n = t.counts[i]!
    lines.push(`${keys[i]!}\t${String(n)}\t${String(Math.round(umis[i]!))}\t${n >= minCount ? '1' : '0'}`)
  }
  return lines
}

/** `rad stats FILE --tsv` as printed: barcodeTsv's lines, newline-terminated (the page's "Save TSV" gives the same bytes). */
export function statsTsvText(state: StatsState, sem: Semantics, kneeMinCount: number | null): string {
  return `${barcodeTsv(state, sem, kneeMinCount).join('\n')}\n`
}
