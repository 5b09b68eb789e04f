/** `rad index FILE [--no-stats]`: scans FILE once and writes its sidecar index, FILE.rdx (docs/sidecar.md). */
import type { ByteSource } from '../io/byteSource'
import { takeHashedFingerprint } from '../io/fileFingerprint'
import { openRad } from '../io/openRad'
import { knownIndexOf, scanForSidecar } from '../io/sidecarIndex'
import { fmtInt, plural } from '../rad/errors'
import { encodeSidecar } from '../rad/sidecar/sidecar'
import type { KnownIndex } from '../rad/sidecar/sidecar'
import { inferSemantics } from '../rad/prelude/semantics'
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
export async function scanWithStats(file: ByteSource, opts: PassOptions = {}): Promise<KnownIndex> {
  const fingerprint = await takeHashedFingerprint(file)
  const { source, prelude, container } = await openRad(file)
  const sem = inferSemantics(prelude)
  const { state, scan } = await firstPass(source, prelude, sem, opts)
  const known = knownIndexOf(fingerprint, container, scan)
  return { ...known, stats: statsToJson(statsReportOf(state, prelude, sem), INDEX_WRITER) }
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
): Promise<number> {
  const known = stats ? await scanWithStats(file, opts) : await scanForSidecar(file)
  const bytes = encodeSidecar(known)
  const target = sidecarPath(path)
  await writeOutput(target, async (sink) => {
    await sink.write(bytes)
  })
  out.write(
    `wrote ${target}: ${plural(known.index.count, 'chunk', 'chunks', fmtInt)}, ${plural(known.records, 'record', 'records', fmtInt)}, ` +
      `${plural(bytes.length, 'byte', 'bytes', fmtInt)}; integrity ${known.verdict.status}` +
      `${stats ? '; with statistics' : ''}\n`,
  )
  return 0
}
