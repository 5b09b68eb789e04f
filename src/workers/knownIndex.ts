/**
 * Opening a file with an index known beforehand — a `.rdx` sidecar dropped or
 * fetched beside it (docs/sidecar.md), or one the page's index cache kept from
 * an earlier visit (ADR 0007) —
 * without walking its chunks. Only the file's fingerprint (two 64 KiB reads),
 * its prelude and the 4 KiB ends the page re-checks later are read; the whole
 * index is handed to the sink at once, and the verdict is the one recorded
 * when the index was written.
 */
import type { ByteSource } from '../io/byteSource'
import { contentSample, takeFingerprint, takeHashedFingerprint } from '../io/fileFingerprint'
import { openRad } from '../io/openRad'
import type { OpenedRad } from '../io/openRad'
import { planSalvage } from '../io/salvage'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError, fmtInt } from '../rad/errors'
import { chunkSpan } from '../rad/decode/chunk'
import { SidecarError, assertSidecarMatches, decodeSidecar, fingerprintKey } from '../rad/sidecar/sidecar'
import type { DecodedSidecar, DroppedSection, HashedFingerprint, KnownIndex } from '../rad/sidecar/sidecar'
import type { IndexSource, ScanSummary } from './protocol'
import { statsClaimProblem, statsFromJson, statsProblem } from '../rad/stats/section'
import { scanFile } from './scanFile'
import type { ScanOptions, ScanSink } from './scanFile'
import { columnBuffersOfIndex } from './transfer'
import { MAX_SIDECAR_BYTES } from '../io/sidecarBeside'

/** The sink of a scan that may start from a known index: it also hears where the index came from. */
export interface KnownIndexSink extends ScanSink {
  indexSource(source: IndexSource, rejected: string | undefined): unknown
  /** The page's index cache (ADR 0007): the `.rdx` bytes kept under a fingerprint key, if any. */
  cachedIndex?: (key: string) => Uint8Array | undefined | Promise<Uint8Array | undefined>
  /** A cached index that failed to decode or verify: the page drops it; the file is scanned. */
  cacheRejected?: (key: string, why: string) => unknown
}

/** Where a known index came from, and the file's fingerprint when the caller took it already. */
export interface KnownIndexOptions {
  signal?: AbortSignal
  from?: Exclude<IndexSource, 'scan'>
  hashed?: HashedFingerprint
}

/** A known index as the CLI builds it (KnownIndex) or as a sidecar's bytes decode (DecodedSidecar). */
export type InstallableIndex = KnownIndex | DecodedSidecar

/** End of the last chunk in the table: past the end of the RAD stream, the table is for another file. */
function assertTableFits(known: InstallableIndex, streamSize: number, fileName: string): void {
  const last = known.index.count - 1
  if (last < 0) return
  const end = (known.index.offset[last] ?? 0) + chunkSpan(known.index.nbytes[last] ?? 0, known.convention)
  if (end > streamSize || known.endOffset > streamSize) {
    throw new SidecarError(
      'mismatch',
      `its chunk table ends at byte ${fmtInt(Math.max(end, known.endOffset))}, past the end of ${fileName} (${fmtInt(streamSize)} bytes)`,
    )
  }
}

/** The salvage plan of a damaged file, as scanFile offers it (it reads only the prelude again). */
async function salvageOf(opened: OpenedRad, known: InstallableIndex): Promise<ScanSummary['salvage']> {
  if (known.verdict?.status !== 'damaged' || opened.container !== 'none') return undefined
  const { issues, damagedChunks } = known.verdict
  const plan = await planSalvage(opened.source, opened.prelude, known.index, known.convention, issues, damagedChunks)
  return plan.keptChunks > 0 ? plan : undefined
}

/**
 * Installs `known` as the index of `file`: checks first that it describes
 * this file (SidecarError 'mismatch' naming what differs, before the sink
 * hears anything), then reports the file opened and the whole index, and
 * returns the recorded verdict as the scan's summary.
 */
export async function openWithKnownIndex(
  file: ByteSource,
  known: InstallableIndex,
  sink: KnownIndexSink,
  opts: KnownIndexOptions = {},
): Promise<ScanSummary> {
  const { signal } = opts
  const started = Date.now()
  const hashed = opts.hashed ?? (await takeHashedFingerprint(file, signal))
  assertSidecarMatches(known, hashed, file.name)
  const opened = await openRad(file, signal)
  if (opened.container !== known.container) {
    throw new SidecarError('mismatch', `the sidecar index describes a ${known.container} file, ${file.name} is not one`)
  }
  assertTableFits(known, opened.source.size, file.name)
  const fingerprint = await takeFingerprint(file, signal)
  const { index, convention } = known
  const salvage = await salvageOf(opened, known)
  const pending = [
    sink.indexSource(opts.from ?? 'sidecar', undefined),
    sink.opened({
      prelude: opened.prelude,
      container: opened.container,
      fileSize: opened.fileSize,
      sourceSize: opened.source.size,
      fingerprint,
      hashed,
    }),
  ]
  // A copy: the sink may transfer the buffers away, and `known` may be kept (a cache).
  const whole: ChunkIndex = {
    count: index.count,
    offset: index.offset.slice(),
    nbytes: index.nbytes.slice(),
    nrec: index.nrec.slice(),
    firstRecord: index.firstRecord.slice(),
  }
  if (whole.count > 0) pending.push(sink.index(whole, convention, columnBuffersOfIndex(whole)))
  await Promise.all(pending)
  return recordedSummary(known, salvage, Date.now() - started)
}

/**
 * The sections to drop: the decoder's (a verdict of another shape), statistics of another shape,
 * and statistics that disagree with the chunk table (statsClaimProblem: docs/sidecar.md, "A
 * sidecar is a claim").
 */
function droppedOf(known: InstallableIndex): DroppedSection[] {
  const dropped = 'dropped' in known ? [...known.dropped] : []
  if (known.stats === undefined) return dropped
  const problem = statsProblem(known.stats)
  if (problem !== undefined) {
    dropped.push({ section: 'statistics', why: problem })
    return dropped
  }
  const report = statsFromJson(known.stats)
  const facts = {
    records: known.records,
    chunks: known.index.count,
    complete: known.verdict !== undefined && known.verdict.damagedChunks.length === 0,
  }
  const disagrees = report && statsClaimProblem(report, facts)
  if (disagrees !== undefined) dropped.push({ section: 'statistics', why: disagrees, reason: 'disagrees' })
  return dropped
}

/**
 * The scan summary a known index stands for: its recorded verdict (the page shows it as a claim,
 * docs/sidecar.md), or none ('incomplete') when the verdict section was dropped; its statistics
 * only when they have the expected shape.
 */
function recordedSummary(known: InstallableIndex, salvage: ScanSummary['salvage'], elapsedMs: number): ScanSummary {
  const { verdict, convention } = known
  const dropped = droppedOf(known)
  const statsKept = known.stats !== undefined && !dropped.some((d) => d.section === 'statistics')
  return {
    preludeRead: true,
    chunks: known.index.count,
    records: known.records,
    alignments: verdict?.alignments,
    convention,
    endOffset: known.endOffset,
    error: verdict?.error,
    issues: verdict?.issues ?? [],
    damagedChunks: verdict?.damagedChunks ?? [],
    status: verdict?.status ?? 'incomplete',
    salvage,
    warnings: (verdict?.issues ?? []).filter((i) => i.severity !== 'error').map((i) => i.message),
    cancelled: false,
    elapsedMs,
    ...(dropped.length > 0 ? { dropped } : {}),
    ...(statsKept ? { stats: known.stats } : {}),
    // Checked where they are shown (cellsSectionFromJson, on the cells pass's start).
    ...(known.cells === undefined ? {} : { cells: known.cells }),
  }
}

/** The sidecar's bytes, decoded; SidecarError when they are not a usable `.rdx`. */
export async function readSidecar(sidecar: ByteSource, signal?: AbortSignal): Promise<DecodedSidecar> {
  if (sidecar.size > MAX_SIDECAR_BYTES) {
    throw new SidecarError(
      'unreadable',
      `the sidecar index cannot be used: it is ${fmtInt(sidecar.size)} bytes, too large for one`,
    )
  }
  return decodeSidecar(await sidecar.read(0, sidecar.size, signal))
}

/** The fingerprint, or undefined when the file cannot be read (scanFile then reports why, as for any file). */
async function fingerprintOrNothing(file: ByteSource, signal?: AbortSignal): Promise<HashedFingerprint | undefined> {
  try {
    return await takeHashedFingerprint(file, signal)
  } catch (e) {
    if (e instanceof RadError) return undefined
    throw e
  }
}

/** Not a problem with the known index (the file unreadable, a cancel): the scan reports it as usual. */
function rethrowUnlessIndexProblem(e: unknown, signal: AbortSignal | undefined): void {
  if (!(e instanceof SidecarError) && !(e instanceof RadError) && !signal?.aborted) throw e
}

/**
 * The index the page's cache keeps for this fingerprint, installed (ADR 0007); undefined when
 * there is none, or when it fails to decode or verify (the sink hears why and drops it).
 */
async function fromCache(
  file: ByteSource,
  hashed: HashedFingerprint,
  key: string,
  sink: KnownIndexSink,
  signal: AbortSignal | undefined,
): Promise<ScanSummary | undefined> {
  if (!sink.cachedIndex) return undefined
  const bytes = await sink.cachedIndex(key)
  if (!bytes) return undefined
  try {
    return await openWithKnownIndex(file, decodeSidecar(bytes), sink, {
      from: 'cache',
      hashed,
      ...(signal ? { signal } : {}),
    })
  } catch (e) {
    rethrowUnlessIndexProblem(e, signal)
    if (signal?.aborted) return undefined
    const why = e instanceof Error ? e.message.replace(/^the sidecar index/, 'the cached index') : String(e)
    await sink.cacheRejected?.(key, why)
    return undefined
  }
}

/**
 * The index cache's key for this file (ADR 0007): the fingerprint key and a sample of the file's
 * middle (contentSample), so a file edited in place with its ends and modification time kept is
 * not taken for the file cached. Undefined when the page keeps no cache (or the file cannot be read).
 */
async function cacheKeyOf(
  file: ByteSource,
  hashed: HashedFingerprint | undefined,
  sink: KnownIndexSink,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  if (!sink.cachedIndex || !hashed) return undefined
  try {
    return `${fingerprintKey(hashed)}~${await contentSample(file, signal)}`
  } catch (e) {
    if (e instanceof RadError) return undefined
    throw e
  }
}

/** The sink, with the cache key added to what it hears of the opened file (RadSession keeps the index under it). */
function withCacheKey(sink: KnownIndexSink, cacheKey: string | undefined): KnownIndexSink {
  if (cacheKey === undefined) return sink
  return { ...sink, opened: (file) => sink.opened({ ...file, cacheKey }) }
}

/**
 * Opens `file` with its sidecar when there is one and it fits, else with the
 * index the page's cache keeps for it, else scans it (scanFile). A sidecar or
 * cached index that cannot be used is reported to the sink with the reason,
 * and the scan goes on as if there were none.
 */
export async function scanOrInstall(
  file: ByteSource,
  sidecar: ByteSource | undefined,
  given: KnownIndexSink,
  opts: ScanOptions = {},
): Promise<ScanSummary> {
  const { signal } = opts
  const hashed = await fingerprintOrNothing(file, signal)
  const withHash: ScanOptions = hashed ? { ...opts, hashed } : opts
  const cacheKey = await cacheKeyOf(file, hashed, given, signal)
  const sink = withCacheKey(given, cacheKey)
  let rejected: string | undefined
  if (sidecar) {
    try {
      const known = await readSidecar(sidecar, signal)
      return await openWithKnownIndex(file, known, sink, {
        ...(signal ? { signal } : {}),
        ...(hashed ? { hashed } : {}),
      })
    } catch (e) {
      rethrowUnlessIndexProblem(e, signal)
      rejected = e instanceof SidecarError ? e.message : undefined
    }
  } else if (hashed && cacheKey !== undefined) {
    const cached = await fromCache(file, hashed, cacheKey, sink, signal)
    if (cached) return cached
  }
  await sink.indexSource('scan', rejected)
  return scanFile(file, sink, withHash)
}
