/**
 * The page's cells pass (docs/cells.md) as plain data, and the cells worker's
 * work: the annotation files (sorted by content, whatever their names) and the
 * cells the statistics chose in, every chunk of the file walked once with the
 * index the page already has, the figures out; or, when the page's cache or
 * the sidecar kept a pass of the same files and cut-off (src/rad/cells/
 * cellsSection.ts), that pass, with no chunk read. Node tests run runCellsJob
 * on real files; cells.worker.ts is its thin Comlink entry.
 *
 * The page counts a walk on every core (docs/cells.md, "On every core"): K
 * workers each count a share of the chunks (countPart), the lead absorbs the
 * others' counts and makes the figures (partsReply): the same as one walk.
 */
import { BlobSource } from '../io/blobSource'
import type { ByteSource } from '../io/byteSource'
import { contentKey } from '../io/fileFingerprint'
import { openAnnotation } from '../io/gunzip'
import { eachSelectedChunk } from '../io/selectedRecords'
import { cellQcPartBuffers, loadAnnotations, missingT2g, sortAnnotations, startCells } from '../rad/cells'
import type { Annotations, CellQcPart, CellsRun, SortedAnnotations } from '../rad/cells'
import type { ChunkIndex } from '../rad/chunkIndex'
import { cellsKeyOf, findKeptCells } from '../rad/cells/cellsSection'
import type { CellsKey, KeptCells } from '../rad/cells/cellsSection'
import { RadError } from '../rad/errors'
import { inferSemantics } from '../rad/prelude/semantics'
import type { Semantics } from '../rad/prelude/semantics'
import { loadWasmCodecs } from '../io/codecWasm'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import type { CellsJob, CellsReply, CellsShare, CellsWorkerApi } from './protocol'
import { transfer } from 'comlink'
import { pacedProgress } from './progressPace'

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

/** The whole walk as one share. */
export const ALL_CHUNKS: CellsShare = { part: 0, parts: 1 }

/**
 * The chunks [from, to] of share `part` of `parts`: the index cut where its records pass each
 * parts-th of them (the work goes by records), every chunk in exactly one share; [0, -1] for none.
 */
export function shareChunks(index: ChunkIndex, { part, parts }: CellsShare): [number, number] {
  const n = index.count
  const records = n === 0 ? 0 : index.firstRecord[n - 1]! + index.nrec[n - 1]!
  const startOf = (k: number): number => {
    if (k <= 0) return 0
    if (k >= parts) return n
    const bound = (records * k) / parts
    let lo = 0
    let hi = n
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (index.firstRecord[mid]! < bound) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  return [startOf(part), startOf(part + 1) - 1]
}

/** A share of a walk counted: its run (the lead's absorbs the others'), and what each file was taken for. */
export interface CellsPart {
  run: CellsRun
  kinds: SortedAnnotations['kinds']
}

/** Counts the share's chunks of the job (its annotation files read and checked first). */
export async function countPart(
  job: CellsJob,
  rad: ByteSource,
  share: CellsShare,
  onProgress?: (visited: number, total: number | undefined) => void,
  signal?: AbortSignal,
): Promise<CellsPart> {
  const sem = inferSemantics(job.prelude)
  const { notes, kinds } = await annotationsOf(job, sem)
  const run = startCells(notes, sem, job.cut)
  const chunks = shareChunks(job.index, share)
  if (chunks[1] < chunks[0]) return { run, kinds }
  await eachSelectedChunk(
    rad,
    job.prelude,
    { chunks },
    (c) => {
      run.qc.addChunk(c.columns())
      return Promise.resolve()
    },
    { known: { index: job.index, convention: job.convention }, signal, onProgress },
  )
  return { run, kinds }
}

/** The job's figures from the lead's share and the others' counts (CellQc.exportPart). */
export async function partsReply(job: CellsJob, lead: CellsPart, others: readonly CellQcPart[]): Promise<CellsReply> {
  for (const p of others) lead.run.qc.absorb(p)
  const { key, fingerprints } = await cellsKeyOfJob(job)
  return { ...lead.run.finish(), files: lead.kinds, key, fingerprints, from: 'pass' }
}

/** The job's kept pass (the same files' bytes, mito pattern and cut-off), or undefined: nothing of the file is read. */
export async function keptCellsOf(job: CellsJob): Promise<CellsReply | undefined> {
  const { key, fingerprints } = await cellsKeyOfJob(job)
  const kept = findKeptCells(job.kept ?? [], key)
  return kept && keptReply(kept, job, key, fingerprints)
}

/**
 * The cells of the job: a kept pass of the same key (the same files' bytes, mito pattern and
 * cut-off) as it was kept, else every chunk walked (one share).
 */
export async function runCellsJob(
  job: CellsJob,
  source: ByteSource | (() => Promise<ByteSource>),
  onProgress?: (visited: number, total: number | undefined) => void,
  signal?: AbortSignal,
): Promise<CellsReply> {
  const kept = await keptCellsOf(job)
  if (kept) return kept
  const rad = typeof source === 'function' ? await source() : source
  return partsReply(job, await countPart(job, rad, ALL_CHUNKS, onProgress, signal), [])
}

/**
 * The cells worker's body (cells.worker.ts exposes it): the lead (share 0) keeps its count for
 * `finish`; the others hand theirs over.
 */
export function makeCellsApi(): CellsWorkerApi {
  let lead: { job: CellsJob; part: CellsPart } | undefined
  return {
    kept: keptCellsOf,
    async count(spec, job, share, onProgress) {
      // The file is opened (and the codecs loaded) only for a walk: a kept pass reads none of it.
      await loadWasmCodecs()
      const rad = await radStreamOf(await openByteSource(spec), job.container, job.frames)
      const part = await countPart(job, rad, share, pacedProgress(onProgress))
      if (share.part === 0) {
        lead = { job, part }
        return undefined
      }
      const counts = part.run.qc.exportPart()
      return transfer(counts, cellQcPartBuffers(counts))
    },
    finish(others) {
      if (!lead) throw new Error('the cells pass was not counted')
      return partsReply(lead.job, lead.part, others)
    },
  }
}
