/**
 * `stats FILE --t2g T [--gene-names N] [--permit-list P] [--mito R]
 * [--force-cells K | --expect-cells K] [--cells-tsv]`: cell and gene figures
 * (docs/cells.md), from a second pass over the file once the statistics have
 * chosen the cells.
 */
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { createGunzip } from 'node:zlib'
import { decodeChunk } from '../rad/decode/decodeChunk'
import { RadError, plural } from '../rad/errors'
import type { Semantics } from '../rad/prelude/semantics'
import type { Prelude } from '../rad/types'
import { barcodesAtLeast } from '../rad/stats'
import type { StatsState } from '../rad/stats'
import { cellsTsv, chooseCutoff, DEFAULT_MITO, isGzip, loadAnnotations, startCells } from '../rad/cells'
import type { AnnotationStream, Annotations, CellChoice, CellRows, CellsJson } from '../rad/cells'
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

function cellCount(found: Map<string, string>, flag: string): number | undefined | string {
  const v = found.get(flag)
  if (v === undefined) return undefined
  const n = Number(v)
  return Number.isSafeInteger(n) && n > 0 ? n : `${flag} needs a number of cells (≥ 1)`
}

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
  const forceCells = cellCount(found, '--force-cells')
  const expectCells = cellCount(found, '--expect-cells')
  if (typeof forceCells === 'string') return forceCells
  if (typeof expectCells === 'string') return expectCells
  if (forceCells !== undefined && expectCells !== undefined) return '--force-cells and --expect-cells: give one'
  const mito = found.get('--mito') ?? DEFAULT_MITO
  return {
    t2g,
    geneNames: found.get('--gene-names'),
    permitList: found.get('--permit-list'),
    mito,
    forceCells,
    expectCells,
    cellsTsv: tsv,
  }
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/**
 * A file of the flags as its pieces come (docs/cells.md): gunzipped as a stream when it starts with
 * the gzip magic (any name), so a gzip bomb costs time, never its size in memory (issue 36 §3; the
 * parser bounds it: src/rad/cells/lineBlocks.ts). What goes wrong is said of this file, in one
 * line: it cannot be read, or its gzip stream is damaged.
 */
async function annotationFile(given: string | undefined): Promise<AnnotationStream | undefined> {
  if (given === undefined) return undefined
  const path = given
  const cannotRead = (e: unknown): RadError => new RadError('BAD_VALUE', `cannot read ${path}: ${message(e)}`)
  const magic = new Uint8Array(2)
  try {
    const handle = await open(path)
    try {
      await handle.read(magic, 0, 2, 0)
    } finally {
      await handle.close()
    }
  } catch (e) {
    throw cannotRead(e)
  }
  const gzip = isGzip(magic)
  async function* pieces(): AsyncGenerator<Uint8Array> {
    const raw = createReadStream(path, { highWaterMark: 1 << 20 })
    const out = gzip ? raw.pipe(createGunzip({ chunkSize: 256 << 10 })) : raw
    if (out !== raw) raw.on('error', (e) => out.destroy(e))
    try {
      for await (const piece of out) yield piece as Uint8Array
    } catch (e) {
      const zlib = e instanceof Error && 'code' in e && typeof e.code === 'string' && e.code.startsWith('Z_')
      throw zlib ? new RadError('BAD_VALUE', `${path}: its gzip stream is damaged (${message(e)})`) : cannotRead(e)
    } finally {
      raw.destroy()
      out.destroy()
    }
  }
  return { name: path, pieces: pieces() }
}

/** The annotation files of the flags, read (gunzipped) and parsed against the file. */
export async function readAnnotations(args: CellArgs, prelude: Prelude, sem: Semantics): Promise<Annotations> {
  const t2g = (await annotationFile(args.t2g))!
  const files = {
    t2g,
    geneNames: await annotationFile(args.geneNames),
    permitList: await annotationFile(args.permitList),
    mito: args.mito,
  }
  const notes = await loadAnnotations(files, prelude, sem)
  const suffixed = notes.permit?.suffixed ?? 0
  if (suffixed > 0) {
    process.stderr.write(
      `note: ${args.permitList ?? ''}: the -N gem-group suffix of ${plural(suffixed, 'barcode')} was dropped (Cell Ranger's barcodes.tsv)\n`,
    )
  }
  return notes
}

export interface CellFigures {
  json: CellsJson
  tsv: string
  rows: CellRows
}

/** The second pass: every record once, the cells' records counted per (gene, UMI). */
export async function cellFigures(
  source: ByteSource,
  prelude: Prelude,
  sem: Semantics,
  state: StatsState,
  notes: Annotations,
  choice: CellChoice,
  { keepPairs }: { keepPairs: boolean },
): Promise<CellFigures> {
  const [cutoff, name] = chooseCutoff(state, choice)
  const cells = cutoff ? barcodesAtLeast(state, cutoff.minCount) : { keyWords: 2, size: 0, keys: new Uint32Array(0) }
  // The exact pairs (~4 bytes each, 150 MB on a 1 GiB 10x run) are in the JSON already: freed
  // before the cells' own keys are counted, so the two never sit in memory together (ADR 0013).
  if (!keepPairs) state.partitions = null
  const run = startCells(notes, sem, { cells, cutoff: name, minReads: cutoff?.minCount ?? 0 })
  await scanChunks(source, prelude, {
    onChunk: (bytes, offset, chunk, convention) => {
      run.qc.addChunk(decodeChunk(bytes, offset, chunk, prelude, convention))
      return false
    },
  })
  const { json, rows } = run.finish()
  return { json, tsv: cellsTsv(rows), rows }
}
