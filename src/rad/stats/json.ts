/** From an accumulator's state to the figures of the contract (statsTypes.ts StatsJson, docs/stats.md). */
import { mappingTypeName } from '../text/display'
import type { Semantics } from '../prelude/semantics'
import type { Prelude } from '../types'
import { Histogram } from './countTable'
import { DEFAULT_TOP, ORIENTATIONS } from './accumulator'
import { barcodeRuns, barcodeStats } from './barcodeJson'
import { meanMedian, topRanked } from './figures'
import { expectCellsCutoff, forceCellsCutoff, kneeDistance } from './knee'
import { umiStats } from './umiJson'
import type { ChunkStats, HistogramState, StatsJson, StatsOptions, StatsState } from './statsTypes'

export { meanMedian, topRanked } from './figures'
export { barcodeRuns, barcodeTsv, statsTsvText } from './barcodeJson'
export { umisPerBarcode } from './umiJson'

/** alevin-fry's documented example value for --expect-cells / --force-cells when the caller gives none. */
export const DEFAULT_EXPECT_CELLS = 3000

function rows(h: HistogramState, dense = h.dense.length): [number, number][] {
  const hist = new Histogram(dense)
  hist.addState(h)
  return hist.entries()
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
    // A loop, not Math.min(...per): a collated run has a million chunks, past the call stack's room.
    records_per_chunk: {
      ...mm,
      min: seen.length ? per.reduce((a, b) => Math.min(a, b)) : 0,
      max: seen.length ? per.reduce((a, b) => Math.max(a, b)) : 0,
    },
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
    barcodes = barcodeStats(combined, tag, sem, levels, barcodeRecords, top, barcodeRuns(state))
    // A partial report that left spilled barcodes out counts those in memory only.
    if (state.partitions?.barcodesIncomplete) barcodes = { ...barcodes, exact: false, top_exact: false }
    if (state.barcodes.length > 1) {
      barcodes.levels = state.barcodes
        .slice(1)
        .map((b, l) => barcodeStats(b, sem.barcodes[l]?.name ?? '', sem, [l], barcodeRecords, top))
    }
  }
  // A file with a UMI tag has UMI figures, zeros when it has no records.
  const umis = combined && sem.umi ? umiStats(state) : null
  const desc = barcodeRuns(state)
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
