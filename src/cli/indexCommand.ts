/** `rad index FILE [--no-stats]`: scans FILE once and writes its sidecar index, FILE.rdx (docs/sidecar.md). */
import type { ByteSource } from '../io/byteSource'
import { contentKey, takeHashedFingerprint } from '../io/fileFingerprint'
import { openRad } from '../io/openRad'
import { knownIndexOf, scanForSidecar } from '../io/sidecarIndex'
import { fmtInt, plural } from '../rad/errors'
import { encodeSidecar } from '../rad/sidecar/sidecar'
import type { KnownIndex } from '../rad/sidecar/sidecar'
import { inferSemantics } from '../rad/prelude/semantics'
import { cellsKeyOf, cellsSectionToJson } from '../rad/cells/cellsSection'
import type { KeptAnnotation, KeptCells } from '../rad/cells/cellsSection'
import type { AnnotationKind } from '../rad/cells'
import { cellFigures, readAnnotations } from './cellStats'
import type { CellArgs } from './cellStats'
import { NodeFileSource } from './nodeFileSource'
import { statsReportOf, statsToJson } from '../rad/stats/section'
import type { Output } from './output'
import { writeOutput } from './safeOutput'
import { firstPass } from './stats'
import type { PassOptions } from './stats'

/** The writer named in the statistics section; the page says the statistics come from it. */
export const INDEX_WRITER = 'rad index'

/** Where the sidecar of `path` goes: beside it, named after it (`map.rad` → `map.rad.rdx`). */
export function sidecarPath(path: string): string {
  return `${path}.rdx`
}

/**
 * The index and the whole-file statistics from one walk: `rad stats`'s pass (every chunk's
 * records checked, as scanForSidecar checks them, and counted), so the section holds the JSON
 * `rad stats FILE --json` prints and the knee curve the page draws (docs/sidecar.md, "The
 * statistics section").
 */
export async function scanWithStats(file: ByteSource, opts: PassOptions = {}, cells?: CellArgs): Promise<KnownIndex> {
  const fingerprint = await takeHashedFingerprint(file)
  const { source, prelude, container } = await openRad(file)
  const sem = inferSemantics(prelude)
  // The annotations are read and checked before the walk: a wrong t2g fails at once.
  const notes = cells ? await readAnnotations(cells, prelude, sem) : undefined
  // The cells are asked of every barcode's count: no digest (ADR 0016).
  const { state, scan } = await firstPass(source, prelude, sem, cells ? { ...opts, perBarcode: true } : opts)
  const known = knownIndexOf(fingerprint, container, scan)
  const stats = statsToJson(statsReportOf(state, prelude, sem), INDEX_WRITER)
  if (!cells || !notes) return { ...known, stats }
  const { json, rows } = await cellFigures(source, prelude, sem, state, notes, cells, { keepPairs: false })
  const kept = await keptCellsOf(cells, { json, rows })
  return { ...known, stats, cells: cellsSectionToJson([kept]) }
}

/** The annotation files given, with their kinds (the flag each came with). */
function givenFiles(cells: CellArgs): [string, AnnotationKind][] {
  const given: [string | undefined, AnnotationKind][] = [
    [cells.t2g, 't2g'],
    [cells.geneNames, 'gene-names'],
    [cells.permitList, 'permit-list'],
  ]
  return given.filter((g): g is [string, AnnotationKind] => g[0] !== undefined)
}

/**
 * The cells pass as the sidecar keeps it (src/rad/cells/cellsSection.ts): under the content keys
 * of the files' bytes (contentKey, as the page takes them of the files dropped), the mito
 * pattern and the cut-off, so the page shows it when given the same files.
 */
async function keptCellsOf(cells: CellArgs, figures: Pick<KeptCells, 'json' | 'rows'>): Promise<KeptCells> {
  const files: KeptAnnotation[] = []
  for (const [path, kind] of givenFiles(cells)) {
    const source = await NodeFileSource.open(path)
    try {
      files.push({ fingerprint: await contentKey(source), kind, why: `given to rad index as --${kind}` })
    } finally {
      await source.close()
    }
  }
  const { cutoff, min_reads } = figures.json.cells
  const key = cellsKeyOf(
    files.map((f) => f.fingerprint),
    cells.mito,
    cutoff,
    min_reads,
  )
  return { key, ...figures, files, writer: INDEX_WRITER }
}

/**
 * Writes the sidecar (through a temporary file renamed into place, so a
 * reader never sees half of one, and a FILE.rdx that is a link is replaced,
 * never written through: safeOutput.ts) and prints one line about it. Exit 0 once
 * written, whatever the file's verdict, which the sidecar records; a file
 * whose prelude cannot be read gets no sidecar (the RadError goes up).
 * With `stats` false (`--no-stats`), the walk only indexes and checks, and the
 * sidecar has no statistics section.
 */
export async function runIndex(
  file: ByteSource,
  path: string,
  out: Output,
  stats = true,
  opts: PassOptions = {},
  cells?: CellArgs,
): Promise<number> {
  const known = stats ? await scanWithStats(file, opts, cells) : await scanForSidecar(file)
  const bytes = encodeSidecar(known)
  const target = sidecarPath(path)
  await writeOutput(target, async (sink) => {
    await sink.write(bytes)
  })
  out.write(
    `wrote ${target}: ${plural(known.index.count, 'chunk', 'chunks', fmtInt)}, ${plural(known.records, 'record', 'records', fmtInt)}, ` +
      `${plural(bytes.length, 'byte', 'bytes', fmtInt)}; integrity ${known.verdict.status}` +
      `${stats ? '; with statistics' : ''}${known.cells === undefined ? '' : ' and cells'}\n`,
  )
  return 0
}
