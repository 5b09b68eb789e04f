/**
 * The page's cells pass (docs/cells.md): once the statistics are done, a cells
 * worker (cells.worker.ts) walks every chunk again with the session's index and
 * counts the knee's cells' UMIs, genes and mito fraction (the second pass of
 * ADR 0013). One worker of its own, cancelled by terminating it (workerRun.ts).
 */
import { proxy, wrap } from 'comlink'
import '../../workers/comlinkErrors'
import type { SourceSpec } from '../../io/sourceSpec'
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

export class CellsRun extends WorkerRun<CellsState, CellsReply> {
  constructor(spec: SourceSpec, job: CellsJob, createWorker: () => Worker = createCellsWorker) {
    const initial: CellsState = {
      phase: 'running',
      visited: 0,
      total: undefined,
      error: undefined,
      reply: undefined,
      fileNames: job.files.map((f) => f.name),
    }
    super(
      initial,
      createWorker(),
      'cells pass',
      (worker) => {
        const progress = (visited: number, total: number | undefined): void => {
          this.progress({ visited, total })
        }
        return wrap<CellsWorkerApi>(worker).run(spec, job, proxy(progress))
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
