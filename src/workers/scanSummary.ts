/**
 * The summaries the index worker's scan ends with (scanFile.ts; docs/integrity.md): a walk that
 * reached its end, one the user cancelled, a file that changed under it or could not be opened.
 */
import { isFetchFailure } from '../io/httpSource'
import type { ScanResult } from '../io/scanChunks'
import type { RadError } from '../rad/errors'
import { integrityStatus, issueFromError } from '../rad/checks/integrity'
import type { IntegrityIssue } from '../rad/checks/integrity'
import { statsToJson } from '../rad/stats/section'
import type { StatsReport } from '../rad/stats/section'
import type { SalvageOffer, ScanSummary } from './protocol'

/** What the walk and the record checks found, in file order. */
export interface Findings {
  result: ScanResult
  issues: IntegrityIssue[]
  alignments: number | undefined
  damagedChunks: number[]
  /** The statistics the checker counted during the walk (ScanOptions.countStats). */
  stats?: StatsReport | undefined
}

export function emptySummary(started: number): ScanSummary {
  return {
    preludeRead: true,
    damagedChunks: [],
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
export function cancelled(started: number): ScanSummary {
  return { ...emptySummary(started), status: 'incomplete', cancelled: true }
}

/**
 * The file changed on disk while it was scanned (a read failed, or the
 * re-check at the end found other bytes), or a URL could no longer be fetched
 * (FETCH_FAILED: the server or the network failed): no verdict is given, and
 * what was indexed before is kept only so the page can say how far it got.
 */
export function changed(e: RadError, started: number, result?: ScanResult): ScanSummary {
  const summary = { ...emptySummary(started), error: e.toData(), status: 'incomplete' as const }
  if (!result) return summary
  return { ...summary, chunks: result.index.count, records: result.records, convention: result.convention }
}

/** Cancelled during the walk: the issues found before the Cancel are kept (docs/integrity.md); no verdict. */
export function cancelledWith(found: Findings, started: number): ScanSummary {
  const { result } = found
  return {
    ...cancelled(started),
    chunks: result.index.count,
    records: result.records,
    convention: result.convention,
    endOffset: result.endOffset,
    issues: found.issues,
    damagedChunks: found.damagedChunks,
    warnings: found.issues.filter((i) => i.severity !== 'error').map((i) => i.message),
  }
}

/**
 * The file could not be opened as RAD at all (not RAD, empty, cut inside the prelude…). A URL
 * that could not be fetched says nothing about the file: no verdict, and no issue in the report.
 */
export function unreadable(e: RadError, started: number): ScanSummary {
  if (isFetchFailure(e)) return { ...changed(e, started), preludeRead: false }
  const issue = issueFromError(e)
  return {
    ...emptySummary(started),
    preludeRead: false,
    error: e.toData(),
    issues: [issue],
    status: integrityStatus([issue], false),
  }
}

/** The summary of a walk that reached its end (or a stopping fault) on the file as it was opened. */
export function completed(
  result: ScanResult,
  found: Findings,
  status: ScanSummary['status'],
  salvage: SalvageOffer | undefined,
  started: number,
  mapped: { timing: ScanResult['timing']; doneMs: number } | undefined,
): ScanSummary {
  return {
    preludeRead: true,
    chunks: result.index.count,
    records: result.records,
    alignments: found.alignments,
    convention: result.convention,
    endOffset: result.endOffset,
    error: result.error,
    issues: found.issues,
    damagedChunks: found.damagedChunks,
    status,
    salvage,
    warnings: found.issues.filter((i) => i.severity !== 'error').map((i) => i.message),
    cancelled: false,
    elapsedMs: Date.now() - started,
    timing: mapped?.timing ?? result.timing,
    ...(mapped ? { mappedMs: mapped.doneMs - started } : {}),
    // As a sidecar or the index cache holds them (src/rad/stats/section.ts): the page reads all three alike.
    ...(found.stats ? { stats: statsToJson(found.stats) } : {}),
  }
}
