/**
 * The page's cells pass (docs/cells.md): once the statistics are done, cells
 * workers (cells.worker.ts) walk every chunk again with the session's index and
 * count the knee's cells' UMIs, genes and mito fraction (the second pass of
 * ADR 0013). One worker a core (the decode pool's size), each counting a share
 * of the chunks, the first (the lead) making the figures of all their counts;
 * the lead alone when it finds a kept pass. Cancelled by terminating them
 * (workerRun.ts).
 */
import { proxy, transfer, wrap } from 'comlink'
import type { Remote } from 'comlink'
import '../../workers/comlinkErrors'
import type { SourceSpec } from '../../io/sourceSpec'
import { cellQcPartBuffers } from '../../rad/cells'
import type { CellsCut } from '../../rad/cells'
import type { NbytesConvention } from '../../rad/types'
import type { IndexStore } from '../open/indexStore'
import type { CellsJob, CellsReply, CellsWorkerApi, OpenedFile } from '../../workers/protocol'
import { indexSnapshot } from './exportRun'
import type { StatsRun } from './statsRun'
import type { StatsJson } from '../../rad/stats/statsTypes'
import { WorkerRun } from './workerRun'
import type { RunState } from './workerRun'

export interface CellsState extends RunState {
  reply: CellsReply | undefined
  /** The annotation files of this pass, as given (names shown while it runs). */
  fileNames: string[]
}

function createCellsWorker(): Worker {
  return new Worker(new URL('../../workers/cells.worker.ts', import.meta.url), { type: 'module', name: 'rad-cells' })
}

/**
 * The job on the workers: a kept pass from the lead, else every worker's share counted and the
 * others' counts handed to the lead for the figures. Progress: the chunks visited by all.
 */
async function countOnWorkers(
  apis: readonly Remote<CellsWorkerApi>[],
  spec: SourceSpec,
  job: CellsJob,
  onProgress: (visited: number) => void,
): Promise<CellsReply> {
  const lead = apis[0]!
  const kept = await lead.kept(job)
  if (kept) return kept
  const walk = { ...job, kept: undefined }
  const visited = apis.map(() => 0)
  const counted = await Promise.all(
    apis.map((api, part) => {
      const progress = (v: number): void => {
        visited[part] = v
        onProgress(visited.reduce((a, b) => a + b, 0))
      }
      return api.count(spec, walk, { part, parts: apis.length }, proxy(progress))
    }),
  )
  const others = counted.slice(1).flatMap((c) => (c ? [c] : []))
  return lead.finish(transfer(others, others.flatMap(cellQcPartBuffers)))
}

export class CellsRun extends WorkerRun<CellsState, CellsReply> {
  /** `workers`: how many count a walk (the cores: the decode pool's size). */
  constructor(spec: SourceSpec, job: CellsJob, workers = 1, createWorker: () => Worker = createCellsWorker) {
    const initial: CellsState = {
      phase: 'running',
      visited: 0,
      total: undefined,
      error: undefined,
      reply: undefined,
      fileNames: job.files.map((f) => f.name),
    }
    const all = Array.from({ length: Math.max(1, workers) }, createWorker)
    super(
      initial,
      all as [Worker, ...Worker[]],
      'cells pass',
      (lead, others) => {
        const progress = (visited: number): void => {
          this.progress({ visited, total: job.index.count })
        }
        return countOnWorkers(
          [lead, ...others].map((w) => wrap<CellsWorkerApi>(w)),
          spec,
          job,
          progress,
        )
      },
      (reply) => ({ reply, visited: this.getState().total ?? this.getState().visited }),
    )
  }
}

/** The cells pass's job: the knee's cells (the CLI's default cut-off, so the two agree) and the files. */
export function cellsJobOf(
  opened: OpenedFile,
  index: IndexStore,
  convention: NbytesConvention,
  cut: CellsCut,
  files: File[],
  mito: string,
): CellsJob {
  const { prelude, container, frames } = opened
  return { prelude, container, frames, index: indexSnapshot(index), convention, cut, files, mito }
}

/** No cells: a file whose barcodes have no knee. */
const NO_CELLS: CellsCut = {
  cells: { keyWords: 2, size: 0, keys: new Uint32Array(0) },
  cutoff: 'knee',
  minReads: 0,
}

/**
 * The cells: the barcodes with at least `minReads` records (the page's cut-off), else the knee's
 * (the CLI's default cut-off, so the two agree), asked of the finished statistics pass. A cut at
 * the knee's count is named the knee's.
 */
export async function cellsCut(json: StatsJson, stats: StatsRun, minReads?: number): Promise<CellsCut> {
  const knee = json.cutoffs?.knee
  const min = minReads ?? knee?.minCount
  if (min === undefined || min <= 0) return NO_CELLS
  const cutoff = min === knee?.minCount ? 'knee' : 'chosen'
  return { cells: await stats.barcodesAtLeast(min), cutoff, minReads: min }
}
