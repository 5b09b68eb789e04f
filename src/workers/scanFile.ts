import type { ByteSource } from '../io/byteSource'
import { confirmUnchanged, isFileChange, takeFingerprint, takeHashedFingerprint } from '../io/fileFingerprint'
import type { FileFingerprint } from '../io/fileFingerprint'
import { isFetchFailure } from '../io/httpSource'
import { openRad } from '../io/openRad'
import type { OpenedRad } from '../io/openRad'
import { planSalvage } from '../io/salvage'
import { scanChunks } from '../io/scanChunks'
import { SnappyFramedSource } from '../io/snappySource'
import type { ScanResult } from '../io/scanChunks'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError } from '../rad/errors'
import type { HashedFingerprint } from '../rad/sidecar/sidecar'
import { integrityStatus, issueFromError } from '../rad/checks/integrity'
import type { IntegrityIssue } from '../rad/checks/integrity'
import { inferSemantics } from '../rad/prelude/semantics'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'
import { makeCheckPlan } from '../rad/checks/valueChecks'
import { ChecksBeside } from './checksBeside'
import type { WalkFeed } from './walkFeed'
import type { RecordChecker } from './checksBeside'
import { dropFirst, readFirstChunks } from './firstChunks'
import type { OpenedFile, SalvageOffer, ScanProgress, ScanSummary } from './protocol'
import { chunkBuffers, columnBuffersOfIndex } from './transfer'
import { cancelled, cancelledWith, changed, completed, emptySummary, unreadable } from './scanSummary'
import type { Findings } from './scanSummary'

export { cancelled, unreadable } from './scanSummary'

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

export interface ScanOptions {
  signal?: AbortSignal
  /**
   * Starts a record checker in another thread (ADR 0002), counting the statistics too when
   * `count` (walkCount.ts). Without one, the records are checked inside the walk, on this thread.
   */
  checker?: (prelude: Prelude, count: boolean) => RecordChecker | undefined
  /**
   * Count the whole-file statistics in the checker as the walk goes (a URL: one read for the
   * index, the checks and the statistics; docs/stats.md, "One read for a URL"). The summary then
   * carries their report (`stats`) when every chunk was counted.
   */
  countStats?: boolean
  /** How long the walk should stay paused now: the page holds it while the user scrolls (scanChunks). */
  held?: () => number
  /** The file's sidecar fingerprint when the caller took it already (scanOrInstall). */
  hashed?: HashedFingerprint
  /**
   * The statistics pass the page began beside the walk (walkFeed.ts, ADR 0017): plain chunks
   * walked in this thread are fed to it as they are checked. Finished (its workers told the walk
   * ended) whatever happens; the summary says what it fed (`fed`).
   */
  feed?: WalkFeed
  /** Bytes a read of the walk (scanChunks' default when absent): tests read small blocks to act at a chosen chunk. */
  blockSize?: number
}

/** File order: header notes first, then by byte offset; notes without a place last. */
function position(issue: IntegrityIssue): number {
  if (issue.offset !== undefined) return issue.offset
  return issue.part === 'prelude' ? -1 : Infinity
}

/** A damaged file's valid part, as Blob slices of the file: only when file positions are RAD positions. */
async function salvageOffer(opened: OpenedRad, found: Findings): Promise<SalvageOffer | undefined> {
  if (opened.container !== 'none') return undefined
  const { result } = found
  try {
    const plan = await planSalvage(
      opened.source,
      opened.prelude,
      result.index,
      result.convention,
      found.issues,
      found.damagedChunks,
    )
    return plan.keptChunks > 0 ? plan : undefined
  } catch (e) {
    // The file could not be read again (moved or changed): offer nothing rather than fail the scan.
    if (e instanceof RadError) return undefined
    throw e
  }
}

/**
 * The index worker's body (docs/architecture.md §2), free of Comlink so it can run
 * anywhere: reads the prelude and reports it, sends the first screen of
 * decoded records (readFirstChunks), then walks and checks every chunk
 * (the integrity pass, docs/integrity.md: scanChunks with a check plan), streaming index
 * slices and ~2 Hz progress to `sink`. Every problem with the file ends up
 * in the summary's integrity report — a prelude that cannot be read
 * included — with every good chunk before a stopping fault already
 * reported. Waits until the sink has taken every message before returning,
 * so the summary never overtakes the last index slice.
 */
export async function scanFile(file: ByteSource, sink: ScanSink, opts: ScanOptions = {}): Promise<ScanSummary> {
  const { signal } = opts
  const started = Date.now()
  // scanChunks streams big blocks with several reads in flight itself (bench/results.md).
  const pending: unknown[] = []
  let opened: OpenedRad
  try {
    opened = await openRad(file, signal)
  } catch (e) {
    if (isAbort(e, signal)) return cancelled(started)
    if (e instanceof RadError) return unreadable(e, started)
    throw e
  }
  let beside: ChecksBeside | undefined
  try {
    const { source, prelude } = opened
    // What the file looked like, to confirm before the verdict that it is still the file read (docs/integrity.md).
    const fingerprint = await takeFingerprint(file, signal)
    const hashed = opts.hashed ?? (await takeHashedFingerprint(file, signal))
    pending.push(
      sink.opened({
        prelude,
        container: opened.container,
        fileSize: opened.fileSize,
        sourceSize: source.size,
        fingerprint,
        hashed,
        ...(source instanceof SnappyFramedSource ? { frames: source.frameTable() } : {}),
      }),
    )
    const first = await readFirstChunks(source, prelude, signal)
    let skip = 0
    if (first) {
      skip = first.index.count
      const buffers = [...columnBuffersOfIndex(first.index), ...chunkBuffers(first.columns)]
      pending.push(sink.first(first.index, first.columns, first.convention, buffers))
    }
    const held = opts.held ? { held: opts.held } : {}
    const onIndex = (added: ChunkIndex, convention: NbytesConvention): void => {
      // The first chunks were sent already: pass on only what is new.
      const cut = Math.min(skip, added.count)
      skip -= cut
      if (cut === added.count) return
      const slice = cut > 0 ? dropFirst(added, cut) : added
      pending.push(sink.index(slice, convention, columnBuffersOfIndex(slice)))
    }
    const onProgress = (p: ScanProgress): void => {
      pending.push(sink.progress(p))
    }
    // Compressed chunks: map them first, headers only (§6: never compressed), so the whole
    // file is browsable at the speed of a plain one; then the records' checks pass (ADR 0003).
    const mapped = prelude.codec === 'none' ? undefined : await mapChunks(source, prelude, signal, held, onIndex)
    // An unknown codec (§6): nothing to check, the records cannot be decompressed (scanChunks maps only).
    const remote = prelude.codec === 'unknown' ? undefined : opts.checker?.(prelude, opts.countStats === true)
    beside = remote ? new ChecksBeside(prelude, remote) : undefined
    // Plain chunks walked here (not beside: the checker takes every chunk's bytes) feed the pass.
    const feed = prelude.codec === 'none' && !beside ? opts.feed : undefined
    const result = await scanChunks(source, prelude, {
      signal,
      ...(beside ? { onChunk: beside.add } : { check: makeCheckPlan(prelude, inferSemantics(prelude)) }),
      // Each slice and progress report costs the page a render and a layout of the table: at 2 Hz
      // rather than 10 the page's thread leaves the counting workers ~1.5–2 s of CPU more on the
      // 1 GiB run (ADR 0017). The first screen of records does not wait for it (readFirstChunks).
      progressIntervalMs: 500,
      ...held,
      ...(opts.blockSize ? { blockSize: opts.blockSize } : {}),
      ...(mapped ? {} : { onIndex }),
      ...(feed ? { onCleanRun: feed.offer } : {}),
      onProgress: feed
        ? (p) => {
            onProgress({ ...p, fedBytes: feed.bytes })
          }
        : onProgress,
    })
    const fed = feed?.finish()
    const withFed = (summary: ScanSummary): ScanSummary => (fed && fed.chunks > 0 ? { ...summary, fed } : summary)
    const found = await findings(result, beside)
    if (result.cancelled) {
      await Promise.all(pending)
      return withFed(cancelledWith(found, started))
    }
    const change = await changeSinceOpened(file, fingerprint, result, signal)
    if (change) {
      await Promise.all(pending)
      return withFed(changed(change, started, result))
    }
    const status = integrityStatus(found.issues, true)
    const salvage = status === 'damaged' ? await salvageOffer(opened, found) : undefined
    await Promise.all(pending)
    return withFed(completed(result, found, status, salvage, started, mapped))
  } catch (e) {
    if (isAbort(e, signal)) {
      await Promise.all(pending)
      return cancelled(started)
    }
    if (!(e instanceof RadError)) throw e
    // A read failed: the file moved or changed on disk since it was opened, or its server failed.
    await Promise.all(pending)
    if (isFileChange(e) || isFetchFailure(e)) return changed(e, started)
    const issue = issueFromError(e)
    return { ...emptySummary(started), error: e.toData(), issues: [issue], status: integrityStatus([issue], true) }
  } finally {
    beside?.close()
  }
}

/**
 * The index of a compressed file without its records' checks: the chunk
 * headers alone, streamed to the page as they are found. The checks pass
 * that follows walks the same chunks again and reports everything (its
 * structural findings are the same), so this scan's report is not kept.
 */
async function mapChunks(
  source: ByteSource,
  prelude: Prelude,
  signal: AbortSignal | undefined,
  held: { held?: () => number },
  onIndex: (added: ChunkIndex, convention: NbytesConvention) => void,
): Promise<{ timing: ScanResult['timing']; doneMs: number }> {
  const mapped = await scanChunks(source, prelude, { ...(signal ? { signal } : {}), ...held, onIndex })
  return { timing: mapped.timing, doneMs: Date.now() }
}

/**
 * Whether the file is still the one opened, before its verdict: a read that
 * failed during the walk, or other bytes at its ends now (confirmUnchanged),
 * means it changed on disk and the verdict would describe another file. A URL
 * that could not be fetched to the end (FETCH_FAILED) gets no verdict either.
 */
async function changeSinceOpened(
  file: ByteSource,
  fingerprint: FileFingerprint,
  result: ScanResult,
  signal: AbortSignal | undefined,
): Promise<RadError | undefined> {
  if (result.error?.code === 'READ_FAILED' || result.error?.code === 'FETCH_FAILED') {
    return RadError.fromData(result.error)
  }
  try {
    await confirmUnchanged(file, fingerprint, signal)
    return undefined
  } catch (e) {
    if (e instanceof RadError && (isFileChange(e) || isFetchFailure(e))) return e
    throw e
  }
}

/** The walk's report merged with the record checks done beside it (when they were). */
async function findings(result: ScanResult, beside: ChecksBeside | undefined): Promise<Findings> {
  if (!beside) {
    return { result, issues: result.issues, alignments: result.alignments, damagedChunks: result.damagedChunks }
  }
  // Every chunk before a stopping fault went to the checker: wait for the last answers.
  const checked = await beside.finish(result.convention)
  const issues = [...result.issues, ...checked.issues].sort((a, b) => position(a) - position(b))
  // The walk's own damaged chunks are those of the container (a .sz frame failing its checksum).
  const damagedChunks = [...new Set([...result.damagedChunks, ...checked.damagedChunks])].sort((a, b) => a - b)
  return { result, issues, alignments: checked.alignments, damagedChunks, stats: checked.stats }
}
