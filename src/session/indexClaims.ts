/**
 * What the session checks of an index it did not build itself (a sidecar, the page's cache:
 * docs/sidecar.md), and the salvaged file's name.
 */
import { fmtInt } from '../rad/errors'
import type { ChunkColumns } from '../rad/types'
import type { IndexStore } from '../workers/indexStore'

/** Failures that say nothing about the index: a cancel, a worker that died, a file that changed or cannot be read. */
export const NOT_THE_INDEX: ReadonlySet<string> = new Set(['CANCELLED', 'WORKER_FAILED', 'FILE_CHANGED', 'READ_FAILED'])

/**
 * What a decoded chunk's own header (docs/format.md §4.1) says that the index does not — nbytes or
 * nrec (the offset is where the header was read, so a wrong offset shows as a wrong header) — in
 * words; undefined when they agree.
 */
export function headerMismatch(cols: ChunkColumns, index: IndexStore): string | undefined {
  const k = cols.chunk
  const nbytes = index.nbytes(k)
  const nrec = index.nrec(k)
  if (cols.nbytes === nbytes && cols.recordCount === nrec) return undefined
  return (
    `chunk ${fmtInt(k)}'s header at byte ${fmtInt(cols.offset)} says nbytes ${fmtInt(cols.nbytes)} and ` +
    `${fmtInt(cols.recordCount)} records, the index nbytes ${fmtInt(nbytes)} and ${fmtInt(nrec)} records`
  )
}

/** `map.rad` → `map.salvaged.rad`; other names get the suffix appended. */
export function salvagedName(name: string): string {
  const base = name.replace(/\.rad$/i, '')
  return `${base === '' ? 'file' : base}.salvaged.rad`
}
