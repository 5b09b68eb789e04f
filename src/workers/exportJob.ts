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
import { identifyProducer } from '../rad/prelude/producer'
import { compileFilter, matchRecords } from '../rad/filter/recordFilter'
import { inferSemantics } from '../rad/prelude/semantics'
import { matchBarcodeSet } from '../rad/stats/barcodeSet'
import type { ByteSink } from '../rad/subsetWriter'
import type { Prelude } from '../rad/types'
import { transfer } from 'comlink'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import type { ExportJob, ExportPick, ExportWorkerApi } from './protocol'
import { pacedProgress } from './progressPace'

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

/** Bytes that own their whole buffer, so they can be transferred without taking a view's neighbours along. */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
  return whole && bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice()
}

/** The export worker's body (export.worker.ts exposes it). */
export function makeExportApi(): ExportWorkerApi {
  return {
    async run(spec, job, sink, onProgress) {
      const file = await openByteSource(spec)
      const source = await radStreamOf(file, job.container, job.frames)
      const remote: ByteSink = {
        write: (bytes) => {
          const b = owned(bytes)
          return sink.write(transfer(b, [b.buffer]))
        },
        patch: (position, bytes) => sink.patch(position, bytes.slice()),
      }
      return runExportJob(job, source, remote, pacedProgress(onProgress))
    },
  }
}
