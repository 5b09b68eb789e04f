/**
 * The page's cells pass (docs/cells.md) as plain data, and the cells worker's
 * work: the annotation files (sorted by content, whatever their names) and the
 * cells the statistics chose in, every chunk of the file walked once with the
 * index the page already has, the figures out. Node tests run runCellsJob on
 * real files; cells.worker.ts is its thin Comlink entry.
 */
import type { ByteSource } from '../io/byteSource'
import { openAnnotation } from '../io/gunzip'
import { eachSelectedChunk } from '../io/selectedRecords'
import { loadAnnotations, missingT2g, sortAnnotations, startCells } from '../rad/cells'
import type { Annotations, SortedAnnotations } from '../rad/cells'
import { RadError } from '../rad/errors'
import { inferSemantics } from '../rad/prelude/semantics'
import type { Semantics } from '../rad/prelude/semantics'
import { loadWasmCodecs } from '../io/codecWasm'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import type { CellsJob, CellsReply, CellsWorkerApi } from './protocol'

/**
 * The job's annotation files read as streams (io/gunzip.ts: a gzip bomb costs time, not memory),
 * sorted by their first bytes' content and parsed against the file; none is left open.
 */
async function annotationsOf(
  job: CellsJob,
  sem: Semantics,
): Promise<{ notes: Annotations; kinds: SortedAnnotations['kinds'] }> {
  const settled = await Promise.allSettled(job.files.map(openAnnotation))
  const opened = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  try {
    for (const s of settled) if (s.status === 'rejected') throw s.reason
    const sorted = sortAnnotations(opened, job.prelude.refNames)
    const why = missingT2g(sorted)
    if (why !== undefined || !sorted.t2g) throw new RadError('BAD_VALUE', why ?? '')
    const files = { t2g: sorted.t2g, geneNames: sorted.geneNames, permitList: sorted.permitList, mito: job.mito }
    return { notes: await loadAnnotations(files, job.prelude, sem), kinds: sorted.kinds }
  } finally {
    for (const f of opened) f.cancel()
  }
}

export async function runCellsJob(
  job: CellsJob,
  source: ByteSource,
  onProgress?: (visited: number, total: number | undefined) => void,
  signal?: AbortSignal,
): Promise<CellsReply> {
  const sem = inferSemantics(job.prelude)
  const { notes, kinds } = await annotationsOf(job, sem)
  const run = startCells(notes, sem, job.cut)
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
  return { ...run.finish(), files: kinds }
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
