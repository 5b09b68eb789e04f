/**
 * The page's cells pass (docs/cells.md) as plain data, and the cells worker's
 * work: the annotation files (sorted by content, whatever their names) and the
 * cells the statistics chose in, every chunk of the file walked once with the
 * index the page already has, the figures out; or, when the page's cache or
 * the sidecar kept a pass of the same files and cut-off (src/rad/cells/
 * cellsSection.ts), that pass, with no chunk read. Node tests run runCellsJob
 * on real files; cells.worker.ts is its thin Comlink entry.
 */
import { BlobSource } from '../io/blobSource'
import type { ByteSource } from '../io/byteSource'
import { contentKey } from '../io/fileFingerprint'
import { openAnnotation } from '../io/gunzip'
import { eachSelectedChunk } from '../io/selectedRecords'
import { loadAnnotations, missingT2g, sortAnnotations, startCells } from '../rad/cells'
import type { Annotations, SortedAnnotations } from '../rad/cells'
import { cellsKeyOf, findKeptCells } from '../rad/cells/cellsSection'
import type { CellsKey, KeptCells } from '../rad/cells/cellsSection'
import { RadError } from '../rad/errors'
import { inferSemantics } from '../rad/prelude/semantics'
import type { Semantics } from '../rad/prelude/semantics'
import { loadWasmCodecs } from '../io/codecWasm'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import type { CellsJob, CellsReply, CellsWorkerApi } from './protocol'

/** The key of a job: its files' content keys (contentKey: two 64 KiB ends and a sample each), the mito pattern, the cut-off. */
export async function cellsKeyOfJob(job: CellsJob): Promise<{ key: CellsKey; fingerprints: string[] }> {
  const fingerprints = await Promise.all(job.files.map((f) => contentKey(new BlobSource(f))))
  return { key: cellsKeyOf(fingerprints, job.mito, job.cut.cutoff, job.cut.minReads), fingerprints }
}

/** A kept pass as this job's reply: the files as given now (their names), taken for what they were then. */
function keptReply(kept: KeptCells, job: CellsJob, key: CellsKey, fingerprints: string[]): CellsReply {
  const files = job.files.map((f, i) => {
    const was = kept.files.find((k) => k.fingerprint === fingerprints[i])
    return { name: f.name, kind: was?.kind, why: was?.why ?? '' }
  })
  const from = kept.writer === undefined ? 'cache' : 'sidecar'
  return { json: kept.json, rows: kept.rows, files, key, fingerprints, from }
}

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

/**
 * The cells of the job: a kept pass of the same key (the same files' bytes, mito pattern and
 * cut-off) as it was kept, else every chunk walked.
 */
export async function runCellsJob(
  job: CellsJob,
  source: ByteSource | (() => Promise<ByteSource>),
  onProgress?: (visited: number, total: number | undefined) => void,
  signal?: AbortSignal,
): Promise<CellsReply> {
  const { key, fingerprints } = await cellsKeyOfJob(job)
  const kept = findKeptCells(job.kept ?? [], key)
  if (kept) return keptReply(kept, job, key, fingerprints)
  const rad = typeof source === 'function' ? await source() : source
  const sem = inferSemantics(job.prelude)
  const { notes, kinds } = await annotationsOf(job, sem)
  const run = startCells(notes, sem, job.cut)
  await eachSelectedChunk(
    rad,
    job.prelude,
    {},
    (c) => {
      run.qc.addChunk(c.columns())
      return Promise.resolve()
    },
    { known: { index: job.index, convention: job.convention }, signal, onProgress },
  )
  return { ...run.finish(), files: kinds, key, fingerprints, from: 'pass' }
}

/** The cells worker's body (cells.worker.ts exposes it). */
export function makeCellsApi(): CellsWorkerApi {
  return {
    run(spec, job, onProgress) {
      // The file is opened (and the codecs loaded) only for a walk: a kept pass reads none of it.
      const source = async (): Promise<ByteSource> => {
        await loadWasmCodecs()
        return radStreamOf(await openByteSource(spec), job.container, job.frames)
      }
      return runCellsJob(job, source, onProgress)
    },
  }
}
