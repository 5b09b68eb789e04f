/** Whole-file statistics (docs/stats.md, ADR 0004): the public API of src/rad/stats (docs/stats.md). */
export type * from './statsTypes'
export {
  createStatsAccumulator,
  mergeStates,
  reportState,
  statsTransferables,
  StatsAccumulator,
  DEFAULT_MAX_BARCODES,
  DEFAULT_MAX_PAIRS,
  DEFAULT_TOP,
} from './accumulator'
export { statsJson, barcodeRuns, barcodeTsv, statsTsvText, umisPerBarcode, meanMedian, topRanked } from './json'
export { barcodesAtLeast, matchBarcodeSet } from './barcodeSet'
export type { BarcodeSet } from './barcodeSet'
export { kneeDistance, kneeIndex, expectCellsCutoff, forceCellsCutoff } from './knee'
export { runsOf } from './countRuns'
export type { CountRuns, Descending } from './countRuns'
