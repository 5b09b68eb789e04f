import { BlobSource } from '../io/blobSource'
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import type { OpenedRad } from '../io/openRad'
import { planSalvage } from '../io/salvage'
import { walkChunks } from '../io/walkChunks'
import type { ScanResult } from '../io/walkChunks'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError } from '../rad/errors'
import { integrityStatus, issueFromError } from '../rad/integrity'
import { inferSemantics } from '../rad/semantics'
import type { ChunkColumns, NbytesConvention } from '../rad/types'
import { makeCheckPlan } from '../rad/valueChecks'
import { dropFirst, readFirstChunks } from './firstChunks'
import type { OpenedFile, SalvageOffer, ScanProgress, ScanSummary } from './protocol'
import { chunkBuffers, columnBuffersOfIndex } from './transfer'

/** The index worker's callbacks as it sees them: each call may return a promise. */
export interface ScanSink {
  opened(file: OpenedFile): unknown
  first(index: ChunkIndex, chunks: ChunkColumns[], convention: NbytesConvention, transfer: ArrayBuffer[]): unknown
  index(added: ChunkIndex, convention: NbytesConvention, transfer: ArrayBuffer[]): unknown
  progress(p: ScanProgress): unknown
}

function isAbort(e: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (e instanceof DOMException && e.name === 'AbortError')
}

function emptySummary(started: number): ScanSummary {
  return {
    preludeRead: true,
    chunks: 0,
    records: 0,
    alignments: undefined,
    convention: 'header-inclusive',
    endOffset: 0,
    error: undefined,
    issues: [],
    status: 'clean',
    salvage: undefined,
    warnings: [],
    cancelled: false,
    elapsedMs: Date.now() - started,
  }
}

/** The user stopped the scan: nothing is known about the rest of the file. */
function cancelled(started: number): ScanSummary {
  return { ...emptySummary(started), status: 'incomplete', cancelled: true }
}

/** The file could not be opened as RAD at all (not RAD, empty, cut inside the prelude…). */
function unreadable(e: RadError, started: number): ScanSummary {
  const issue = issueFromError(e)
  return {
    ...emptySummary(started),
    preludeRead: false,
    error: e.toData(),
    issues: [issue],
    status: integrityStatus([issue], false),
  }
}

/** A damaged file's valid part, as Blob slices of the file: only when file positions are RAD positions. */
async function salvageOffer(opened: OpenedRad, result: ScanResult): Promise<SalvageOffer | undefined> {
  if (opened.container !== 'none') return undefined
  try {
    const plan = await planSalvage(opened.source, opened.prelude, result.index, result.convention, result.issues)
    return plan.keptChunks > 0 ? plan : undefined
  } catch (e) {
    // The file could not be read again (moved or changed): offer nothing rather than fail the scan.
    if (e instanceof RadError) return undefined
    throw e
  }
}

/**
 * The index worker's body (ARCHITECTURE §5.3), free of Comlink so it can run
 * anywhere: reads the prelude and reports it, sends the first screen of
 * decoded records (readFirstChunks), then walks and checks every chunk
 * (issue 5's integrity pass: walkChunks with a check plan), streaming index
 * slices and ~10 Hz progress to `sink`. Every problem with the file ends up
 * in the summary's integrity report — a prelude that cannot be read
 * included — with every good chunk before a stopping fault already
 * reported. Waits until the sink has taken every message before returning,
 * so the summary never overtakes the last index slice.
 */
export async function scanFile(file: Blob | ByteSource, sink: ScanSink, signal?: AbortSignal): Promise<ScanSummary> {
  const started = Date.now()
  // walkChunks streams big blocks with several reads in flight itself (issue 4).
  const pending: unknown[] = []
  let opened: OpenedRad
  try {
    opened = await openRad(file instanceof Blob ? new BlobSource(file) : file, signal)
  } catch (e) {
    if (isAbort(e, signal)) return cancelled(started)
    if (e instanceof RadError) return unreadable(e, started)
    throw e
  }
  try {
    const { source, prelude } = opened
    pending.push(
      sink.opened({ prelude, container: opened.container, fileSize: opened.fileSize, sourceSize: source.size }),
    )
    const first = await readFirstChunks(source, prelude, signal)
    let skip = 0
    if (first) {
      skip = first.index.count
      const buffers = [...columnBuffersOfIndex(first.index), ...chunkBuffers(first.columns)]
      pending.push(sink.first(first.index, first.columns, first.convention, buffers))
    }
    const result = await walkChunks(source, prelude, {
      signal,
      check: makeCheckPlan(prelude, inferSemantics(prelude)),
      progressIntervalMs: 100,
      onIndex: (added, convention) => {
        // The first chunks were sent already: pass on only what is new.
        const cut = Math.min(skip, added.count)
        skip -= cut
        if (cut === added.count) return
        const slice = cut > 0 ? dropFirst(added, cut) : added
        pending.push(sink.index(slice, convention, columnBuffersOfIndex(slice)))
      },
      onProgress: (p) => pending.push(sink.progress(p)),
    })
    const status = integrityStatus(result.issues, true)
    const salvage = status === 'damaged' ? await salvageOffer(opened, result) : undefined
    await Promise.all(pending)
    return {
      preludeRead: true,
      chunks: result.index.count,
      records: result.records,
      alignments: result.alignments,
      convention: result.convention,
      endOffset: result.endOffset,
      error: result.error,
      issues: result.issues,
      status,
      salvage,
      warnings: result.warnings,
      cancelled: false,
      elapsedMs: Date.now() - started,
    }
  } catch (e) {
    if (isAbort(e, signal)) {
      await Promise.all(pending)
      return cancelled(started)
    }
    if (!(e instanceof RadError)) throw e
    // A read failing before the walk (the file moved or changed): the walk reports the rest itself.
    await Promise.all(pending)
    const issue = issueFromError(e)
    return { ...emptySummary(started), error: e.toData(), issues: [issue], status: integrityStatus([issue], true) }
  }
}
