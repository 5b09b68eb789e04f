/**
 * MultiQC custom content (docs/stats.md, "MultiQC"), DOM-free: `rad stats … --multiqc DIR` writes
 * these texts (cli/multiqc.ts), and the page offers them for its open file or study.
 */
import type { RankCurve } from '../stats/logDownsample'
import type { SampleJson } from './summary'

export interface MultiqcSample {
  sample: string
  json: SampleJson
  curve: RankCurve | undefined
}

/** The general-statistics columns: key, title, description, format. */
const COLUMNS: readonly (readonly [string, string, string, string])[] = [
  ['records', 'Records', 'Records (reads) in the RAD file', '{:,.0f}'],
  ['cells', 'Cells', 'Estimated cells (the knee, or --expect-cells / --force-cells)', '{:,.0f}'],
  ['mean_reads_per_cell', 'Reads/cell', 'Mean reads per cell: records / cells', '{:,.0f}'],
  ['fraction_reads_in_cells', 'In cells', 'Fraction of reads in cells (%)', '{:,.1f}'],
  ['sequencing_saturation', 'Saturation', 'Sequencing saturation (%)', '{:,.1f}'],
  ['median_umis_per_cell', 'UMIs/cell', 'Median UMIs per cell (with a t2g)', '{:,.0f}'],
  ['median_genes_per_cell', 'Genes/cell', 'Median genes per cell (with a t2g)', '{:,.0f}'],
  ['mito_fraction', 'Mito', 'Median mitochondrial fraction per cell (%, with a t2g)', '{:,.1f}'],
  ['unspliced_fraction', 'Unspliced', 'Median unspliced fraction per cell (%, with a 3-column t2g)', '{:,.1f}'],
]

const PERCENT = new Set(['fraction_reads_in_cells', 'sequencing_saturation', 'mito_fraction', 'unspliced_fraction'])

function valueOf(json: SampleJson, key: string): number | null {
  const s = json.summary
  switch (key) {
    case 'records':
      return json.records
    case 'cells':
      return s.cells
    case 'mean_reads_per_cell':
      return s.mean_reads_per_cell
    case 'fraction_reads_in_cells':
      return s.fraction_reads_in_cells
    case 'sequencing_saturation':
      return s.sequencing_saturation
    case 'median_umis_per_cell':
      return s.median_umis_per_cell
    case 'median_genes_per_cell':
      return s.median_genes_per_cell
    case 'mito_fraction':
      return json.cells?.mito_fraction.median ?? null
    case 'unspliced_fraction':
      return json.cells?.unspliced_fraction?.median ?? null
    default:
      return null
  }
}

/** The general-statistics table as MultiQC's custom content TSV (a YAML header in `#` lines). */
export function generalStatsTsv(samples: readonly MultiqcSample[]): string {
  const used = COLUMNS.filter(([key]) => samples.some((s) => valueOf(s.json, key) !== null))
  const header = [
    "# id: 'rad_stats'",
    "# section_name: 'RAD statistics'",
    "# description: 'Figures of rad stats (RAD Viewer), one row per RAD file.'",
    "# plot_type: 'generalstats'",
    '# pconfig:',
    ...used.flatMap(([key, title, description, format]) => [
      `#     - ${key}:`,
      `#         title: '${title}'`,
      `#         description: '${description}'`,
      `#         format: '${format}'`,
      ...(PERCENT.has(key) ? ['#         suffix: "%"', '#         max: 100', '#         min: 0'] : []),
    ]),
  ]
  const cell = (key: string, v: number | null): string =>
    v === null ? '' : String(PERCENT.has(key) ? 100 * v : Number.isInteger(v) ? v : Number(v.toFixed(4)))
  const rows = samples.map((s) => [s.sample, ...used.map(([key]) => cell(key, valueOf(s.json, key)))].join('\t'))
  return `${[...header, ['Sample', ...used.map(([key]) => key)].join('\t'), ...rows].join('\n')}\n`
}

/** The samples' barcode rank curves (reads per barcode by rank, log–log) as a custom-content line graph. */
export function barcodeRankJson(samples: readonly MultiqcSample[]): string {
  const data: Record<string, Record<string, number>> = {}
  for (const { sample, curve } of samples) {
    if (!curve) continue
    const points: Record<string, number> = {}
    curve.rank.forEach((rank, i) => {
      points[String(rank)] = curve.count[i]!
    })
    data[sample] = points
  }
  const plot = {
    id: 'rad_barcode_rank',
    section_name: 'Barcode rank',
    description: 'Reads per barcode by rank, as rad stats counts them; the knee separates cells from background.',
    plot_type: 'linegraph',
    pconfig: {
      id: 'rad_barcode_rank_plot',
      title: 'RAD: barcode rank',
      xlab: 'Barcode rank',
      ylab: 'Reads',
      xlog: true,
      ylog: true,
    },
    data,
  }
  return `${JSON.stringify(plot, null, 1)}\n`
}
