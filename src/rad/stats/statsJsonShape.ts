/**
 * The shape of a StatsJson (statsTypes.ts) as the page reads it, checked field by field: statistics
 * kept in a `.rdx` sidecar or the index cache are shown without a pass, so a section of another
 * shape must be caught before it reaches a component (docs/sidecar.md).
 */
import { bool, listOf, nullable, num, optional, recordOf, shape, str, tuple } from '../jsonShape'
import type { ShapeCheck } from '../jsonShape'
import { DEFAULT_TOP } from './accumulator'
import type { StatsJson } from './statsTypes'

/**
 * The most entries a writer puts in each list (rad index and the page write DEFAULT_TOP top
 * entries; a histogram has a row a distinct value, and fragment lengths are u16): a longer list
 * is refused before its items are looked at, and the panel never receives it (issue 40).
 */
export const SECTION_LIMITS = { top: DEFAULT_TOP, histogram: 1 << 16, notes: 64, levels: 16, names: 256 } as const

const ranked = listOf(tuple(str, num), SECTION_LIMITS.top)
const histogram = listOf(tuple(num, num), SECTION_LIMITS.histogram)
const meanMedian = shape({ mean: num, median: num })

const barcodeStats = shape({
  tag: str,
  distinct: num,
  reads_per_barcode: meanMedian,
  top: ranked,
  exact: bool,
  distinct_error: num,
  untracked_records: num,
  top_exact: bool,
})

const cutoff = nullable(shape({ index: num, cells: num, minCount: num, readsShare: num }))

const statsJson: ShapeCheck = shape({
  assay: str,
  records: num,
  alignments: num,
  alignments_per_record: histogram,
  orientation: nullable(recordOf(num, SECTION_LIMITS.names)),
  barcodes: nullable(
    (v, path) =>
      barcodeStats(v, path) ?? shape({ levels: optional(listOf(barcodeStats, SECTION_LIMITS.levels)) })(v, path),
  ),
  umis: nullable(
    shape({
      distinct_pairs: num,
      per_barcode: meanMedian,
      duplication_rate: num,
      sequencing_saturation: num,
      good_toulmin_2x: num,
      exact: bool,
      sampling_rate: num,
      relative_error: num,
    }),
  ),
  references: nullable(
    shape({
      with_alignments: num,
      top: shape({ all: ranked, unique: ranked, multi: ranked }),
      alignments_unique: num,
      alignments_multi: num,
    }),
  ),
  knee: nullable(num),
  cutoffs: nullable(shape({ knee: cutoff, expect_cells: cutoff, force_cells: cutoff })),
  frag_map_type: optional(histogram),
  mapping_type: optional(histogram),
  fragment_length: optional(histogram),
  fragment_length_unavailable: optional(num),
  orientation_by_type: optional(recordOf(recordOf(num, SECTION_LIMITS.names), SECTION_LIMITS.names)),
  chunks: shape({
    count: num,
    records_per_chunk: shape({ mean: num, median: num, min: num, max: num }),
    collated: bool,
    records_per_cell: optional(meanMedian),
  }),
  exact: bool,
  notes: listOf(str, SECTION_LIMITS.notes),
})

/**
 * Undefined when `value` has every field of a StatsJson with its type and every figure within what
 * bounds it, else the first that does not (named from `path`).
 */
export function statsJsonProblem(value: unknown, path = ''): string | undefined {
  return statsJson(value, path) ?? rangeProblem(value as StatsJson, path === '' ? '' : `${path}.`)
}

/**
 * A figure no pass can give (a crafted or broken section): counts below 0, more distinct barcodes
 * or pairs than records, a saturation outside 0–1, a knee of more cells than barcodes.
 */
function rangeProblem(json: StatsJson, at: string): string | undefined {
  const checks: [string, number, number, number][] = [
    ['records', json.records, 0, Infinity],
    ['alignments', json.alignments, 0, Infinity],
  ]
  const { barcodes, umis } = json
  if (barcodes && typeof barcodes.distinct === 'number') {
    checks.push(['barcodes.distinct', barcodes.distinct, 0, json.records])
  }
  if (umis) {
    checks.push(['umis.distinct_pairs', umis.distinct_pairs, 0, json.records])
    checks.push(['umis.sequencing_saturation', umis.sequencing_saturation, 0, 1])
  }
  if (json.knee !== null) checks.push(['knee', json.knee, 0, barcodes?.distinct ?? json.records])
  for (const [name, value, low, high] of checks) {
    if (value < low || value > high) {
      return `${at}${name} is ${String(value)}, outside ${String(low)}–${high === Infinity ? '∞' : String(high)}`
    }
  }
  return undefined
}
