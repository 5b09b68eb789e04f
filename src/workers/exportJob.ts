/**
 * The page's export (docs/subsets.md) as plain data, and the
 * export worker's work: turn the pick (a filter, a chunk range, the cells
 * above a cut-off) into a RecordSelection and stream exportSelection to a
 * sink, walking the chunk index the page already has (nothing is rescanned).
 * Node tests run runExportJob on real files; export.worker.ts is its thin
 * Comlink entry.
 */
import type { ByteSource } from '../io/byteSource'
import { exportSelection } from '../io/exportSelection'
import type { ExportSummary } from '../io/exportSelection'
import type { RecordSelection } from '../io/selectedRecords'
import { identifyProducer } from '../rad/producer'
import { compileFilter, matchRecords } from '../rad/recordFilter'
import { inferSemantics } from '../rad/semantics'
import { matchBarcodeSet } from '../rad/stats/barcodeSet'
import type { ByteSink } from '../rad/subsetWriter'
import type { Prelude } from '../rad/types'
import type { ExportJob, ExportPick } from './protocol'

/** The RecordSelection of a pick; filters are compiled here, once (their errors are the user's words). */
export function selectionFor(pick: ExportPick, prelude: Prelude): RecordSelection {
  const sem = inferSemantics(prelude)
  switch (pick.kind) {
    case 'chunks':
      return { chunks: [pick.from, pick.to] }
    case 'filter': {
      const compiled = compileFilter(pick.filter, prelude, sem)
      return { match: (cols) => matchRecords(cols, compiled) }
    }
    case 'cells':
      return { match: matchBarcodeSet(pick.barcodes, sem) }
  }
}

/** Streams the job's records to `sink`; a collated file keeps its chunks (one cell each), as `rad subset` does. */
export function runExportJob(
  job: ExportJob,
  source: ByteSource,
  sink: ByteSink,
  onProgress?: (visited: number, total: number | undefined) => void,
  signal?: AbortSignal,
): Promise<ExportSummary> {
  const producer = identifyProducer(job.prelude, job.container).name
  const collated = producer === 'alevin-fry collate'
  return exportSelection(job.format, source, job.prelude, selectionFor(job.pick, job.prelude), sink, {
    known: { index: job.index, convention: job.convention },
    keepSourceChunks: collated,
    producer,
    onProgress,
    signal,
  })
}
