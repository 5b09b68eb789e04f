/**
 * What the session checks of an index it did not build itself (a sidecar, the page's cache:
 * docs/sidecar.md), and the salvaged file's name.
 */
import { fileChanged } from '../../io/fileFingerprint'
import { RadError, fmtInt } from '../../rad/errors'
import type { ChunkColumns } from '../../rad/types'
import type { IndexStore } from './indexStore'
import type { IndexSource, ScanSummary } from '../../workers/protocol'

/** Failures that say nothing about the index: a cancel, a worker that died, a file that changed or cannot be read. */
const NOT_THE_INDEX: ReadonlySet<string> = new Set(['CANCELLED', 'WORKER_FAILED', 'FILE_CHANGED', 'READ_FAILED'])

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

/**
 * A known index (a sidecar, the cache: docs/sidecar.md) is a claim: each chunk decoded from it is
 * checked against its own header, and a chunk that fails to decode though the recorded verdict
 * does not list it as damaged also shows the table is wrong. The first disagreement is reported
 * once (`onWrong`); the session then opens the file again and scans it.
 */
export class IndexClaims {
  private readonly index: IndexStore
  private readonly current: () => { indexSource: IndexSource | undefined; summary: ScanSummary | undefined }
  private readonly onWrong: (why: string) => void
  private readonly onChanged: (e: RadError) => void
  private reported = false

  constructor(
    index: IndexStore,
    current: IndexClaims['current'],
    onWrong: (why: string) => void,
    onChanged: (e: RadError) => void,
  ) {
    this.index = index
    this.current = current
    this.onWrong = onWrong
    this.onChanged = onChanged
  }

  /**
   * The chunk, when its header agrees with the index; throws otherwise, so its rows are never shown.
   * For an index this page walked, a header that no longer agrees means other bytes are served
   * under the file's name (a URL swapped under the same ETag): the file changed (docs/integrity.md).
   */
  matching(cols: ChunkColumns): ChunkColumns {
    const differs = headerMismatch(cols, this.index)
    if (differs === undefined) return cols
    const { indexSource, summary } = this.current()
    if (indexSource === 'scan') {
      if (summary?.status === 'clean') throw fileChanged(differs)
      return cols
    }
    this.report(differs)
    throw new RadError('BAD_CHUNK_HEADER', `${differs}: the index is being rebuilt`, cols.offset, cols.chunk)
  }

  /** A chunk that did not decode: the index's fault unless the failure says nothing of it or the verdict knew. */
  decodeFailed(chunk: number, e: unknown): void {
    const { indexSource, summary } = this.current()
    if (!(e instanceof RadError) || NOT_THE_INDEX.has(e.code) || summary?.damagedChunks.includes(chunk)) return
    const what = `chunk ${fmtInt(chunk)} at byte ${fmtInt(this.index.offset(chunk))} does not decode (${e.message})`
    if (indexSource !== 'scan') {
      this.report(what)
      return
    }
    // Judged clean by this page's own pass, now undecodable: other bytes than those checked (the verdict goes).
    if (summary?.status === 'clean') this.onChanged(fileChanged(`${what}, though it did when the file was checked`))
  }

  private report(why: string): void {
    if (this.reported) return
    this.reported = true
    this.onWrong(why)
  }
}
