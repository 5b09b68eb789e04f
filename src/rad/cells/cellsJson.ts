/**
 * Cell and gene figures from a CellQcState (definitions pinned in
 * docs/cells.md; the CLI, the page and the tests all use these).
 */
import { decode2bit } from '../text/display'
import { meanMedian } from '../stats/json'
import type { MeanMedian } from '../stats/statsTypes'
import type { CellQcState } from './cellQc'
import type { UmiDuplicationJson } from './umiDuplication'
import type { PermitClass, PermitList } from './permitList'
import { classifyBarcode, PERMIT_CLASSES } from './permitList'

export const TOP_GENES = 20

export interface CellsJson {
  cells: {
    count: number
    /** Which cut-off chose them: knee, force_cells or expect_cells. */
    cutoff: string
    min_reads: number
    reads: MeanMedian
    umis: MeanMedian
    genes: MeanMedian
    mito_fraction: MeanMedian
    /** With a t2g that gives every reference S or U (docs/cells.md, "Splicing"). */
    spliced?: MeanMedian
    unspliced?: MeanMedian
    ambiguous?: MeanMedian
    unspliced_fraction?: MeanMedian
  }
  genes: {
    detected: number
    top: [string, number][]
    unmapped_alignments: number
    mito_pattern: string
    /** Genes whose label matches the mito pattern (0: every mito fraction is 0; summary alert no-mito-genes). */
    mito_genes: number
  }
  permit: ({ listed: number } & Record<PermitClass, number>) | null
  /** Reads per (cell, UMI) over the cells' records (umiDuplication.ts). */
  umi_duplication: UmiDuplicationJson
}

/** Per cell: the share of its (gene, UMI) pairs in mito genes (0 without pairs). */
export function mitoFractions(s: CellQcState): Float64Array {
  return s.cellUmis.map((u, i) => (u > 0 ? s.cellMitoUmis[i]! / u : 0))
}

/** Per cell: its unspliced pairs over its pairs (0 without pairs). */
function unsplicedFractions(s: CellQcState, unspliced: Float64Array): Float64Array {
  return s.cellUmis.map((u, i) => (u > 0 ? unspliced[i]! / u : 0))
}

function splicingJson(s: CellQcState): Partial<CellsJson['cells']> {
  const sp = s.splicing
  if (!sp) return {}
  return {
    spliced: meanMedian(sp.spliced),
    unspliced: meanMedian(sp.unspliced),
    ambiguous: meanMedian(sp.ambiguous),
    unspliced_fraction: meanMedian(unsplicedFractions(s, sp.unspliced)),
  }
}

/** The top genes by UMIs over the cells, ties by label. */
export function topGenes(s: CellQcState, labels: readonly string[], n = TOP_GENES): [string, number][] {
  const ids: number[] = []
  s.geneUmis.forEach((u, g) => {
    if (u > 0) ids.push(g)
  })
  const label = (g: number): string => labels[g] ?? ''
  ids.sort((a, b) => s.geneUmis[b]! - s.geneUmis[a]! || (label(a) < label(b) ? -1 : label(a) > label(b) ? 1 : 0))
  return ids.slice(0, n).map((g) => [label(g), s.geneUmis[g]!])
}

/** Records per permit-list class: each distinct barcode classified once. */
export function permitCounts(s: CellQcState, list: PermitList): { listed: number } & Record<PermitClass, number> {
  const out = { listed: list.listed, exact: 0, corrected: 0, ambiguous: 0, absent: 0 }
  for (let i = 0; i < s.barcodeReads.length; i++) {
    out[classifyBarcode(list, s.barcodeKeys[2 * i]!, s.barcodeKeys[2 * i + 1]!)] += s.barcodeReads[i]!
  }
  for (const c of PERMIT_CLASSES) out[c] = out[c] ?? 0
  return out
}

export interface CellsJsonOptions {
  labels: readonly string[]
  mitoPattern: string
  /** Per gene, 1 when its label matches the mito pattern. */
  mito: Uint8Array
  cutoff: string
  minReads: number
  permit: PermitList | undefined
}

export function cellsJson(s: CellQcState, o: CellsJsonOptions): CellsJson {
  let detected = 0
  for (const u of s.geneUmis) if (u > 0) detected++
  return {
    cells: {
      count: s.cellReads.length,
      cutoff: o.cutoff,
      min_reads: o.minReads,
      reads: meanMedian(s.cellReads),
      umis: meanMedian(s.cellUmis),
      genes: meanMedian(s.cellGenes),
      mito_fraction: meanMedian(mitoFractions(s)),
      ...splicingJson(s),
    },
    genes: {
      detected,
      top: topGenes(s, o.labels),
      unmapped_alignments: s.unmappedAlignments,
      mito_pattern: o.mitoPattern,
      mito_genes: o.mito.reduce((n, m) => n + m, 0),
    },
    permit: o.permit ? permitCounts(s, o.permit) : null,
    umi_duplication: s.umiDuplication,
  }
}

/** The cells as columns, by reads descending, ties by barcode (the table, the plot and the TSV). */
export interface CellRows {
  barcodes: string[]
  reads: Float64Array
  umis: Float64Array
  genes: Float64Array
  mito: Float64Array
  /** With splicing statuses: pairs by status, and the unspliced fraction, per cell. */
  splicing?: { spliced: Float64Array; unspliced: Float64Array; ambiguous: Float64Array; fraction: Float64Array }
}

export function cellRows(s: CellQcState, barcodeLength: number): CellRows {
  const n = s.cellReads.length
  const text = Array.from({ length: n }, (_, i) =>
    decode2bit((BigInt(s.cellKeys[2 * i + 1]!) << 32n) | BigInt(s.cellKeys[2 * i]!), barcodeLength),
  )
  const order = Array.from({ length: n }, (_, i) => i)
  order.sort((a, b) => s.cellReads[b]! - s.cellReads[a]! || (text[a]! < text[b]! ? -1 : 1))
  const fractions = mitoFractions(s)
  const pick = (a: Float64Array): Float64Array => Float64Array.from(order, (i) => a[i]!)
  const sp = s.splicing
  return {
    barcodes: order.map((i) => text[i]!),
    reads: pick(s.cellReads),
    umis: pick(s.cellUmis),
    genes: pick(s.cellGenes),
    mito: pick(fractions),
    ...(sp && {
      splicing: {
        spliced: pick(sp.spliced),
        unspliced: pick(sp.unspliced),
        ambiguous: pick(sp.ambiguous),
        fraction: pick(unsplicedFractions(s, sp.unspliced)),
      },
    }),
  }
}

/**
 * One row per cell, by reads descending, ties by barcode: `barcode reads umis genes
 * mito_fraction`, then `spliced unspliced ambiguous unspliced_fraction` with splicing statuses.
 */
export function cellsTsv(rows: CellRows): string {
  const sp = rows.splicing
  const head = 'barcode\treads\tumis\tgenes\tmito_fraction'
  const lines = [sp ? `${head}\tspliced\tunspliced\tambiguous\tunspliced_fraction` : head]
  rows.barcodes.forEach((b, i) => {
    const line = `${b}\t${String(rows.reads[i])}\t${String(rows.umis[i])}\t${String(rows.genes[i])}\t${rows.mito[i]!.toFixed(6)}`
    lines.push(
      sp
        ? `${line}\t${String(sp.spliced[i])}\t${String(sp.unspliced[i])}\t${String(sp.ambiguous[i])}\t${sp.fraction[i]!.toFixed(6)}`
        : line,
    )
  })
  return `${lines.join('\n')}\n`
}
