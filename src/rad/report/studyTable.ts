/**
 * The study table (docs/stats.md, "Several files"): a row per sample, the summary's figures;
 * `rad stats A B … --tsv` prints it, the page's study view shows and saves it.
 */
import type { SampleJson } from './summary'

/** A sample of a study: counted (its JSON) or not (why). */
export type StudyRow = { sample: string; file: string } & ({ json: SampleJson } | { error: string })

/** The study table's columns: the sample, its file, then the summary's figures (docs/stats.md). */
const TABLE = [
  'records',
  'barcodes',
  'cells',
  'mean_reads_per_cell',
  'fraction_reads_in_cells',
  'sequencing_saturation',
  'median_umis_per_cell',
  'median_genes_per_cell',
  'median_mito_fraction',
  'median_unspliced_fraction',
  'valid_barcodes',
  'mapping_rate',
] as const

function tableValue(json: SampleJson, key: (typeof TABLE)[number]): number | null {
  const s = json.summary
  switch (key) {
    case 'records':
      return json.records
    case 'barcodes':
      return json.barcodes?.distinct ?? null
    case 'median_mito_fraction':
      return json.cells?.mito_fraction.median ?? null
    case 'median_unspliced_fraction':
      return json.cells?.unspliced_fraction?.median ?? null
    default:
      return s[key]
  }
}

/** One row per sample, tab-separated, a header first; a failed sample's figures are empty. */
export function studyTsv(counted: readonly StudyRow[]): string {
  const lines = [['sample', 'file', ...TABLE].join('\t')]
  for (const c of counted) {
    const values = TABLE.map((k) => ('json' in c ? tableValue(c.json, k) : null))
    lines.push([c.sample, c.file, ...values.map((v) => (v === null ? '' : String(v)))].join('\t'))
  }
  return `${lines.join('\n')}\n`
}
