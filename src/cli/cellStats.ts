/**
 * `stats FILE --t2g T [--gene-names N] [--permit-list P] [--mito R]
 * [--force-cells K | --expect-cells K] [--cells-tsv]`: cell and gene figures
 * (docs/cells.md), from a second pass over the file once the statistics have
 * chosen the cells.
 */
import { readFile } from 'node:fs/promises'
import { gunzipSync } from 'node:zlib'
import { decodeChunk } from '../rad/decode/decodeChunk'
import { RadError, plural } from '../rad/errors'
import type { Semantics } from '../rad/prelude/semantics'
import type { Prelude } from '../rad/types'
import { barcodesAtLeast } from '../rad/stats'
import type { StatsState } from '../rad/stats'
import { cellsTsv, chooseCutoff, DEFAULT_MITO, isGzip, loadAnnotations, startCells } from '../rad/cells'
import type { Annotations, CellChoice, CellsJson, NamedBytes } from '../rad/cells'
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

/** The most a gzipped annotation file may unpack to: a 3.7M-barcode permit list is 63 MB, a t2g tens of MB. */
const MAX_UNPACKED = 1 << 30

/**
 * A file's bytes, gunzipped when they start with the gzip magic (any name). What goes wrong is
 * said of this file, in one line: it cannot be read, its gzip stream is damaged, or it unpacks
 * past MAX_UNPACKED (a gzip bomb), which is refused before the memory is taken.
 */
async function namedBytes(path: string | undefined): Promise<NamedBytes | undefined> {
  if (path === undefined) return undefined
  const bytes = await readFile(path).catch((e: unknown) => {
    throw new RadError('BAD_VALUE', `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`)
  })
  // A view of the Buffer, not a copy: a 300 MB t2g is read once into memory.
  const view = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
  if (!isGzip(bytes)) return { name: path, bytes: view(bytes) }
  try {
    return { name: path, bytes: view(gunzipSync(bytes, { maxOutputLength: MAX_UNPACKED })) }
  } catch (e) {
    const code = e instanceof Error && 'code' in e ? e.code : undefined
    const why =
      code === 'ERR_BUFFER_TOO_LARGE'
        ? `it unpacks to more than ${String(MAX_UNPACKED >> 20)} MiB, more than any annotation file (a gzip bomb?)`
        : `its gzip stream is damaged (${e instanceof Error ? e.message : String(e)})`
    throw new RadError('BAD_VALUE', `${path}: ${why}`)
  }
}

/** The annotation files of the flags, read (gunzipped) and parsed against the file. */
export async function readAnnotations(args: CellArgs, prelude: Prelude, sem: Semantics): Promise<Annotations> {
  const t2g = (await namedBytes(args.t2g))!
  const files = {
    t2g,
    geneNames: await namedBytes(args.geneNames),
    permitList: await namedBytes(args.permitList),
    mito: args.mito,
  }
  const notes = loadAnnotations(files, prelude, sem)
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
  return { json, tsv: cellsTsv(rows) }
}
