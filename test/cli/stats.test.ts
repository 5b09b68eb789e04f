/**
 * `node bin/rad.mjs stats FILE [--json|--tsv]` (docs/stats.md): the JSON is
 * statsJson of the whole file, key for key; the TSV is MultiQC-friendly; exit
 * codes as validate (exitCodeOf).
 */
import { mkdirSync, readFileSync, readdirSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { createStatsAccumulator, statsJson } from '../../src/rad/stats'
import type { StatsJson } from '../../src/rad/stats'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { bulk } from '../helpers/assays'
import { radBytes } from '../helpers/radWriter'
import { readRad } from '../helpers/read'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

async function inProcess(bytes: Uint8Array): Promise<StatsJson> {
  const r = await readRad(bytes)
  const acc = createStatsAccumulator(r.prelude, r.sem)
  for (const c of r.chunks) acc.addChunk(c)
  return statsJson(acc.exportState(), r.prelude, r.sem)
}

describe.concurrent('rad stats', () => {
  it('--json: the contract, equal to the in-process figures', async () => {
    const r = await runCli(['stats', SALMON_V3, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const { summary, ...json } = JSON.parse(r.stdout) as StatsJson & { summary: unknown }
    expect(json).toEqual(await inProcess(new Uint8Array(readFileSync(SALMON_V3))))
    expect(summary).toMatchObject({ cells: json.knee, cutoff: 'knee' })
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining([
        'records',
        'alignments',
        'alignments_per_record',
        'orientation',
        'barcodes',
        'umis',
        'references',
        'knee',
        'exact',
      ]),
    )
    expect(json.records).toBe(18949)
    expect(json.alignments).toBe(36199)
    expect(json.barcodes?.top).toHaveLength(20)
    expect(json.references?.top.all).toHaveLength(20)
  })

  it('worker threads (each owning a range of the pairs) give the same JSON and TSV as the main thread alone', async () => {
    for (const format of ['--json', '--tsv']) {
      const one = await runCli(['stats', SALMON_V3, format], 30_000, { RAD_STATS_THREADS: '0' })
      const two = await runCli(['stats', SALMON_V3, format], 30_000, { RAD_STATS_THREADS: '2' })
      const three = await runCli(['stats', SALMON_V3, format], 30_000, { RAD_STATS_THREADS: '3' })
      expect(two.code, two.stderr).toBe(0)
      expect(two.stdout).toBe(one.stdout)
      expect(three.stdout).toBe(one.stdout)
    }
  })

  it('--tsv: barcode, reads, distinct UMIs, above-knee flag; the flagged rows are the knee', async () => {
    const r = await runCli(['stats', SALMON_V3, '--tsv'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines[0]).toBe('barcode\treads\tdistinct_umis\tabove_knee')
    const json = await inProcess(new Uint8Array(readFileSync(SALMON_V3)))
    expect(lines).toHaveLength(1 + (json.barcodes?.distinct ?? 0))
    expect(lines.filter((l) => l.endsWith('\t1'))).toHaveLength(json.knee ?? -1)
    const [bc, reads] = lines[1]!.split('\t')
    expect([bc, Number(reads)]).toEqual(json.barcodes?.top[0])
  })

  it('prints a short summary without flags', async () => {
    const r = await runCli(['stats', SALMON_V3])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^cells \(knee\): 58; mean reads per cell 326\.7; fraction of reads in cells 75\.9%\n/)
    expect(r.stdout).toMatch(/\nscRNA: 18,949 records, 36,199 alignments\n/)
    expect(r.stdout).toMatch(/\nknee: \d+ cells/)
  })

  it('bulk files: no barcodes, mapping types and fragment lengths', async () => {
    const path = dir.write('bulk.rad', radBytes(bulk(true)))
    const r = await runCli(['stats', path, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const { summary, ...json } = JSON.parse(r.stdout) as StatsJson & { summary: unknown }
    expect(json).toEqual(await inProcess(radBytes(bulk(true))))
    // No barcodes: no cells, nothing per cell; the summary is there, empty.
    expect(summary).toMatchObject({ cells: null, mean_reads_per_cell: null, alerts: [] })
    expect(json.barcodes).toBeNull()
    expect(json.frag_map_type).toHaveLength(5)
  })

  it('exit 1 for a damaged file (the figures of the intact chunks still print), and for a non-RAD file', async () => {
    const bytes = new Uint8Array(readFileSync(SALMON_V3))
    const cut = dir.write('cut.rad', bytes.subarray(0, bytes.length - 1000))
    const r = await runCli(['stats', cut, '--json'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error at byte \d+/m)
    expect((JSON.parse(r.stdout) as StatsJson).records).toBeLessThan(18949)
    const junk = dir.write('junk.rad', new Uint8Array(10))
    expect((await runCli(['stats', junk])).code).toBe(1)
  })
})

describe.concurrent('rad stats past its memory budget: spilled to a file in --tmp DIR, exact', () => {
  it('the same JSON and TSV on one thread and on three; nothing is left in the folder', async () => {
    const spillDir = dir.path('spill')
    mkdirSync(spillDir)
    for (const format of ['--json', '--tsv']) {
      const plain = await runCli(['stats', SALMON_V3, format])
      for (const threads of ['0', '3']) {
        const env = { RAD_STATS_BUDGET: '4096', RAD_STATS_PENDING: '3000', RAD_STATS_THREADS: threads }
        const spilled = await runCli(['stats', SALMON_V3, format, '--tmp', spillDir], 30_000, env)
        expect(spilled.code, spilled.stderr).toBe(0)
        expect(spilled.stdout).toBe(plain.stdout)
      }
    }
    expect(readdirSync(spillDir)).toEqual([])
  })

  it('names the folder when it cannot spill there; a run within its budget makes no spill file', async () => {
    const missing = dir.path('no-such-folder')
    for (const threads of ['0', '2']) {
      const env = { RAD_STATS_BUDGET: '4096', RAD_STATS_PENDING: '3000', RAD_STATS_THREADS: threads }
      const r = await runCli(['stats', SALMON_V3, '--json', '--tmp', missing], 30_000, env)
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(
        /^cannot spill the statistics to .*no-such-folder \(--tmp DIR chooses the folder\): ENOENT/,
      )
    }
    expect((await runCli(['stats', SALMON_V3, '--json', '--tmp', missing])).code).toBe(0)
  })

  it('--tmp is refused where nothing spills', async () => {
    const r = await runCli(['view', SALMON_V3, '--tmp', dir.path('')])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('--tmp applies to stats and index, not view\n')
  })
})
