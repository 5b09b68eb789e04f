/**
 * Opening a file with an index known beforehand — a `.rdx` sidecar dropped or
 * fetched beside it (docs/sidecar.md), or one kept from an earlier visit —
 * without walking its chunks. Only the file's fingerprint (two 64 KiB reads),
 * its prelude and the 4 KiB ends the page re-checks later are read; the whole
 * index is handed to the sink at once, and the verdict is the one recorded
 * when the index was written.
 */
import type { ByteSource } from '../io/byteSource'
import { takeFingerprint, takeHashedFingerprint } from '../io/fileFingerprint'
import { openRad } from '../io/openRad'
import type { OpenedRad } from '../io/openRad'
import { planSalvage } from '../io/salvage'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError, fmtInt } from '../rad/errors'
import { SidecarError, assertSidecarMatches, decodeSidecar } from '../rad/sidecar'
import type { KnownIndex } from '../rad/sidecar'
import type { IndexSource, ScanSummary } from './protocol'
import { scanFile } from './scanFile'
import type { ScanOptions, ScanSink } from './scanFile'
import { columnBuffersOfIndex } from './transfer'

/** A sidecar larger than this is not one (24 bytes per chunk: ten million chunks). */
export const MAX_SIDECAR_BYTES = 256 << 20

/** The sink of a scan that may start from a known index: it also hears where the index came from. */
export interface KnownIndexSink extends ScanSink {
  indexSource(source: IndexSource, rejected: string | undefined): unknown
}

/** The salvage plan of a damaged file, as scanFile offers it (it reads only the prelude again). */
async function salvageOf(opened: OpenedRad, known: KnownIndex): Promise<ScanSummary['salvage']> {
  if (known.verdict.status !== 'damaged' || opened.container !== 'none') return undefined
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
  known: KnownIndex,
  sink: KnownIndexSink,
  signal?: AbortSignal,
): Promise<ScanSummary> {
  const started = Date.now()
  assertSidecarMatches(known, await takeHashedFingerprint(file, signal), file.name)
  const opened = await openRad(file, signal)
  if (opened.container !== known.container) {
    throw new SidecarError('mismatch', `the sidecar index describes a ${known.container} file, ${file.name} is not one`)
  }
  const fingerprint = await takeFingerprint(file, signal)
  const { index, convention, verdict } = known
  const salvage = await salvageOf(opened, known)
  const pending = [
    sink.indexSource('sidecar', undefined),
    sink.opened({
      prelude: opened.prelude,
      container: opened.container,
      fileSize: opened.fileSize,
      sourceSize: opened.source.size,
      fingerprint,
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
  return {
    preludeRead: true,
    chunks: index.count,
    records: known.records,
    alignments: verdict.alignments,
    convention,
    endOffset: known.endOffset,
    error: verdict.error,
    issues: verdict.issues,
    damagedChunks: verdict.damagedChunks,
    status: verdict.status,
    salvage,
    warnings: verdict.issues.filter((i) => i.severity !== 'error').map((i) => i.message),
    cancelled: false,
    elapsedMs: Date.now() - started,
  }
}

/** The sidecar's bytes, decoded; SidecarError when they are not a usable `.rdx`. */
export async function readSidecar(sidecar: ByteSource, signal?: AbortSignal): Promise<KnownIndex> {
  if (sidecar.size > MAX_SIDECAR_BYTES) {
    throw new SidecarError(
      'unreadable',
      `the sidecar index cannot be used: it is ${fmtInt(sidecar.size)} bytes, too large for one`,
    )
  }
  return decodeSidecar(await sidecar.read(0, sidecar.size, signal))
}

/**
 * Opens `file` with its sidecar when there is one and it fits, else scans it
 * (scanFile). A sidecar that cannot be used is reported to the sink with the
 * reason, and the scan goes on as if there were none.
 */
export async function scanOrInstall(
  file: ByteSource,
  sidecar: ByteSource | undefined,
  sink: KnownIndexSink,
  opts: ScanOptions = {},
): Promise<ScanSummary> {
  if (sidecar) {
    try {
      const known = await readSidecar(sidecar, opts.signal)
      return await openWithKnownIndex(file, known, sink, opts.signal)
    } catch (e) {
      // Not a sidecar problem (the file unreadable, a cancel): the scan below reports it as usual.
      const rejected = e instanceof SidecarError ? e.message : undefined
      if (!(e instanceof SidecarError) && !(e instanceof RadError) && !opts.signal?.aborted) throw e
      await sink.indexSource('scan', rejected)
      return scanFile(file, sink, opts)
    }
  }
  await sink.indexSource('scan', undefined)
  return scanFile(file, sink, opts)
}
