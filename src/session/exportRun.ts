/**
 * The page's handle on one export (docs/subsets.md): a fresh export worker
 * (export.worker.ts) walks the selection with the session's chunk index and
 * calls back for every piece of output; the page's sink (a file the user
 * picked, or a capped Blob: ui/exportSinks.ts) writes it, and the worker
 * waits for each write, so neither side holds the export (ADR 0006).
 * Cancel terminates the worker: nothing of it keeps running.
 */
import { proxy, wrap } from 'comlink'
import '../workers/comlinkErrors'
import type { ExportFormat, ExportSummary } from '../io/exportSelection'
import type { SourceSpec } from '../io/sourceSpec'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError } from '../rad/errors'
import type { ByteSink } from '../rad/subsetWriter'
import type { NbytesConvention } from '../rad/types'
import type { ExportWorkerApi } from '../workers/protocol'
import type { ExportJob, ExportPick } from '../workers/protocol'
import type { IndexStore } from '../workers/indexStore'
import type { OpenedFile } from '../workers/protocol'

export type ExportPhase = 'running' | 'done' | 'error' | 'cancelled'

export interface ExportState {
  phase: ExportPhase
  /** Chunks of the selection walked so far, of `total`. */
  visited: number
  total: number | undefined
  /** Bytes written so far. */
  bytes: number
  summary: ExportSummary | undefined
  error: Error | undefined
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
  return new Worker(new URL('../workers/export.worker.ts', import.meta.url), { type: 'module', name: 'rad-export' })
}

export class ExportRun {
  private state: ExportState = {
    phase: 'running',
    visited: 0,
    total: undefined,
    bytes: 0,
    summary: undefined,
    error: undefined,
  }
  private readonly listeners = new Set<() => void>()
  private readonly worker: Worker
  private settle: ((e: Error) => void) | undefined
  /** Resolves with the summary once every byte went to the sink; rejects on an error or a cancel. */
  readonly done: Promise<ExportSummary>

  constructor(spec: SourceSpec, job: ExportJob, sink: ByteSink, createWorker: () => Worker = createExportWorker) {
    this.worker = createWorker()
    let bytes = 0
    const counted: ByteSink = {
      write: async (b) => {
        await sink.write(b)
        bytes += b.length
      },
      patch: (at, b) => sink.patch(at, b),
    }
    const progress = (visited: number, total: number | undefined): void => {
      if (this.state.phase === 'running') this.update({ visited, total, bytes })
    }
    const stopped = new Promise<never>((_, reject) => {
      this.settle = reject
      this.worker.onerror = (e) => {
        e.preventDefault()
        reject(new RadError('WORKER_FAILED', `the export worker stopped (${e.message || 'it crashed'})`))
      }
    })
    const api = wrap<ExportWorkerApi>(this.worker)
    const run = api.run(spec, job, proxy(counted), proxy(progress))
    this.done = Promise.race([run, stopped]).then(
      (summary) => {
        this.finish({ phase: 'done', summary, bytes, visited: this.state.total ?? this.state.visited })
        return summary
      },
      (e: unknown) => {
        const error = e instanceof Error ? e : new Error(String(e))
        if (this.state.phase === 'running') this.finish({ phase: 'error', error, bytes })
        throw error
      },
    )
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  readonly getState = (): ExportState => this.state

  private update(patch: Partial<ExportState>): void {
    this.state = { ...this.state, ...patch }
    for (const l of this.listeners) l()
  }

  private finish(patch: Partial<ExportState>): void {
    this.worker.terminate()
    this.update(patch)
  }

  /** Stops the export: the worker is terminated and `done` rejects with CANCELLED. */
  cancel(): void {
    if (this.state.phase !== 'running') return
    this.finish({ phase: 'cancelled' })
    this.settle?.(new RadError('CANCELLED', 'the export was cancelled'))
  }
}
