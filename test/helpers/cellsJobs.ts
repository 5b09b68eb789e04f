/** A cells job (the page's CellsJob) for a RAD file read whole: its index, and the knee's cells of its statistics. */
import { readFileSync } from 'node:fs'
import { chooseCutoff, DEFAULT_MITO } from '../../src/rad/cells'
import { barcodesAtLeast, createStatsAccumulator } from '../../src/rad/stats'
import type { CellsJob } from '../../src/workers/protocol'
import { readRad } from './read'

export type ReadRad = Awaited<ReturnType<typeof readRad>>

/** The job the page would give the cells workers for `path` with `files`, and the file as read. */
export async function kneeCellsJob(path: string, files: File[]): Promise<{ job: CellsJob; r: ReadRad }> {
  const r = await readRad(new Uint8Array(readFileSync(path)))
  const acc = createStatsAccumulator(r.prelude, r.sem)
  for (const c of r.chunks) acc.addChunk(c)
  const state = acc.exportState()
  const [cutoff, name] = chooseCutoff(state, {})
  const cut = { cells: barcodesAtLeast(state, cutoff!.minCount), cutoff: name, minReads: cutoff!.minCount }
  const { prelude, scan } = r
  return {
    job: { prelude, index: scan.index, convention: scan.convention, container: 'none', cut, files, mito: DEFAULT_MITO },
    r,
  }
}
