/**
 * The cells section of a `.rdx` sidecar and of the page's index cache (docs/sidecar.md, "The
 * cells section"; docs/cells.md, "Kept cells"): finished cells passes of the file, each under the
 * key of what chose its cells: the fingerprints of the annotation files it was given (their bytes
 * as given, whatever their names), the mito pattern and the cut-off. A page given the same files
 * at the same cut-off shows the kept figures without a pass; any other file or cut-off misses.
 * Pure: no DOM, no Node. What is read back is a claim (docs/sidecar.md, "A sidecar is a claim"):
 * an entry of another shape is dropped, never shown.
 */
import { depthProblem, listOf, nullable, num, oneOf, optional, shape, str, tuple } from '../jsonShape'
import type { ShapeCheck } from '../jsonShape'
import type { AnnotationKind } from './annotationSniff'
import type { CellRows, CellsJson } from './cellsJson'

/** What chose a pass's cells: the annotation files' fingerprints (sorted), the mito pattern, the cut-off. */
export interface CellsKey {
  annotations: string[]
  mito: string
  /** The cut-off's name (knee, chosen, force_cells, expect_cells) and its minimum reads. */
  cutoff: string
  minReads: number
}

/** What each annotation file was taken for, by its fingerprint (its name may differ next time). */
export interface KeptAnnotation {
  fingerprint: string
  kind: AnnotationKind | undefined
  why: string
}

/** One finished cells pass, as kept. */
export interface KeptCells {
  key: CellsKey
  json: CellsJson
  rows: CellRows
  files: KeptAnnotation[]
  /** Who counted it, when not this page ("rad index"). */
  writer?: string
}

/** Passes kept per file: a few t2gs or cut-offs tried in turn; the oldest goes first. */
export const MAX_KEPT_CELLS = 4

/** The key of a pass: the fingerprints in order (the files' order and names do not matter). */
export function cellsKeyOf(fingerprints: readonly string[], mito: string, cutoff: string, minReads: number): CellsKey {
  return { annotations: [...fingerprints].sort(), mito, cutoff, minReads }
}

export function sameCellsKey(a: CellsKey, b: CellsKey): boolean {
  return (
    a.mito === b.mito &&
    a.cutoff === b.cutoff &&
    a.minReads === b.minReads &&
    a.annotations.length === b.annotations.length &&
    a.annotations.every((f, i) => f === b.annotations[i])
  )
}

/** The kept pass of this key, if any. */
export function findKeptCells(kept: readonly KeptCells[], key: CellsKey): KeptCells | undefined {
  return kept.find((k) => sameCellsKey(k.key, key))
}

/** `kept` with `entry` first (replacing one of the same key), at most MAX_KEPT_CELLS. */
export function withKeptCells(kept: readonly KeptCells[], entry: KeptCells): KeptCells[] {
  return [entry, ...kept.filter((k) => !sameCellsKey(k.key, entry.key))].slice(0, MAX_KEPT_CELLS)
}

function rowsToJson(rows: CellRows): unknown {
  const sp = rows.splicing
  return {
    barcodes: rows.barcodes,
    reads: Array.from(rows.reads),
    umis: Array.from(rows.umis),
    genes: Array.from(rows.genes),
    mito: Array.from(rows.mito),
    ...(sp && {
      splicing: {
        spliced: Array.from(sp.spliced),
        unspliced: Array.from(sp.unspliced),
        ambiguous: Array.from(sp.ambiguous),
        fraction: Array.from(sp.fraction),
      },
    }),
  }
}

/** The section's JSON: `{entries: [...]}`, the rows' typed arrays as lists. */
export function cellsSectionToJson(kept: readonly KeptCells[]): unknown {
  return {
    entries: kept.map((k) => ({
      ...(k.writer === undefined ? {} : { writer: k.writer }),
      key: k.key,
      files: k.files.map((f) => ({ fingerprint: f.fingerprint, kind: f.kind ?? null, why: f.why })),
      json: k.json,
      rows: rowsToJson(k.rows),
    })),
  }
}

/** More cells than any run has (a 10x run calls ~10^4; force-cells at most the barcodes). */
const MAX_CELLS = 10_000_000
const meanMedian = shape({ mean: num, median: num })
const numbers = listOf(num, MAX_CELLS)
const keyShape = shape({ annotations: listOf(str, 16), mito: str, cutoff: str, minReads: num })
const jsonShape: ShapeCheck = shape({
  cells: shape({
    count: num,
    cutoff: str,
    min_reads: num,
    reads: meanMedian,
    umis: meanMedian,
    genes: meanMedian,
    mito_fraction: meanMedian,
    spliced: optional(meanMedian),
    unspliced: optional(meanMedian),
    ambiguous: optional(meanMedian),
    unspliced_fraction: optional(meanMedian),
  }),
  genes: shape({
    detected: num,
    top: listOf(tuple(str, num), 1000),
    unmapped_alignments: num,
    mito_pattern: str,
    mito_genes: num,
  }),
  permit: nullable(shape({ listed: num, exact: num, corrected: num, ambiguous: num, absent: num })),
  umi_duplication: shape({
    histogram: listOf(tuple(num, num), MAX_CELLS),
    reads_per_umi: meanMedian,
    cells: num,
    of_cells: num,
  }),
})
const rowsShape = shape({
  barcodes: listOf(str, MAX_CELLS),
  reads: numbers,
  umis: numbers,
  genes: numbers,
  mito: numbers,
  splicing: optional(shape({ spliced: numbers, unspliced: numbers, ambiguous: numbers, fraction: numbers })),
})
const entryShape = shape({
  writer: optional(str),
  key: keyShape,
  files: listOf(shape({ fingerprint: str, kind: nullable(oneOf(['t2g', 'gene-names', 'permit-list'])), why: str }), 16),
  json: jsonShape,
  rows: rowsShape,
})

interface RowsJson {
  barcodes: string[]
  reads: number[]
  umis: number[]
  genes: number[]
  mito: number[]
  splicing?: { spliced: number[]; unspliced: number[]; ambiguous: number[]; fraction: number[] }
}

interface EntryJson {
  writer?: string
  key: CellsKey
  files: { fingerprint: string; kind: AnnotationKind | null; why: string }[]
  json: CellsJson
  rows: RowsJson
}

/** Why an entry of the right shape cannot be shown: its rows of unequal lengths, or not its count. */
function rowsProblem(e: EntryJson): string | undefined {
  const r = e.rows
  const n = r.barcodes.length
  const lists = [r.reads, r.umis, r.genes, r.mito, ...(r.splicing ? Object.values(r.splicing) : [])]
  if (lists.some((l) => l.length !== n)) return 'its rows are lists of unequal lengths'
  if (e.json.cells.count !== n) return `it counts ${String(e.json.cells.count)} cells but has ${String(n)} rows`
  return undefined
}

function rowsOf(r: RowsJson): CellRows {
  const f = (a: number[]): Float64Array => Float64Array.from(a)
  const sp = r.splicing
  return {
    barcodes: r.barcodes,
    reads: f(r.reads),
    umis: f(r.umis),
    genes: f(r.genes),
    mito: f(r.mito),
    ...(sp && {
      splicing: {
        spliced: f(sp.spliced),
        unspliced: f(sp.unspliced),
        ambiguous: f(sp.ambiguous),
        fraction: f(sp.fraction),
      },
    }),
  }
}

/** The kept passes of a section, and why any entry was dropped (none: an empty list). */
export function cellsSectionFromJson(value: unknown): { kept: KeptCells[]; dropped: string[] } {
  if (value === undefined || value === null) return { kept: [], dropped: [] }
  const deep = depthProblem(value, 8)
  const listed =
    deep ?? shape({ entries: listOf((v) => (typeof v === 'object' ? undefined : 'not an entry'), 64) })(value, '')
  if (listed !== undefined) return { kept: [], dropped: [listed] }
  const kept: KeptCells[] = []
  const dropped: string[] = []
  for (const raw of (value as { entries: unknown[] }).entries) {
    const problem = entryShape(raw, 'entry') ?? rowsProblem(raw as EntryJson)
    if (problem !== undefined) {
      dropped.push(problem)
      continue
    }
    const e = raw as EntryJson
    kept.push({
      ...(e.writer === undefined ? {} : { writer: e.writer }),
      key: cellsKeyOf(e.key.annotations, e.key.mito, e.key.cutoff, e.key.minReads),
      files: e.files.map((f) => ({ fingerprint: f.fingerprint, kind: f.kind ?? undefined, why: f.why })),
      json: e.json,
      rows: rowsOf(e.rows),
    })
  }
  return { kept: kept.slice(0, MAX_KEPT_CELLS), dropped }
}
