/**
 * The page's one door to the files it opens (docs/architecture.md §1): the UI
 * imports this module and nothing else below it. A RadSession (client.ts)
 * holds one open file: its index, decoded chunks, whole-file passes and the
 * workers that do the reading.
 */
export { RadSession, openRadSource } from './client'
export { salvagedName } from './open/indexClaims'
export type { SessionOptions } from './sessionOptions'
export type { StatsCutoffs } from '../workers/protocol'
export type { IndexSource, OpenedFile, SalvageOffer, ScanProgress, ScanSummary } from '../workers/protocol'
export type { IndexStore } from './open/indexStore'
export type { FilterRun, FilterState } from './passes/filterPass'
export { MAX_KEPT_MATCHES } from './passes/filterPass'
export type { SessionPhase, SessionState } from './sessionStore'
export type { StatsRun, StatsView } from './passes/statsRun'
export type { StatsProgress } from './passes/statsPass'
export type { ExportRun, ExportState } from './passes/exportRun'
export type { ExportPick } from '../workers/protocol'
export type { ExportFormat, ExportSummary } from '../io/exportSelection'
export { prewarmIndexWorker } from './open/indexWorkerLink'
export type { SourceSpec } from '../io/sourceSpec'
export { urlSpec } from '../io/sourceSpec'
export { fingerprintKey } from '../rad/sidecar/sidecar'
export type { DroppedSection } from '../rad/sidecar/sidecar'
export type { IndexCache } from './open/sessionCache'
export type { CellsRun, CellsState } from './passes/cellsRun'
export type { CellsReply } from '../workers/protocol'
export { cellsNotApplicable, DEFAULT_MITO } from '../rad/cells'
export { fetchFile } from '../io/fetchFile'
