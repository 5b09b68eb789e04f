/**
 * The page's handle on one export (docs/subsets.md): a fresh export worker
 * (export.worker.ts) walks the selection with the session's chunk index and
 * calls back for every piece of output; the page's sink (a file the user
 * picked, or a capped Blob: ui/exportSinks.ts) writes it, and the worker
 * waits for each write, so neither side holds the export (ADR 0006).
 * Cancel terminates the worker: nothing of it keeps running (workerRun.ts).
 */
import { proxy, wrap } from 'comlink'
import '../../workers/comlinkErrors'
import type { ExportFormat, ExportSummary } from '../../io/exportSelection'
import type { SourceSpec } from '../../io/sourceSpec'
import type { ChunkIndex } from '../../rad/chunkIndex'
import type { ByteSink } from '../../rad/subsetWriter'
import type { NbytesConvention } from '../../rad/types'
import type { ExportWorkerApi } from '../../workers/protocol'
import type { ExportJob, ExportPick } from '../../workers/protocol'
import type { IndexStore } from '../open/indexStore'
import type { OpenedFile } from '../../workers/protocol'
import { WorkerRun } from './workerRun'
import type { RunPhase, RunState } from './workerRun'

export type ExportPhase = RunPhase

export interface ExportState extends RunState {
  /** Bytes written so far. */
  bytes: number
  summary: ExportSummary | undefined
}

/** The session's index as one ChunkIndex (24 bytes a chunk), for the export worker. */
export function indexSnapshot(index: IndexStore): ChunkIndex {
  const count = index.count
  const snap: ChunkIndex = {
    count,
    offset: new Float64Array(count),
    nbytes: new Uint32Array(count),
    nrec: new Uint32Array(count),
    firstRecord: new Float64Array(count),
  }
  for (let k = 0; k < count; k++) {
    snap.offset[k] = index.offset(k)
    snap.nbytes[k] = index.nbytes(k)
    snap.nrec[k] = index.nrec(k)
    snap.firstRecord[k] = index.firstRecord(k)
  }
  return snap
}

export function exportJobOf(
  opened: OpenedFile,
  index: IndexStore,
  convention: NbytesConvention,
  format: ExportFormat,
  pick: ExportPick,
): ExportJob {
  return {
    format,
    pick,
    prelude: opened.prelude,
    container: opened.container,
    frames: opened.frames,
    index: indexSnapshot(index),
    convention,
  }
}

function createExportWorker(): Worker {
  return new Worker(new URL('../../workers/export.worker.ts', import.meta.url), { type: 'module', name: 'rad-export' })
}

export class ExportRun extends WorkerRun<ExportState, ExportSummary> {
  constructor(spec: SourceSpec, job: ExportJob, sink: ByteSink, createWorker: () => Worker = createExportWorker) {
    let bytes = 0
    const counted: ByteSink = {
      write: async (b) => {
        await sink.write(b)
        bytes += b.length
      },
      patch: (at, b) => sink.patch(at, b),
    }
    const initial = { phase: 'running', visited: 0, total: undefined, bytes: 0, summary: undefined, error: undefined }
    super(
      initial as ExportState,
      [createWorker()],
      'export',
      (worker) => {
        const progress = (visited: number, total: number | undefined): void => {
          this.progress({ visited, total, bytes })
        }
        return wrap<ExportWorkerApi>(worker).run(spec, job, proxy(counted), proxy(progress))
      },
      (summary) => ({ summary, bytes, visited: this.getState().total ?? this.getState().visited }),
    )
  }
}
