/** From an accumulator's state to the figures of the contract (types.ts StatsJson, docs/stats.md). */
import { decode2bit, mappingTypeName, widerThan } from '../display'
import type { Semantics } from '../semantics'
import type { Prelude } from '../types'
import { countTableFrom } from './countTable'
import { Histogram } from './countTable'
import { HLL_RELATIVE_ERROR, hllEstimate } from './hll'
import { DEFAULT_TOP, ORIENTATIONS } from './accumulator'
import { expectCellsCutoff, forceCellsCutoff, kneeDistance } from './knee'
import type {
  BarcodeStats,
  BarcodeTableState,
  ChunkStats,
  CountTableState,
  HistogramState,
  MeanMedian,
  Ranked,
  StatsJson,
  StatsOptions,
  StatsState,
  UmiStats,
} from './types'

/** alevin-fry's documented example value for --expect-cells / --force-cells when the caller gives none. */
export const DEFAULT_EXPECT_CELLS = 3000

/** Mean and median (the mean of the two middle values when the count is even); 0 for none. */
export function meanMedian(values: Float64Array): MeanMedian {
  const n = values.length
  if (n === 0) return { mean: 0, median: 0 }
  let sum = 0
  for (let i = 0; i < n; i++) sum += values[i]!
  const copy = values.slice()
  const mid = n >> 1
  const upper = selectNth(copy, mid)
  if (n % 2 === 1) return { mean: sum / n, median: upper }
  let lower = copy[0]!
  for (let i = 1; i < mid; i++) if (copy[i]! > lower) lower = copy[i]!
  return { mean: sum / n, median: (lower + upper) / 2 }
}

/**
 * The k-th smallest of `a` (0-based), rearranging it so that a[0…k) ≤ a[k] ≤ a[k+1…) (Hoare's
 * quickselect, middle pivot): O(n), where sorting 1.5M per-barcode counts for a median took ~0.1 s.
 */
function selectNth(a: Float64Array, k: number): number {
  let lo = 0
  let hi = a.length - 1
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!
    let i = lo
    let j = hi
    while (i <= j) {
      while (a[i]! < pivot) i++
      while (a[j]! > pivot) j--
      if (i <= j) {
        const t = a[i]!
        a[i] = a[j]!
        a[j] = t
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else break
  }
  return a[k]!
}

/** The median of values sorted either way (the middle two are the same two); 0 for none. */
function medianOfSorted(sorted: Float64Array): number {
  const n = sorted.length
  if (n === 0) return 0
  const mid = n >> 1
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * The `k` entries with the largest count, ties by key ascending. Entries are compared by index
 * (`keyOrder`, by default the keys' text), and text is made for the `k` kept only: with a
 * million barcodes tied at one read, building each one's ACGT string cost seconds per report.
 */
export function topRanked(
  n: number,
  count: (i: number) => number,
  key: (i: number) => string,
  k: number,
  keyOrder: (i: number, j: number) => number = (i, j) => compareText(key(i), key(j)),
): Ranked[] {
  const best: number[] = []
  const before = (i: number, j: number): boolean => {
    const ci = count(i)
    const cj = count(j)
    return ci > cj || (ci === cj && keyOrder(i, j) < 0)
  }
  for (let i = 0; i < n; i++) {
    const c = count(i)
    if (c <= 0) continue
    const last = best[best.length - 1]
    if (best.length === k && last !== undefined && (c < count(last) || !before(i, last))) continue
    let at = best.length
    while (at > 0 && before(i, best[at - 1]!)) at--
    best.splice(at, 0, i)
    if (best.length > k) best.pop()
  }
  return best.map((i): Ranked => [key(i), count(i)])
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

const descendingOf = new WeakMap<CountTableState, Float64Array>()

/**
 * Records per barcode of the combined identity, descending (for the knee plot); the table's
 * barcodes only. Sorted once per state (statsJson's median, its knee and the worker's report all
 * ask, and 1.5M counts take ~0.1 s to sort): callers must not change the array.
 */
export function barcodeCountsDescending(state: StatsState): Float64Array {
  const b = state.barcodes[0]
  if (!b) return new Float64Array(0)
  let desc = descendingOf.get(b.table)
  if (!desc) {
    desc = b.table.counts.slice(0, b.table.size).sort().reverse()
    descendingOf.set(b.table, desc)
  }
  return desc
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

function barcodeStats(
  s: BarcodeTableState,
  tag: string,
  sem: Semantics,
  levels: number[],
  records: number,
  top: number,
  /** The table's counts already sorted (either way), when the caller has them. */
  sorted?: Float64Array,
): BarcodeStats {
  const t = s.table
  const text = barcodeText(sem, levels)
  const untracked = s.untrackedRecords > 0
  const extra = untracked ? hllEstimate(s.hll) : 0
  const distinct = t.size + Math.round(extra)
  const median = sorted ? medianOfSorted(sorted) : meanMedian(t.counts.slice(0, t.size)).median
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

function rows(h: HistogramState, dense = h.dense.length): [number, number][] {
  const hist = new Histogram(dense)
  hist.addState(h)
  return hist.entries()
}

/**
 * Distinct UMIs per barcode of the combined table (scaled by the sampling
 * rate). When the pairs are sampled, a barcode none of whose pairs was drawn
 * would count 0, and one with a drawn pair 1/rate: each estimate is held
 * between 1 and the barcode's reads, which bound it whatever was drawn (a
 * barcode with reads has a UMI; it has no more UMIs than reads).
 */
export function umisPerBarcode(state: StatsState): Float64Array {
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

function umiStats(state: StatsState): UmiStats {
  const p = state.pairs
  const rate = 2 ** -state.pairShift
  const distinct = p.size / rate
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

function referenceStats(state: StatsState, prelude: Prelude, top: number): StatsJson['references'] {
  const n = state.refUnique.length
  const name = (i: number): string => prelude.refNames[i] ?? `ref ${String(i)}`
  let withAlignments = 0
  let unique = 0
  let multi = 0
  for (let i = 0; i < n; i++) {
    const u = state.refUnique[i]!
    const m = state.refMulti[i]!
    if (u + m > 0) withAlignments++
    unique += u
    multi += m
  }
  return {
    with_alignments: withAlignments,
    top: {
      all: topRanked(n, (i) => state.refUnique[i]! + state.refMulti[i]!, name, top),
      unique: topRanked(n, (i) => state.refUnique[i]!, name, top),
      multi: topRanked(n, (i) => state.refMulti[i]!, name, top),
    },
    alignments_unique: unique,
    alignments_multi: multi,
  }
}

function chunkStats(state: StatsState, distinctBarcodes: number | undefined): ChunkStats {
  const seen: number[] = []
  let nonEmpty = 0
  let single = true
  state.chunkRecords.forEach((n, c) => {
    if (Number.isNaN(n)) return
    seen.push(n)
    if (n > 0) {
      nonEmpty++
      if (state.chunkBarcodes[c] !== 1) single = false
    }
  })
  const per = Float64Array.from(seen)
  const mm = meanMedian(per)
  const collated = distinctBarcodes !== undefined && nonEmpty > 0 && single && nonEmpty === distinctBarcodes
  const out: ChunkStats = {
    count: seen.length,
    records_per_chunk: { ...mm, min: seen.length ? Math.min(...per) : 0, max: seen.length ? Math.max(...per) : 0 },
    collated,
  }
  if (collated) out.records_per_cell = meanMedian(per.filter((n) => n > 0))
  return out
}

function orientationJson(state: StatsState, sem: Semantics): Record<string, number> | null {
  if (!sem.orientation) return null
  const out: Record<string, number> = { fw: state.orientation[0]!, rc: state.orientation[1]! }
  ORIENTATIONS.forEach((name, i) => {
    if (i > 1 && state.orientation[i]! > 0) out[name] = state.orientation[i]!
  })
  return out
}

function orientationByType(state: StatsState, sem: Semantics): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {}
  for (const [key, n] of rows(state.orientationByType)) {
    const type = mappingTypeName(sem, Math.floor(key / 8))
    const ori = ORIENTATIONS[key % 8] ?? '?'
    out[type] ??= {}
    out[type][ori] = n
  }
  return out
}

/** The figures of the contract from a (merged) state. */
export function statsJson(state: StatsState, prelude: Prelude, sem: Semantics, opts: StatsOptions = {}): StatsJson {
  const top = opts.top ?? DEFAULT_TOP
  const levels = sem.barcodes.map((_, i) => i)
  const combined = state.barcodes[0]
  const barcodeRecords = combined ? state.records : 0
  let barcodes: StatsJson['barcodes'] = null
  if (combined) {
    const tag = sem.barcodes.map((f) => f.name).join('+')
    barcodes = barcodeStats(combined, tag, sem, levels, barcodeRecords, top, barcodeCountsDescending(state))
    if (state.barcodes.length > 1) {
      barcodes.levels = state.barcodes
        .slice(1)
        .map((b, l) => barcodeStats(b, sem.barcodes[l]?.name ?? '', sem, [l], barcodeRecords, top))
    }
  }
  // A file with a UMI tag has UMI figures, zeros when it has no records.
  const umis = combined && sem.umi ? umiStats(state) : null
  const desc = barcodeCountsDescending(state)
  const knee = combined ? (kneeDistance(desc) ?? null) : null
  const json: StatsJson = {
    assay: sem.assay,
    records: state.records,
    alignments: state.alignments,
    alignments_per_record: rows(state.alnPerRecord),
    orientation: orientationJson(state, sem),
    barcodes,
    umis,
    references: sem.reference ? referenceStats(state, prelude, top) : null,
    knee: knee?.cells ?? null,
    cutoffs: combined
      ? {
          knee,
          expect_cells: expectCellsCutoff(desc, opts.expectCells ?? DEFAULT_EXPECT_CELLS) ?? null,
          force_cells: forceCellsCutoff(desc, opts.forceCells ?? DEFAULT_EXPECT_CELLS) ?? null,
        }
      : null,
    chunks: chunkStats(state, barcodes?.exact ? barcodes.distinct : undefined),
    exact:
      (barcodes === null || (barcodes.exact && (barcodes.levels ?? []).every((l) => l.exact))) && (umis?.exact ?? true),
    notes: state.notes,
  }
  addMappingFigures(json, state, sem)
  return json
}

function addMappingFigures(json: StatsJson, state: StatsState, sem: Semantics): void {
  if (sem.mappingType?.level === 'read') {
    json.frag_map_type = rows(state.mappingType)
    json.orientation_by_type = orientationByType(state, sem)
  } else if (sem.mappingType?.level === 'alignment') {
    json.mapping_type = rows(state.mappingType)
  }
  if (sem.fragmentLength !== undefined) {
    json.fragment_length = rows(state.fragmentLength)
    json.fragment_length_unavailable = state.fragmentLengthUnavailable
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
