/**
 * `rad stats A B C` (docs/stats.md, "Several files"): one JSON object per sample equal to each file's
 * own `--json`, the study table with `--tsv`, a bad file named while the others are counted, and
 * `--multiqc DIR` files that MultiQC 1.14 reads into one general-statistics row per sample with
 * the CLI's cells (when `multiqc` is installed: Debian's package).
 */
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, tempDir } from '../helpers/cli'
import { FIXTURES, SALMON_V3 } from '../helpers/fixtures'

const V2 = join(FIXTURES, 'rad-chromium-v2-small.rad')
const T2G = join(import.meta.dirname, '..', 'fixtures', 'annotations', 't2g.tsv')
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

/** Two runs laid out as simpleaf writes them: <sample>/af_map/map.rad. */
function runs(): string[] {
  return ['pbmc_a', 'pbmc_b'].map((sample, i) => {
    const folder = dir.path(join('study', sample, 'af_map'))
    mkdirSync(folder, { recursive: true })
    const rad = join(folder, 'map.rad')
    copyFileSync(i === 0 ? SALMON_V3 : V2, rad)
    return rad
  })
}

interface Sample {
  sample: string
  file: string
  records?: number
  knee?: number
  summary?: { cells: number }
  error?: string
}

describe('rad stats with several files', () => {
  it('--json: a sample per file, named by its run folder, each its own --json', async () => {
    const files = runs()
    const r = await runCli(['stats', ...files, '--t2g', T2G, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const { samples } = JSON.parse(r.stdout) as { samples: Sample[] }
    expect(samples.map((s) => s.sample)).toEqual(['pbmc_a', 'pbmc_b'])
    for (const [i, file] of files.entries()) {
      const own = JSON.parse((await runCli(['stats', file, '--t2g', T2G, '--json'])).stdout) as Record<string, unknown>
      expect(samples[i]).toEqual({ sample: samples[i]!.sample, file, ...own })
    }
  })

  it('--tsv: the study table; a file that is no RAD file is named, and the others are counted', async () => {
    const junk = dir.write('junk.rad', new TextEncoder().encode('not a RAD file at all'))
    const r = await runCli(['stats', SALMON_V3, junk, V2, '--tsv'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^junk: .*junk\.rad: /m)
    expect(r.stderr).toMatch(/1 file of 3 not counted/)
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
    expect(rows[0]!.slice(0, 5)).toEqual(['sample', 'file', 'records', 'barcodes', 'cells'])
    expect(rows.slice(1).map((row) => row[0])).toEqual(['rad-chromium-v3-small', 'junk', 'rad-chromium-v2-small'])
    const v3 = JSON.parse((await runCli(['stats', SALMON_V3, '--json'])).stdout) as { records: number; knee: number }
    expect(rows[1]!.slice(2, 5)).toEqual([String(v3.records), expect.any(String), String(v3.knee)])
    expect(rows[2]!.slice(2).every((v) => v === '')).toBe(true)
  })

  it('refuses --cells-tsv and --map-info with several files, in one line', async () => {
    const a = await runCli(['stats', SALMON_V3, V2, '--t2g', T2G, '--cells-tsv'])
    expect([a.code, a.stderr.trim()]).toEqual([1, '--cells-tsv takes one file'])
    const b = await runCli(['stats', SALMON_V3, V2, '--map-info', T2G])
    expect(b.code).toBe(1)
    expect(b.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('--multiqc DIR: custom content MultiQC reads, a row per sample with the CLI’s cells', async () => {
    const files = runs()
    const out = dir.path('mqc')
    const r = await runCli(['stats', ...files, '--t2g', T2G, '--multiqc', out, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const { samples } = JSON.parse(r.stdout) as { samples: Required<Sample>[] }
    const tsv = readFileSync(join(out, 'rad_stats_mqc.tsv'), 'utf8')
    expect(tsv).toMatch(/^# plot_type: 'generalstats'$/m)
    const table = tsv.split('\n').filter((l) => l !== '' && !l.startsWith('#'))
    expect(table[0]!.split('\t').slice(0, 3)).toEqual(['Sample', 'records', 'cells'])
    const rank = JSON.parse(readFileSync(join(out, 'rad_barcode_rank_mqc.json'), 'utf8')) as {
      plot_type: string
      data: Record<string, Record<string, number>>
    }
    expect(rank.plot_type).toBe('linegraph')
    expect(Object.keys(rank.data)).toEqual(['pbmc_a', 'pbmc_b'])
    if (!existsSync('/usr/bin/multiqc')) {
      console.warn('multiqc is not installed (apt-get install multiqc): its run over the folder is skipped')
      return
    }
    const report = dir.path('mqc-report')
    execFileSync('/usr/bin/multiqc', [out, '-o', report, '--quiet'], { encoding: 'utf8' })
    const general = readFileSync(join(report, 'multiqc_data', 'multiqc_general_stats.txt'), 'utf8')
    const [head, ...lines] = general
      .trim()
      .split('\n')
      .map((l) => l.split('\t'))
    const cellsAt = head!.findIndex((h) => h.endsWith('-cells'))
    expect(cellsAt).toBeGreaterThan(0)
    const got = new Map(lines.map((l) => [l[0]!, Number(l[cellsAt])]))
    expect(got).toEqual(new Map(samples.map((s) => [s.sample, s.summary.cells])))
  })
})
