/**
 * The page's cells pass (docs/cells.md) as plain data, and the cells worker's
 * work: the annotation files (sorted by content, whatever their names) and the
 * cells the statistics chose in, every chunk of the file walked once with the
 * index the page already has, the figures out. Node tests run runCellsJob on
 * real files; cells.worker.ts is its thin Comlink entry.
 */
import type { ByteSource } from '../io/byteSource'
import { readSmallFile } from '../io/gunzip'
import { eachSelectedChunk } from '../io/selectedRecords'
import { loadAnnotations, missingT2g, sortAnnotations, startCells } from '../rad/cells'
import { RadError } from '../rad/errors'
import { inferSemantics } from '../rad/prelude/semantics'
import { loadWasmCodecs } from '../io/codecWasm'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import type { CellsJob, CellsReply, CellsWorkerApi } from './protocol'

export async function runCellsJob(
  job: CellsJob,
  source: ByteSource,
  onProgress?: (visited: number, total: number | undefined) => void,
  signal?: AbortSignal,
): Promise<CellsReply> {
  const sorted = sortAnnotations(await Promise.all(job.files.map(readSmallFile)), job.prelude.refNames)
  const why = missingT2g(sorted)
  if (why !== undefined || !sorted.t2g) throw new RadError('BAD_VALUE', why ?? '')
  const files = { t2g: sorted.t2g, geneNames: sorted.geneNames, permitList: sorted.permitList, mito: job.mito }
  const sem = inferSemantics(job.prelude)
  const run = startCells(loadAnnotations(files, job.prelude, sem), sem, job.cut)
  await eachSelectedChunk(
    source,
    job.prelude,
    {},
    (c) => {
      run.qc.addChunk(c.columns())
      return Promise.resolve()
    },
    { known: { index: job.index, convention: job.convention }, signal, onProgress },
  )
  return { ...run.finish(), files: sorted.kinds }
}

/** The cells worker's body (cells.worker.ts exposes it). */
export function makeCellsApi(): CellsWorkerApi {
  return {
    async run(spec, job, onProgress) {
      await loadWasmCodecs()
      const source = await radStreamOf(await openByteSource(spec), job.container, job.frames)
      return runCellsJob(job, source, onProgress)
    },
  }
}
