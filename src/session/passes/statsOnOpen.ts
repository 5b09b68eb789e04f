/** What the statistics panel starts with once a file's index is in (docs/stats.md). */
import type { SourceSpec } from '../../io/sourceSpec'
import type { IndexStore } from '../open/indexStore'
import type { IndexSource, ScanSummary, StatsReport } from '../../workers/protocol'
import { statsFromJson } from '../open/sessionCache'
import type { StatsRun } from './statsRun'

export interface StatsOnOpen {
  source: SourceSpec
  stats: StatsRun
  index: IndexStore
  summary: ScanSummary | undefined
  indexSource: IndexSource
  /** Keeps the index in the page's cache, with these statistics (undefined: the pass's, once done). */
  keep: (stats: StatsReport | undefined) => void
}

/**
 * Statistics a cached index or sidecar held, or the walk counted (a URL), show at once;
 * otherwise the pass runs (and the index is kept), unless it waits to be asked (statsWaitForAsk).
 */
export function startStatsOnOpen(o: StatsOnOpen): void {
  const kept = statsFromJson(o.summary?.stats)
  if (kept) {
    o.stats.restore(kept, o.index, o.indexSource === 'scan' ? 'walk' : o.indexSource)
    // Counted by this page's own walk: kept with the index, as the pass's would be.
    if (o.indexSource === 'scan') o.keep(kept)
    return
  }
  if (statsWaitForAsk(o.source, o.indexSource)) {
    o.stats.offer()
    return
  }
  o.stats.start(o.index)
  o.keep(undefined)
}

/**
 * Whether the whole-file statistics pass waits to be asked for instead of
 * starting once the index is in. It does for a URL opened with its `.rdx`
 * sidecar: the sidecar's point is to read only the prelude and the chunks on
 * screen (docs/sidecar.md), and the pass would fetch the whole file — 50 GB
 * through an ssh tunnel — behind the user's back. Everywhere else the file
 * was just read whole anyway (a scan) or is local, and the pass starts.
 */
export function statsWaitForAsk(source: SourceSpec, indexSource: IndexSource): boolean {
  return source.kind === 'url' && indexSource === 'sidecar'
}
