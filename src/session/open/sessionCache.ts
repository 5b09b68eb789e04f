/**
 * The cached reopen (ADR 0007) as a session sees it: the `.rdx` bytes to keep for a
 * file once its index (and its statistics) are done, the same encoding a sidecar uses, so one
 * format serves both. Where the bytes live is the page's business (src/ui/persist/persistStore.ts):
 * the session only calls an IndexCache.
 */
import { cellsSectionToJson } from '../../rad/cells/cellsSection'
import type { KeptCells } from '../../rad/cells/cellsSection'
import { encodeSidecar } from '../../rad/sidecar/sidecar'
import { statsToJson } from '../../rad/stats/section'
import type { KnownIndex, SidecarStatus } from '../../rad/sidecar/sidecar'
import type { IndexStore } from './indexStore'
import type { OpenedFile, ScanSummary } from '../../workers/protocol'
import type { StatsReport } from '../../workers/protocol'

/** The page's store of indexes, keyed by fingerprintKey (implemented over IndexedDB by the UI). */
export interface IndexCache {
  get(key: string): Promise<Uint8Array | undefined>
  put(key: string, bytes: Uint8Array, name: string): Promise<void>
  drop(key: string): Promise<void>
}

/** The statistics section's codec lives with the format (src/rad/stats/section.ts); re-exported for the page. */
export { statsFromJson, statsProblem, statsToJson } from '../../rad/stats/section'

/** A status a sidecar can record: not a cancelled walk, not a file that could not be read. */
function keptStatus(status: ScanSummary['status']): SidecarStatus | undefined {
  return status === 'incomplete' || status === 'unreadable' ? undefined : status
}

/**
 * The `.rdx` bytes of a finished index (and its statistics, once done, and the cells passes kept,
 * each under its annotations' fingerprints); undefined when there is nothing worth keeping.
 */
export function cacheEntry(
  opened: OpenedFile,
  index: IndexStore,
  summary: ScanSummary,
  stats: StatsReport | undefined,
  cells: readonly KeptCells[] = [],
): Uint8Array | undefined {
  const status = keptStatus(summary.status)
  if (!status || summary.cancelled || index.count === 0) return undefined
  const known: KnownIndex = {
    fingerprint: opened.hashed,
    container: opened.container,
    convention: summary.convention,
    index: index.snapshot(),
    records: index.records,
    endOffset: summary.endOffset,
    verdict: {
      status,
      alignments: summary.alignments,
      issues: summary.issues,
      damagedChunks: summary.damagedChunks,
      error: summary.error,
    },
    stats: stats && statsToJson(stats),
    ...(cells.length > 0 ? { cells: cellsSectionToJson(cells) } : {}),
  }
  return encodeSidecar(known)
}
