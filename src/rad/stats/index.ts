/** Whole-file statistics (issue 12 §1): the public API of src/rad/stats (docs/stats.md). */
export type * from './types'
export {
  createStatsAccumulator,
  mergeStates,
  statsTransferables,
  StatsAccumulator,
  DEFAULT_MAX_BARCODES,
  DEFAULT_MAX_PAIRS,
  DEFAULT_TOP,
} from './accumulator'
export { statsJson, barcodeCountsDescending, barcodeTsv, umisPerBarcode, meanMedian, topRanked } from './json'
export { kneeDistance, kneeIndex, expectCellsCutoff, forceCellsCutoff } from './knee'
