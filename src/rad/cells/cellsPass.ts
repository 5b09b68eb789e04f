/**
 * One cells pass from start to figures, the same in the CLI and the page's
 * worker (docs/cells.md): the annotation files (already gunzipped, read as their
 * pieces come: lineBlocks.ts) and the cells in, a CellQc to feed every chunk to,
 * and the figures out.
 */
import { RadError } from '../errors'
import type { Semantics } from '../prelude/semantics'
import type { BarcodeSet } from '../stats/barcodeSet'
import { barcodeRuns, expectCellsCutoff, forceCellsCutoff, kneeDistance } from '../stats'
import type { Cutoff, StatsState } from '../stats'
import type { Prelude } from '../types'
import { geneLabels, mitoGenes, readGeneNames, readT2g } from './annotations'
import { CellQc } from './cellQc'
import { cellRows, cellsJson } from './cellsJson'
import type { CellRows, CellsJson } from './cellsJson'
import { readPermitList } from './permitList'
import type { PermitList } from './permitList'
import type { GeneMap } from './annotations'
import type { AnnotationStream } from './lineBlocks'

/** A file's name and bytes (whole, or its first SNIFF_BYTES for annotationSniff.ts). */
export interface NamedBytes {
  name: string
  bytes: Uint8Array
}

export interface AnnotationFiles {
  t2g: AnnotationStream
  geneNames?: AnnotationStream | undefined
  permitList?: AnnotationStream | undefined
  /** The mito pattern on gene labels (DEFAULT_MITO when the user gave none). */
  mito: string
}

/** Which cut-off names the cells (docs/cells.md): the knee unless a count is forced or expected. */
export interface CellChoice {
  forceCells?: number | undefined
  expectCells?: number | undefined
}

/** The cut-off that names the cells, and its name in the JSON. */
export function chooseCutoff(state: StatsState, choice: CellChoice): [Cutoff | undefined, string] {
  const desc = barcodeRuns(state)
  if (choice.forceCells !== undefined) return [forceCellsCutoff(desc, choice.forceCells), 'force_cells']
  if (choice.expectCells !== undefined) return [expectCellsCutoff(desc, choice.expectCells), 'expect_cells']
  return [kneeDistance(desc), 'knee']
}

/** Why a file cannot have cell figures, or undefined when it can (one barcode, a UMI, references). */
export function cellsNotApplicable(sem: Semantics): string | undefined {
  if (sem.barcodes.length === 1 && sem.umi && sem.reference) return undefined
  const n = sem.barcodes.length
  const levels = n === 0 ? 'no barcode' : n === 1 ? 'one barcode' : `${String(n)} barcode levels`
  const umi = sem.umi ? 'a UMI' : 'no UMI'
  return `cell and gene figures need one barcode and a UMI per read (scRNA); this ${sem.assay} file has ${levels} and ${umi}`
}

export interface CellsResult {
  json: CellsJson
  rows: CellRows
}

/** A pass in progress: feed `qc` every chunk's columns, then call `finish`. */
export interface CellsRun {
  qc: CellQc
  finish: () => CellsResult
}

export interface CellsCut {
  cells: BarcodeSet
  /** The cut-off's name in the JSON (knee, force_cells, expect_cells) and its minimum reads. */
  cutoff: string
  minReads: number
}

/** The annotation files parsed against the file (before any pass: their errors come first). */
export interface Annotations {
  genes: GeneMap
  labels: string[]
  mito: Uint8Array
  mitoPattern: string
  permit: PermitList | undefined
  barcodeLength: number
}

/**
 * Reads the annotations against the file, each as its pieces come (errors name the file and the
 * line): the t2g first, then only the gene names of its genes, then the permit list.
 */
export async function loadAnnotations(files: AnnotationFiles, prelude: Prelude, sem: Semantics): Promise<Annotations> {
  const why = cellsNotApplicable(sem)
  if (why !== undefined) throw new RadError('BAD_VALUE', why)
  const barcodeLength = sem.barcodes[0]?.len ?? 0
  const genes = await readT2g(files.t2g, prelude.refNames)
  const names = files.geneNames ? await readGeneNames(files.geneNames, new Set(genes.genes)) : undefined
  const labels = geneLabels(genes, names)
  const mito = mitoGenes(labels, files.mito)
  const permit = files.permitList ? await readPermitList(files.permitList, barcodeLength) : undefined
  return { genes, labels, mito, mitoPattern: files.mito, permit, barcodeLength }
}

/** Sets up the pass over the chosen cells. */
export function startCells(notes: Annotations, sem: Semantics, cut: CellsCut): CellsRun {
  const qc = new CellQc(sem, notes.genes, cut.cells, notes.permit !== undefined)
  return {
    qc,
    finish: () => {
      const s = qc.exportState(notes.mito)
      const json = cellsJson(s, {
        labels: notes.labels,
        mitoPattern: notes.mitoPattern,
        mito: notes.mito,
        cutoff: cut.cutoff,
        minReads: cut.minReads,
        permit: notes.permit,
      })
      return { json, rows: cellRows(s, notes.barcodeLength) }
    },
  }
}
