/**
 * The page's cells pass on K workers (cellsRun.ts, docs/cells.md "On every core"), the workers'
 * real bodies (makeCellsApi) served on channels: K workers give one walk's figures with the
 * progress of every chunk; a kept pass is the lead's alone, no walk; a bad t2g is one error;
 * cancel terminates every worker.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CellsRun } from '../../src/session/passes/cellsRun'
import { makeCellsApi, runCellsJob } from '../../src/workers/cellsJob'
import type { CellsWorkerApi } from '../../src/workers/protocol'
import { channelWorker, closeChannelWorkers } from '../helpers/channelWorker'
import type { ChannelWorker } from '../helpers/channelWorker'
import { SALMON_V3 } from '../helpers/fixtures'
import { kneeCellsJob } from '../helpers/cellsJobs'

const dir = join(import.meta.dirname, '..', 'fixtures', 'annotations')
const file = (name: string): File => new File([readFileSync(join(dir, name))], name)
const bytes = new Uint8Array(readFileSync(SALMON_V3))
const spec = { kind: 'file' as const, file: new File([bytes], 'map.rad') }

afterEach(() => {
  closeChannelWorkers()
})

const jobOf = (files: File[]) => kneeCellsJob(SALMON_V3, files)

/** Workers serving makeCellsApi, each call of `count` noted. */
function workers(): { create: () => Worker; made: ChannelWorker[]; counts: number[] } {
  const made: ChannelWorker[] = []
  const counts: number[] = []
  const create = (): Worker => {
    const api = makeCellsApi()
    const noted: CellsWorkerApi = {
      kept: (job) => api.kept(job),
      count: (s, job, share, onProgress) => {
        counts.push(share.part)
        return api.count(s, job, share, onProgress)
      },
      finish: (others) => api.finish(others),
    }
    const w = channelWorker(noted)
    made.push(w)
    return w
  }
  return { create, made, counts }
}

describe('CellsRun on K workers', () => {
  it('gives one walk’s figures, every chunk visited, the workers terminated after', async () => {
    const { job, r } = await jobOf([file('t2g.tsv'), file('gene_names.tsv'), file('permit.txt')])
    const one = await runCellsJob(job, r.source)
    const w = workers()
    const run = new CellsRun(spec, job, 3, w.create)
    const seen: number[] = []
    run.subscribe(() => seen.push(run.getState().visited))
    const reply = await run.done
    expect(reply.json).toEqual(one.json)
    expect(reply.rows).toEqual(one.rows)
    expect(w.made).toHaveLength(3)
    expect(w.counts.sort()).toEqual([0, 1, 2])
    expect(run.getState()).toMatchObject({ phase: 'done', visited: job.index.count })
    expect(Math.max(...seen)).toBe(job.index.count)
    expect(w.made.every((m) => m.terminated)).toBe(true)
  })

  it('a kept pass is the lead’s answer: no worker counts', async () => {
    const { job, r } = await jobOf([file('t2g.tsv')])
    const first = await runCellsJob(job, r.source)
    const kept = [
      {
        key: first.key,
        json: first.json,
        rows: first.rows,
        files: first.files.map((f, i) => ({ fingerprint: first.fingerprints[i]!, kind: f.kind, why: f.why })),
      },
    ]
    const w = workers()
    const reply = await new CellsRun(spec, { ...job, kept }, 2, w.create).done
    expect(reply.from).toBe('cache')
    expect(w.counts).toEqual([])
  })

  it('a t2g that names no reference: one error; cancel terminates every worker', async () => {
    const { job } = await jobOf([new File(['NOPE\tG1\n'], 't2g.tsv')])
    const w = workers()
    const run = new CellsRun(spec, job, 2, w.create)
    await expect(run.done).rejects.toThrow(/transcript-to-gene/)
    expect(run.getState().phase).toBe('error')
    const { job: good } = await jobOf([file('t2g.tsv')])
    const w2 = workers()
    const running = new CellsRun(spec, good, 2, w2.create)
    running.cancel()
    await expect(running.done).rejects.toThrow(/cancelled/)
    expect(w2.made.every((m) => m.terminated)).toBe(true)
  })
})
