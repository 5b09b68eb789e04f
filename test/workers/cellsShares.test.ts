/**
 * The page's cells pass on K workers (docs/cells.md, "On every core"): each counts a share of the
 * chunks (countPart), the lead absorbs the others' counts (structured-cloned, as they cross
 * workers) and makes the figures (partsReply). The JSON and rows equal one walk's exactly, on the
 * real salmon fixtures, with a t2g, gene names and a permit list, and with an S/U t2g.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import { ALL_CHUNKS, countPart, partsReply, runCellsJob, shareChunks } from '../../src/workers/cellsJob'
import type { CellsJob, CellsReply } from '../../src/workers/protocol'
import { SALMON_V2, SALMON_V3, SALMON_V3_P3 } from '../helpers/fixtures'
import { kneeCellsJob } from '../helpers/cellsJobs'
import type { readRad } from '../helpers/read'

const dir = join(import.meta.dirname, '..', 'fixtures', 'annotations')
const file = (name: string): File => new File([readFileSync(join(dir, name))], name)

/** The fixture's t2g with a status on every line: a transcript's second isoform (-2) unspliced. */
function statusT2g(): File {
  const lines = readFileSync(join(dir, 't2g.tsv'), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const [tx, gene] = l.split('\t')
      return `${tx!}\t${gene!}\t${tx!.split('|')[0]!.endsWith('-2') ? 'U' : 'S'}`
    })
  return new File([`${lines.join('\n')}\n`], 't2g_3col.tsv')
}

const jobOf = kneeCellsJob

/** The pass counted in `parts` shares, the others' counts cloned to the lead as a worker's reply would be. */
async function inShares(job: CellsJob, r: Awaited<ReturnType<typeof readRad>>, parts: number): Promise<CellsReply> {
  const counted = await Promise.all(
    Array.from({ length: parts }, (_, part) => countPart(job, r.source, { part, parts })),
  )
  const others = counted.slice(1).map((c) => structuredClone(c.run.qc.exportPart()))
  return partsReply(job, counted[0]!, others)
}

describe('the cells pass on K workers equals one walk', () => {
  const cases = [
    [
      'v3, t2g + gene names + permit list',
      SALMON_V3,
      () => [file('t2g.tsv'), file('gene_names.tsv'), file('permit.txt')],
    ],
    ['v3, an S/U t2g', SALMON_V3, () => [statusT2g(), file('gene_names.tsv')]],
    ['v2, t2g + permit list', SALMON_V2, () => [file('t2g.tsv'), file('permit.txt')]],
    ['v3 (p3), an S/U t2g + permit list', SALMON_V3_P3, () => [statusT2g(), file('permit.txt')]],
  ] as const
  for (const [what, path, files] of cases) {
    it(what, async () => {
      const { job, r } = await jobOf(path, files())
      expect(job.index.count).toBeGreaterThanOrEqual(4)
      const one = await runCellsJob(job, r.source)
      expect(one.json.cells.count).toBeGreaterThan(0)
      for (const parts of [2, 3, 4]) {
        const many = await inShares(job, r, parts)
        expect(many.json).toEqual(one.json)
        expect(many.rows).toEqual(one.rows)
        expect(JSON.stringify(many.json)).toBe(JSON.stringify(one.json))
      }
      if (path === SALMON_V3 && files().length === 2) expect(one.json.cells.spliced).toBeDefined()
    })
  }

  it('more workers than chunks: the empty shares count nothing and change nothing', async () => {
    const { job, r } = await jobOf(SALMON_V3, [file('t2g.tsv')])
    const one = await runCellsJob(job, r.source)
    const many = await inShares(job, r, job.index.count + 3)
    expect(many.json).toEqual(one.json)
    expect(many.rows).toEqual(one.rows)
  })
})

describe('shareChunks', () => {
  const index = (nrec: number[]): ChunkIndex => {
    const firstRecord = new Float64Array(nrec.length)
    for (let k = 1; k < nrec.length; k++) firstRecord[k] = firstRecord[k - 1]! + nrec[k - 1]!
    const n = nrec.length
    return {
      count: n,
      offset: new Float64Array(n),
      nbytes: new Uint32Array(n),
      nrec: Uint32Array.from(nrec),
      firstRecord,
    }
  }

  it('cuts by records, every chunk in exactly one share', () => {
    const ix = index([10, 10, 10, 10, 100, 10, 10, 10])
    expect(shareChunks(ix, ALL_CHUNKS)).toEqual([0, 7])
    // 170 records: the second half starts at the first chunk at or past record 85.
    expect(shareChunks(ix, { part: 0, parts: 2 })).toEqual([0, 4])
    expect(shareChunks(ix, { part: 1, parts: 2 })).toEqual([5, 7])
    for (const parts of [1, 2, 3, 5, 8, 13]) {
      const covered: number[] = []
      for (let part = 0; part < parts; part++) {
        const [from, to] = shareChunks(ix, { part, parts })
        for (let k = from; k <= to; k++) covered.push(k)
      }
      expect(covered).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    }
  })

  it('an empty index: no chunk for anyone', () => {
    expect(shareChunks(index([]), { part: 0, parts: 2 })).toEqual([0, -1])
    expect(shareChunks(index([]), { part: 1, parts: 2 })).toEqual([0, -1])
  })
})
