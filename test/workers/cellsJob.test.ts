/** The page's cells pass (runCellsJob, the cells worker's work) equals the CLI's figures on the fixture. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { barcodesAtLeast, createStatsAccumulator } from '../../src/rad/stats'
import { chooseCutoff, DEFAULT_MITO } from '../../src/rad/cells'
import { runCellsJob } from '../../src/workers/cellsJob'
import { runCli } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
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
