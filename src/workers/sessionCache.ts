/**
 * The cached reopen (ADR 0007) as a session sees it: the `.rdx` bytes to keep for a
 * file once its index (and its statistics) are done, the same encoding a sidecar uses, so one
 * format serves both. Where the bytes live is the page's business (src/ui/persist/store.ts):
 * the session only calls an IndexCache.
 */
import { encodeSidecar } from '../rad/sidecar'
import { statsJsonProblem } from '../rad/stats/jsonShape'
import type { KnownIndex, SidecarStatus } from '../rad/sidecar'
import type { RankCurve } from '../rad/stats/logDownsample'
import type { StatsJson } from '../rad/stats/types'
import type { IndexStore } from './indexStore'
import type { OpenedFile, ScanSummary } from './protocol'
import type { StatsReport } from './protocol'

/** The page's store of indexes, keyed by fingerprintKey (implemented over IndexedDB by the UI). */
export interface IndexCache {
  get(key: string): Promise<Uint8Array | undefined>
  put(key: string, bytes: Uint8Array, name: string): Promise<void>
  drop(key: string): Promise<void>
}

/** A StatsReport as the sidecar's statistics section holds it: JSON, the curve's typed arrays as lists. */
export function statsToJson(report: StatsReport): unknown {
  const { curve } = report
  return {
    json: report.json,
    curve: curve && {
      rank: Array.from(curve.rank),
      count: Array.from(curve.count),
      cumulative: Array.from(curve.cumulative),
      barcodes: curve.barcodes,
      total: curve.total,
    },
  }
}

function numbers(value: unknown): Float64Array | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'number') ? Float64Array.from(value) : undefined
}

function curveOf(value: unknown): RankCurve | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const c = value as Record<string, unknown>
  const rank = numbers(c.rank)
  const count = numbers(c.count)
  const cumulative = numbers(c.cumulative)
  if (!rank || !count || !cumulative || typeof c.barcodes !== 'number' || typeof c.total !== 'number') return undefined
  if (count.length !== rank.length || cumulative.length !== rank.length) return undefined
  return { rank, count, cumulative, barcodes: c.barcodes, total: c.total }
}

/**
 * Why `value` is not a report statsToJson wrote (an older or foreign sidecar, or a crafted one
 * with a valid checksum: docs/sidecar.md), in words; undefined when it is one. Every field the
 * statistics panel reads is checked, so a kept report can never throw while it is shown.
 */
export function statsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object'
  const v = value as Record<string, unknown>
  const problem = statsJsonProblem(v.json, 'json')
  if (problem !== undefined) return problem
  if (v.curve !== undefined && v.curve !== null && !curveOf(v.curve)) return 'its knee curve is not one'
  return undefined
}

/** The report statsToJson wrote, or undefined when `value` is not one (statsProblem says why). */
export function statsFromJson(value: unknown): StatsReport | undefined {
  if (statsProblem(value) !== undefined) return undefined
  const v = value as Record<string, unknown>
  const curve = v.curve === undefined || v.curve === null ? undefined : curveOf(v.curve)
  return { json: v.json as StatsJson, curve }
}

/** A status a sidecar can record: not a cancelled walk, not a file that could not be read. */
function keptStatus(status: ScanSummary['status']): SidecarStatus | undefined {
  return status === 'incomplete' || status === 'unreadable' ? undefined : status
}

/** The `.rdx` bytes of a finished index (and its statistics, once done); undefined when there is nothing worth keeping. */
export function cacheEntry(
  opened: OpenedFile,
  index: IndexStore,
  summary: ScanSummary,
  stats: StatsReport | undefined,
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
  }
  return encodeSidecar(known)
}
