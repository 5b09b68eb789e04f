/** The page's cells pass (runCellsJob, the cells worker's work) equals the CLI's figures on the fixture. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { barcodesAtLeast, createStatsAccumulator } from '../../src/rad/stats'
import { chooseCutoff, DEFAULT_MITO } from '../../src/rad/cells'
import { cellsSectionFromJson } from '../../src/rad/cells/cellsSection'
import type { KeptCells } from '../../src/rad/cells/cellsSection'
import { decodeSidecar } from '../../src/rad/sidecar/sidecar'
import { runCellsJob } from '../../src/workers/cellsJob'
import type { CellsReply } from '../../src/workers/protocol'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { kneeCellsJob } from '../helpers/cellsJobs'
import { readRad } from '../helpers/read'

const dir = join(import.meta.dirname, '..', 'fixtures', 'annotations')
/** An annotation file as the page gets it, under a name that says nothing of its kind. */
const file = (name: string, as: string, gz = false): File => {
  const bytes = readFileSync(join(dir, name))
  return new File([gz ? gzipSync(bytes) : bytes], as)
}

describe('runCellsJob', () => {
  it('gives the CLI figures, the files recognised by content (a gzipped permit list gunzipped on the way)', async () => {
    const bytes = new Uint8Array(readFileSync(SALMON_V3))
    const r = await readRad(bytes)
    const acc = createStatsAccumulator(r.prelude, r.sem)
    for (const c of r.chunks) acc.addChunk(c)
    const state = acc.exportState()
    const [cutoff, name] = chooseCutoff(state, {})
    const result = await runCellsJob(
      {
        prelude: r.prelude,
        index: r.scan.index,
        convention: r.scan.convention,
        container: 'none',
        cut: { cells: barcodesAtLeast(state, cutoff!.minCount), cutoff: name, minReads: cutoff!.minCount },
        files: [file('permit.txt', 'b.txt', true), file('gene_names.tsv', 'c.dat'), file('t2g.tsv', 'a.tsv')],
        mito: DEFAULT_MITO,
      },
      r.source,
    )
    const cli = await runCli([
      'stats',
      SALMON_V3,
      '--t2g',
      join(dir, 't2g.tsv'),
      '--gene-names',
      join(dir, 'gene_names.tsv'),
      '--permit-list',
      join(dir, 'permit.txt'),
      '--json',
    ])
    const json = JSON.parse(cli.stdout) as Record<string, unknown>
    const { cells, genes, permit, umi_duplication } = json
    expect({ cells, genes, permit, umi_duplication }).toEqual(result.json)
    expect(result.rows.barcodes).toHaveLength(result.json.cells.count)
    expect(result.files.map(({ name, kind }) => ({ name, kind }))).toEqual([
      { name: 'b.txt', kind: 'permit-list' },
      { name: 'c.dat', kind: 'gene-names' },
      { name: 'a.tsv', kind: 't2g' },
    ])
    expect(result.files[1]?.why).toBe('two columns, and column 1 names none of this file’s references')
  })
})

describe('runCellsJob with kept passes (docs/cells.md, "Kept cells")', () => {
  const tmp = tempDir()
  afterAll(() => {
    tmp.cleanup()
  })
  const noWalk = (): Promise<never> => Promise.reject(new Error('the file was read'))

  const jobOf = (files: File[]) => kneeCellsJob(SALMON_V3, files)
  const keptOf = (reply: CellsReply): KeptCells => ({
    key: reply.key,
    json: reply.json,
    rows: reply.rows,
    files: reply.files.map((f, i) => ({ fingerprint: reply.fingerprints[i]!, kind: f.kind, why: f.why })),
  })

  it('the same files (other names, other order) hit without reading the file; another t2g or cut-off walks', async () => {
    const given = [file('t2g.tsv', 'a.tsv'), file('gene_names.tsv', 'c.dat')]
    const { job, r } = await jobOf(given)
    const first = await runCellsJob(job, r.source)
    expect(first.from).toBe('pass')
    const kept = [keptOf(first)]
    const renamed = [file('gene_names.tsv', 'names.tsv'), file('t2g.tsv', 'map.tsv')]
    const hit = await runCellsJob({ ...job, files: renamed, kept }, noWalk)
    expect(hit.from).toBe('cache')
    expect(hit.json).toEqual(first.json)
    expect(hit.rows).toEqual(first.rows)
    expect(hit.files.map(({ name, kind }) => ({ name, kind }))).toEqual([
      { name: 'names.tsv', kind: 'gene-names' },
      { name: 'map.tsv', kind: 't2g' },
    ])
    // One more line in the t2g (a transcript the file does not have): other bytes, a walk.
    const t2g = new File([readFileSync(join(dir, 't2g.tsv')), 'ENST_NOT_IN_FILE\tGENE_X\n'], 'a.tsv')
    const other = await runCellsJob({ ...job, files: [t2g, given[1]!], kept }, r.source)
    expect(other.from).toBe('pass')
    expect(other.key).not.toEqual(first.key)
    const cut = { ...job.cut, cutoff: 'chosen', minReads: job.cut.minReads + 1 }
    await expect(runCellsJob({ ...job, cut, kept }, noWalk)).rejects.toThrow('the file was read')
  })

  it('rad index --t2g --gene-names --permit-list keeps the cells in the sidecar under the keys the page takes', async () => {
    const path = tmp.write('map.rad', new Uint8Array(readFileSync(SALMON_V3)))
    const flags = ['--t2g', join(dir, 't2g.tsv'), '--gene-names', join(dir, 'gene_names.tsv')]
    const res = await runCli(['index', path, ...flags, '--permit-list', join(dir, 'permit.txt')])
    expect(res.stderr).toBe('')
    expect(res.stdout).toMatch(/; with statistics and cells\n$/)
    const sidecar = decodeSidecar(new Uint8Array(readFileSync(`${path}.rdx`)))
    const { kept, dropped } = cellsSectionFromJson(sidecar.cells)
    expect(dropped).toEqual([])
    expect(kept).toHaveLength(1)
    // The page drops the same three files (another order, other names): the sidecar's cells, no walk.
    const dropped3 = [file('permit.txt', 'p'), file('t2g.tsv', 't'), file('gene_names.tsv', 'g')]
    const { job } = await jobOf(dropped3)
    const hit = await runCellsJob({ ...job, kept }, noWalk)
    expect(hit.from).toBe('sidecar')
    const cli = JSON.parse(
      (await runCli(['stats', path, ...flags, '--permit-list', join(dir, 'permit.txt'), '--json'])).stdout,
    ) as Record<string, unknown>
    expect(hit.json).toEqual({
      cells: cli.cells,
      genes: cli.genes,
      permit: cli.permit,
      umi_duplication: cli.umi_duplication,
    })
    expect(hit.files.map((f) => f.kind)).toEqual(['permit-list', 't2g', 'gene-names'])
    // Without the permit list: another key, a walk.
    await expect(runCellsJob({ ...job, files: dropped3.slice(1), kept }, noWalk)).rejects.toThrow('the file was read')
    expect((await runCli(['index', path, '--t2g', join(dir, 't2g.tsv'), '--no-stats'])).stderr).toMatch(
      /drop --no-stats/,
    )
    expect((await runCli(['index', path, '--t2g', join(dir, 't2g.tsv'), '--cells-tsv'])).stderr).toMatch(
      /applies to stats/,
    )
  })
})
