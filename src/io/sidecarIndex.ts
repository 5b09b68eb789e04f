/**
 * What a `.rdx` sidecar records about a file (docs/sidecar.md), learnt the
 * way `rad validate` learns it: the prelude, a walk checking every chunk's
 * records, and the file's hashed fingerprint. For the CLI's `index` command;
 * the page's sessions build the same KnownIndex from their own scan.
 */
import { integrityStatus } from '../rad/checks/integrity'
import { inferSemantics } from '../rad/prelude/semantics'
import type { HashedFingerprint, KnownIndex, SidecarStatus } from '../rad/sidecar/sidecar'
import { makeCheckPlan } from '../rad/checks/valueChecks'
import type { ByteSource } from './byteSource'
import { takeHashedFingerprint } from './fileFingerprint'
import { openRad } from './openRad'
import { scanChunks } from './scanChunks'
import type { ScanResult } from './scanChunks'

/** Scans `file` (throws RadError when its prelude cannot be read) and returns its index as a sidecar holds it. */
export async function scanForSidecar(file: ByteSource, signal?: AbortSignal): Promise<KnownIndex> {
  const fingerprint = await takeHashedFingerprint(file, signal)
  const { source, prelude, container } = await openRad(file, signal)
  const scan = await scanChunks(source, prelude, {
    check: makeCheckPlan(prelude, inferSemantics(prelude)),
    ...(signal ? { signal } : {}),
  })
  return knownIndexOf(fingerprint, container, scan)
}

/** The KnownIndex of a checked scan (every chunk's records checked, as scanForSidecar's), without statistics. */
export function knownIndexOf(
  fingerprint: HashedFingerprint,
  container: KnownIndex['container'],
  scan: ScanResult,
): KnownIndex {
  // The prelude was read, so the status is never 'unreadable'.
  const status = integrityStatus(scan.issues, true) as SidecarStatus
  return {
    fingerprint,
    container,
    convention: scan.convention,
    index: scan.index,
    records: scan.records,
    endOffset: scan.endOffset,
    verdict: {
      status,
      alignments: scan.alignments,
      issues: scan.issues,
      damagedChunks: scan.damagedChunks,
      error: scan.error,
    },
    stats: undefined,
  }
}
