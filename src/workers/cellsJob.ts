/**
 * The page's cells pass (docs/cells.md) as plain data, and the cells worker's
 * work: the annotation files' bytes and the cells the statistics chose in,
 * every chunk of the file walked once with the index the page already has,
 * the figures out. Node tests run runCellsJob on real files; cells.worker.ts
 * is its thin Comlink entry.
 */
import type { ByteSource } from '../io/byteSource'
import { gunzipIfGzip } from '../io/gunzip'
import { eachSelectedChunk } from '../io/selectedRecords'
import { loadAnnotations, startCells } from '../rad/cells'
import type { AnnotationFiles, CellsResult, NamedBytes } from '../rad/cells'
import { inferSemantics } from '../rad/semantics'
import type { CellsJob } from './protocol'

async function gunzipped(file: NamedBytes | undefined): Promise<NamedBytes | undefined> {
  return file && { name: file.name, bytes: await gunzipIfGzip(file.bytes as Uint8Array<ArrayBuffer>) }
}

export async function runCellsJob(
  job: CellsJob,
  source: ByteSource,
  onProgress?: (visited: number, total: number | undefined) => void,
  signal?: AbortSignal,
): Promise<CellsResult> {
  const files: AnnotationFiles = {
    t2g: (await gunzipped(job.files.t2g))!,
    geneNames: await gunzipped(job.files.geneNames),
    permitList: await gunzipped(job.files.permitList),
    mito: job.files.mito,
  }
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
  return run.finish()
}
