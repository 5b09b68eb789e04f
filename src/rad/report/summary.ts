/**
 * The summary an analyst reads first (docs/stats.md, "The summary"): Cell Ranger's headline
 * figures from the statistics, the cells pass and the mapper's run statistics, and alerts that say
 * what to check when a figure is outside what a good run gives. `rad stats --json` carries it as
 * `summary`; the page shows it at the top of the statistics.
 */
import type { CellsJson } from '../cells/cellsJson'
import type { StatsJson } from '../stats/statsTypes'
import type { MapInfo } from './mapInfo'

export type AlertId =
  't2g-partial' | 'no-mito-genes' | 'low-fraction-reads-in-cells' | 'low-valid-barcodes' | 'low-mapping-rate'

export interface SummaryAlert {
  id: AlertId
  level: 'warning'
  text: string
}

/** One file's statistics as `rad stats --json` prints them: the figures, the cells pass's keys, the summary. */
export type SampleJson = StatsJson & Partial<CellsJson> & { summary: StatsSummary }

export interface StatsSummary {
  /** The cells of the cut-off (the knee by default); null without barcodes. */
  cells: number | null
  /** Which cut-off chose them: knee, expect_cells, force_cells, or the page's slider (manual). */
  cutoff: string | null
  mean_reads_per_cell: number | null
  fraction_reads_in_cells: number | null
  /** With a t2g (the cells pass); null without. */
  median_umis_per_cell: number | null
  median_genes_per_cell: number | null
  genes_detected: number | null
  /** (exact + corrected) / records, with a permit list; null without. */
  valid_barcodes: number | null
  sequencing_saturation: number | null
  /** Reads mapped / reads processed, from map_info.json; null without. */
  mapping_rate: number | null
  /** The `--expected-ori` for alevin-fry the alignments' orientations suggest; null without fw/rc counts. */
  expected_ori: ExpectedOri | null
  alerts: SummaryAlert[]
}

/**
 * alevin-fry's `--expected-ori` from the orientation counts: `fw` (or `rc`) when at least
 * ORI_MAJORITY of the alignments are so, else `both`; `disagreeing` is the share of alignments
 * that setting would set aside (0 for `both`).
 */
export interface ExpectedOri {
  suggested: 'fw' | 'rc' | 'both'
  disagreeing: number
}

export const ORI_MAJORITY = 0.75

function expectedOri(orientation: Record<string, number> | null): ExpectedOri | null {
  const fw = orientation?.fw ?? 0
  const rc = orientation?.rc ?? 0
  if (fw + rc === 0) return null
  const fwShare = fw / (fw + rc)
  if (fwShare >= ORI_MAJORITY) return { suggested: 'fw', disagreeing: 1 - fwShare }
  if (1 - fwShare >= ORI_MAJORITY) return { suggested: 'rc', disagreeing: fwShare }
  return { suggested: 'both', disagreeing: 0 }
}

/** Cell Ranger's thresholds (its web summary's alerts), and ours for a t2g that misses references. */
export const THRESHOLDS = {
  fractionReadsInCells: 0.7,
  validBarcodes: 0.75,
  mappingRate: 0.5,
  alignmentsWithoutGene: 0.1,
} as const

/** A cut-off chosen outside the statistics (the page's slider): its cells and their share of the reads. */
export interface SummaryCut {
  name: string
  cells: number
  readsShare: number
}

export interface SummaryInputs {
  cells?: CellsJson | undefined
  mapInfo?: MapInfo | undefined
  /** Overrides the knee when no cells pass was run for another one. */
  cut?: SummaryCut | undefined
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`

/** The cells and their share of the records: the cells pass's, else the cut given, else the knee. */
function chosenCells(stats: StatsJson, o: SummaryInputs): SummaryCut | undefined {
  const c = o.cells?.cells
  if (c) {
    const inCells = Math.round(c.reads.mean * c.count)
    return { name: c.cutoff, cells: c.count, readsShare: stats.records > 0 ? inCells / stats.records : 0 }
  }
  if (o.cut) return o.cut
  const knee = stats.cutoffs?.knee
  return knee ? { name: 'knee', cells: knee.cells, readsShare: knee.readsShare } : undefined
}

/** Records with a listed barcode or one a substitution from one (Cell Ranger's "valid barcodes"); null without a permit list. */
export function validBarcodeFraction(cells: CellsJson | undefined): number | null {
  const p = cells?.permit
  if (!p) return null
  const total = p.exact + p.corrected + p.ambiguous + p.absent
  return total === 0 ? 0 : (p.exact + p.corrected) / total
}

function alertsOf(stats: StatsJson, s: StatsSummary, cells: CellsJson | undefined): SummaryAlert[] {
  const alerts: SummaryAlert[] = []
  const add = (id: AlertId, text: string): void => {
    alerts.push({ id, level: 'warning', text })
  }
  if (cells && stats.alignments > 0) {
    const without = cells.genes.unmapped_alignments / stats.alignments
    if (without > THRESHOLDS.alignmentsWithoutGene) {
      add(
        't2g-partial',
        `${pct(without)} of alignments are to references the t2g gives no gene: check that the t2g was made for the index that wrote this file (its reference names).`,
      )
    }
  }
  if (cells && cells.genes.mito_genes === 0) {
    add(
      'no-mito-genes',
      `No gene label matches the mito pattern ${cells.genes.mito_pattern}, so every mito fraction is 0: give gene names (--gene-names) or a --mito pattern for this species' mitochondrial genes.`,
    )
  }
  const f = s.fraction_reads_in_cells
  if (f !== null && f < THRESHOLDS.fractionReadsInCells) {
    add(
      'low-fraction-reads-in-cells',
      `Only ${pct(f)} of reads are in cells (Cell Ranger warns below 70%): much ambient RNA, or a cut-off too strict; check the barcode rank plot.`,
    )
  }
  const v = s.valid_barcodes
  if (v !== null && v < THRESHOLDS.validBarcodes) {
    add(
      'low-valid-barcodes',
      `Only ${pct(v)} of records have a barcode in the permit list or one base from it (Cell Ranger warns below 75%): check that the permit list is the chemistry's (10x v2, v3, …).`,
    )
  }
  const m = s.mapping_rate
  if (m !== null && m < THRESHOLDS.mappingRate) {
    add(
      'low-mapping-rate',
      `Only ${pct(m)} of reads mapped (below 50%): check the species and the index, and the read geometry given to the mapper.`,
    )
  }
  return alerts
}

export function summaryOf(stats: StatsJson, o: SummaryInputs = {}): StatsSummary {
  const cut = stats.barcodes ? chosenCells(stats, o) : undefined
  const c = o.cells
  const s: StatsSummary = {
    cells: cut?.cells ?? null,
    cutoff: cut?.name ?? null,
    mean_reads_per_cell: cut && cut.cells > 0 ? stats.records / cut.cells : null,
    fraction_reads_in_cells: cut ? cut.readsShare : null,
    median_umis_per_cell: c ? c.cells.umis.median : null,
    median_genes_per_cell: c ? c.cells.genes.median : null,
    genes_detected: c ? c.genes.detected : null,
    valid_barcodes: validBarcodeFraction(c),
    sequencing_saturation: stats.umis ? stats.umis.sequencing_saturation : null,
    mapping_rate: o.mapInfo ? o.mapInfo.mappingRate : null,
    expected_ori: stats.barcodes ? expectedOri(stats.orientation) : null,
    alerts: [],
  }
  s.alerts = alertsOf(stats, s, c)
  return s
}
