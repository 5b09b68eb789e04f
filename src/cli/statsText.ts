/** The lines `rad stats` prints for people (docs/stats.md): the summary's headline, the figures, the cells. */
import { fmtInt, plural } from '../rad/errors'
import type { StatsJson } from '../rad/stats'
import type { CellsJson } from '../rad/cells'
import type { StatsSummary } from '../rad/report/summary'

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`
}

const fixed = (x: number | null, digits: number): string => (x === null ? '—' : x.toFixed(digits))
const share = (x: number | null): string => (x === null ? '—' : pct(x))

/** The summary's headline (docs/stats.md, "The summary"): what Cell Ranger's web summary leads with. */
export function headline(s: StatsSummary): string[] {
  if (s.cells === null) return s.mapping_rate === null ? [] : [`mapping rate: ${pct(s.mapping_rate)}`]
  const lines = [
    `cells (${s.cutoff ?? '—'}): ${fmtInt(s.cells)}; mean reads per cell ${fixed(s.mean_reads_per_cell, 1)}; fraction of reads in cells ${share(s.fraction_reads_in_cells)}`,
  ]
  const more = [
    s.valid_barcodes !== null ? `valid barcodes ${pct(s.valid_barcodes)}` : '',
    s.sequencing_saturation !== null ? `sequencing saturation ${pct(s.sequencing_saturation)}` : '',
    s.mapping_rate !== null ? `mapping rate ${pct(s.mapping_rate)}` : '',
  ].filter((x) => x !== '')
  if (more.length > 0) lines.push(more.join('; '))
  const ori = s.expected_ori
  if (ori) {
    const disagree = ori.disagreeing > 0 ? `; ${pct(ori.disagreeing)} of alignments the other way` : ''
    lines.push(`orientation: alevin-fry --expected-ori ${ori.suggested}${disagree}`)
  }
  return lines
}

/** The summary's alerts, one line each on standard error, whatever the output format. */
export function writeAlerts(s: StatsSummary, prefix = ''): void {
  for (const a of s.alerts) process.stderr.write(`${prefix}alert ${a.id}: ${a.text}\n`)
}

/** A few lines for people; `--json` has every figure. */
export function summary(s: StatsJson): string[] {
  const lines = [
    `${s.assay}: ${plural(s.records, 'record', 'records', fmtInt)}, ${plural(s.alignments, 'alignment', 'alignments', fmtInt)}`,
  ]
  if (s.barcodes) {
    const approx = s.barcodes.exact ? '' : ` (≈, ±${fmtInt(s.barcodes.distinct_error)})`
    lines.push(
      `barcodes: ${fmtInt(s.barcodes.distinct)} distinct${approx}; reads per barcode mean ${s.barcodes.reads_per_barcode.mean.toFixed(1)}, median ${String(s.barcodes.reads_per_barcode.median)}`,
    )
  }
  if (s.knee !== null) {
    lines.push(`knee: ${plural(s.knee, 'cell', 'cells', fmtInt)} (${pct(s.cutoffs?.knee?.readsShare ?? 0)} of reads)`)
  }
  if (s.umis) {
    lines.push(
      `UMIs: ${fmtInt(s.umis.distinct_pairs)} distinct (barcode, UMI) pairs${s.umis.exact ? '' : ' (sampled)'}; saturation ${pct(s.umis.sequencing_saturation)}; ` +
        `≈${fmtInt(s.umis.good_toulmin_2x)} new pairs at 2× depth`,
    )
  }
  if (s.references) lines.push(`references with alignments: ${fmtInt(s.references.with_alignments)}`)
  if (s.orientation) {
    lines.push(
      `orientation: ${Object.entries(s.orientation)
        .map(([k, n]) => `${k} ${fmtInt(n)}`)
        .join(', ')}`,
    )
  }
  if (s.chunks.collated) lines.push(`collated: ${plural(s.chunks.count, 'chunk', 'chunks', fmtInt)}, one cell each`)
  if (!s.exact) lines.push('some figures are estimates: see --json (exact, distinct_error, relative_error)')
  return lines
}

/** The cell and gene lines of the summary (docs/cells.md). */
export function cellSummary(c: CellsJson): string[] {
  const lines = [
    `per cell (${c.cells.cutoff}): median UMIs ${String(c.cells.umis.median)}, genes ${String(c.cells.genes.median)}, mito ${pct(c.cells.mito_fraction.median)}`,
    `genes detected: ${fmtInt(c.genes.detected)}; alignments to references without a gene: ${fmtInt(c.genes.unmapped_alignments)}`,
  ]
  const p = c.permit
  if (p) {
    lines.push(
      `permit list (${fmtInt(p.listed)} barcodes): records exact ${fmtInt(p.exact)}, corrected ${fmtInt(p.corrected)}, ambiguous ${fmtInt(p.ambiguous)}, absent ${fmtInt(p.absent)}`,
    )
  }
  return lines
}
