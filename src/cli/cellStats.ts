/**
 * `stats FILE --t2g T [--gene-names N] [--permit-list P] [--mito R]
 * [--force-cells K | --expect-cells K] [--cells-tsv]`: cell and gene figures
 * (docs/cells.md), from a second pass over the file once the statistics have
 * chosen the cells.
 */
import { readFile } from 'node:fs/promises'
import { gunzipSync } from 'node:zlib'
import { decodeChunk } from '../rad/decodeChunk'
import { RadError } from '../rad/errors'
import type { Semantics } from '../rad/semantics'
import type { Prelude } from '../rad/types'
import {
  barcodeCountsDescending,
  barcodesAtLeast,
  expectCellsCutoff,
  forceCellsCutoff,
  kneeDistance,
} from '../rad/stats'
import type { Cutoff, StatsState } from '../rad/stats'
import {
  annotationText,
  CellQc,
  cellRows,
  cellsJson,
  cellsTsv,
  DEFAULT_MITO,
  geneLabels,
  isGzip,
  mitoGenes,
  parseGeneNames,
  parsePermitList,
  parseT2g,
} from '../rad/cells'
import type { CellsJson, GeneMap, PermitList } from '../rad/cells'
import type { ByteSource } from '../io/byteSource'
import { scanChunks } from '../io/scanChunks'

export interface CellArgs {
  t2g: string
  geneNames: string | undefined
  permitList: string | undefined
  mito: string
  forceCells: number | undefined
  expectCells: number | undefined
  cellsTsv: boolean
}

const VALUE_FLAGS = ['--t2g', '--gene-names', '--permit-list', '--mito', '--force-cells', '--expect-cells'] as const

/** Takes the cell flags out of argv; undefined when there are none, a message when they are wrong. */
export function takeCellFlags(argv: string[]): CellArgs | undefined | string {
  const found = new Map<string, string>()
  let tsv = false
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] ?? ''
    if (flag === '--cells-tsv') {
      tsv = true
      argv.splice(i--, 1)
    } else if ((VALUE_FLAGS as readonly string[]).includes(flag)) {
      const value = argv[i + 1]
      if (value === undefined || value.startsWith('--')) return `${flag} needs a value`
      found.set(flag, value)
      argv.splice(i--, 2)
    }
  }
  if (found.size === 0 && !tsv) return undefined
  const t2g = found.get('--t2g')
  if (t2g === undefined) {
    return `${[...found.keys(), ...(tsv ? ['--cells-tsv'] : [])].join(', ')} need --t2g FILE (docs/cells.md)`
  }
  const count = (flag: string): number | undefined | string => {
    const v = found.get(flag)
    if (v === undefined) return undefined
    const n = Number(v)
    return Number.isSafeInteger(n) && n > 0 ? n : `${flag} needs a number of cells (≥ 1)`
  }
  const forceCells = count('--force-cells')
  const expectCells = count('--expect-cells')
  if (typeof forceCells === 'string') return forceCells
  if (typeof expectCells === 'string') return expectCells
  if (forceCells !== undefined && expectCells !== undefined) return '--force-cells and --expect-cells: give one'
  return {
    t2g,
    geneNames: found.get('--gene-names'),
    permitList: found.get('--permit-list'),
    mito: found.get('--mito') ?? DEFAULT_MITO,
    forceCells,
    expectCells,
    cellsTsv: tsv,
  }
}

/** A file's bytes, gunzipped when they start with the gzip magic (any name). */
async function annotationBytes(path: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(await readFile(path))
  return isGzip(bytes) ? new Uint8Array(gunzipSync(bytes)) : bytes
}

interface Annotations {
  genes: GeneMap
  labels: string[]
  mito: Uint8Array
  permit: PermitList | undefined
}

async function loadAnnotations(args: CellArgs, prelude: Prelude): Promise<Annotations> {
  const genes = parseT2g(annotationText(await annotationBytes(args.t2g), args.t2g), prelude.refNames, args.t2g)
  const names = args.geneNames
    ? parseGeneNames(annotationText(await annotationBytes(args.geneNames), args.geneNames), args.geneNames)
    : undefined
  const labels = geneLabels(genes, names)
  const permit = args.permitList ? parsePermitList(await annotationBytes(args.permitList), args.permitList) : undefined
  return { genes, labels, mito: mitoGenes(labels, args.mito), permit }
}

/** The cut-off that names the cells, and its name in the JSON. */
function chooseCutoff(state: StatsState, args: CellArgs): [Cutoff | undefined, string] {
  const desc = barcodeCountsDescending(state)
  if (args.forceCells !== undefined) return [forceCellsCutoff(desc, args.forceCells), 'force_cells']
  if (args.expectCells !== undefined) return [expectCellsCutoff(desc, args.expectCells), 'expect_cells']
  return [kneeDistance(desc), 'knee']
}

export interface CellFigures {
  json: CellsJson
  tsv: string
}

/** The second pass: every record once, the cells' records counted per (gene, UMI). */
export async function cellFigures(
  source: ByteSource,
  prelude: Prelude,
  sem: Semantics,
  state: StatsState,
  args: CellArgs,
): Promise<CellFigures> {
  const barcode = sem.barcodes[0]
  if (sem.barcodes.length !== 1 || !barcode || !sem.umi) {
    throw new RadError(
      'BAD_VALUE',
      `cell and gene figures need one barcode and a UMI per read; this ${sem.assay} file has ${String(sem.barcodes.length)} barcode levels${sem.umi ? '' : ' and no UMI'}`,
    )
  }
  const notes = await loadAnnotations(args, prelude)
  if (notes.permit && barcode.len > 0 && notes.permit.length !== barcode.len) {
    throw new RadError(
      'BAD_VALUE',
      `${args.permitList ?? ''}: its barcodes have ${String(notes.permit.length)} bases, this file's ${String(barcode.len)}`,
    )
  }
  const [cutoff, cutoffName] = chooseCutoff(state, args)
  const cells = cutoff ? barcodesAtLeast(state, cutoff.minCount) : { keyWords: 2, size: 0, keys: new Uint32Array(0) }
  const qc = new CellQc(sem, notes.genes, cells, notes.permit !== undefined)
  await scanChunks(source, prelude, {
    onChunk: (bytes, offset, chunk, convention) => {
      qc.addChunk(decodeChunk(bytes, offset, chunk, prelude, convention))
      return false
    },
  })
  const s = qc.exportState(notes.mito)
  const json = cellsJson(s, {
    labels: notes.labels,
    mitoPattern: args.mito,
    cutoff: cutoffName,
    minReads: cutoff?.minCount ?? 0,
    permit: notes.permit,
  })
  return { json, tsv: cellsTsv(cellRows(s, barcode.len)) }
}
