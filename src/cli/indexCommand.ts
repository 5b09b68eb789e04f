/** `rad index FILE`: scans FILE once and writes its sidecar index, FILE.rdx (docs/sidecar.md). */
import type { ByteSource } from '../io/byteSource'
import { scanForSidecar } from '../io/sidecarIndex'
import { fmtInt, plural } from '../rad/errors'
import { encodeSidecar } from '../rad/sidecar'
import type { Output } from './output'
import { writeFileAtomically } from './safeOutput'

/** Where the sidecar of `path` goes: beside it, named after it (`map.rad` → `map.rad.rdx`). */
export function sidecarPath(path: string): string {
  return `${path}.rdx`
}

/**
 * Writes the sidecar (through a temporary file renamed into place, so a
 * reader never sees half of one, and a FILE.rdx that is a link is replaced,
 * never written through: safeOutput.ts) and prints one line about it. Exit 0 once
 * written, whatever the file's verdict, which the sidecar records; a file
 * whose prelude cannot be read gets no sidecar (the RadError goes up).
 */
export async function runIndex(file: ByteSource, path: string, out: Output): Promise<number> {
  const known = await scanForSidecar(file)
  const bytes = encodeSidecar(known)
  const target = sidecarPath(path)
  await writeFileAtomically(target, (handle) => handle.writeFile(bytes))
  out.write(
    `wrote ${target}: ${plural(known.index.count, 'chunk', 'chunks', fmtInt)}, ${plural(known.records, 'record', 'records', fmtInt)}, ` +
      `${plural(bytes.length, 'byte', 'bytes', fmtInt)}; integrity ${known.verdict.status}\n`,
  )
  return 0
}
