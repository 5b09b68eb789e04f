/**
 * `summary` in `rad stats --json` (docs/stats.md, "The summary"): each figure against its
 * definition, computed here from the rest of the JSON and from --cells-tsv; the alerts of a partial
 * t2g without gene names, of a permit list that misses, and of a low mapping rate read from the
 * map_info.json beside the file or given with --map-info.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'

const ANNOTATIONS = join(import.meta.dirname, '..', 'fixtures', 'annotations')
const T2G = join(ANNOTATIONS, 't2g.tsv')
const NAMES = join(ANNOTATIONS, 'gene_names.tsv')
const PERMIT = join(ANNOTATIONS, 'permit.txt')
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

interface Summary {
  cells: number | null
  cutoff: string | null
  mean_reads_per_cell: number | null
  fraction_reads_in_cells: number | null
  median_umis_per_cell: number | null
  median_genes_per_cell: number | null
  genes_detected: number | null
  valid_barcodes: number | null
  sequencing_saturation: number | null
  mapping_rate: number | null
  expected_ori: { suggested: string; disagreeing: number } | null
  alerts: { id: string; level: string; text: string }[]
}

interface Json {
  orientation: Record<string, number>
  records: number
  alignments: number
  umis: { sequencing_saturation: number }
  cutoffs: { knee: { cells: number; readsShare: number } }
  cells?: { count: number; umis: { median: number }; genes: { median: number } }
  genes?: { detected: number; unmapped_alignments: number; mito_genes: number }
  permit?: { exact: number; corrected: number; ambiguous: number; absent: number }
  summary: Summary
}

async function stats(args: string[]): Promise<{ json: Json; stderr: string }> {
  const r = await runCli(['stats', ...args, '--json'])
  expect(r.code, r.stderr).toBe(0)
  return { json: JSON.parse(r.stdout) as Json, stderr: r.stderr }
}

const ids = (s: Summary): string[] => s.alerts.map((a) => a.id)

describe('rad stats --json: summary', () => {
  it('without annotation files: the knee’s cells, their reads, the saturation; the t2g figures null', async () => {
    const { json } = await stats([SALMON_V3])
    const s = json.summary
    const knee = json.cutoffs.knee
    expect(s.cells).toBe(knee.cells)
    expect(s.cutoff).toBe('knee')
    expect(s.mean_reads_per_cell).toBeCloseTo(json.records / knee.cells, 9)
    expect(s.fraction_reads_in_cells).toBeCloseTo(knee.readsShare, 12)
    expect(s.sequencing_saturation).toBe(json.umis.sequencing_saturation)
    expect([s.median_umis_per_cell, s.median_genes_per_cell, s.genes_detected, s.valid_barcodes]).toEqual([
      null,
      null,
      null,
      null,
    ])
    expect(s.mapping_rate).toBeNull()
    // 85 % of the fixture's alignments are forward: fw, with the reverse ones disagreeing.
    const { fw = 0, rc = 0 } = json.orientation
    expect(s.expected_ori?.suggested).toBe('fw')
    expect(s.expected_ori?.disagreeing).toBeCloseTo(rc / (fw + rc), 12)
  })

  it('with a t2g, gene names and a permit list: each figure is its definition', async () => {
    const files = ['--t2g', T2G, '--gene-names', NAMES, '--permit-list', PERMIT]
    const { json, stderr } = await stats([SALMON_V3, ...files])
    const tsv = await runCli(['stats', SALMON_V3, ...files, '--cells-tsv'])
    const rows = tsv.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
    const readsInCells = rows.reduce((n, r) => n + Number(r[1]), 0)
    const s = json.summary
    const p = json.permit!
    expect(s.cells).toBe(rows.length)
    expect(s.cells).toBe(json.cells!.count)
    expect(s.mean_reads_per_cell).toBeCloseTo(json.records / rows.length, 9)
    expect(s.fraction_reads_in_cells).toBeCloseTo(readsInCells / json.records, 12)
    expect(s.median_umis_per_cell).toBe(json.cells!.umis.median)
    expect(s.median_genes_per_cell).toBe(json.cells!.genes.median)
    expect(s.genes_detected).toBe(json.genes!.detected)
    expect(s.valid_barcodes).toBeCloseTo((p.exact + p.corrected) / json.records, 12)
    expect(p.exact + p.corrected + p.ambiguous + p.absent).toBe(json.records)
    // The fixture's permit list holds 236 of its 564 barcodes: 63.7 % of records are valid.
    expect(ids(s)).toEqual(['low-valid-barcodes'])
    expect(stderr).toMatch(/^alert low-valid-barcodes: Only 63\.7% of records .*permit list/m)
  })

  it('a t2g that names half the references, without gene names: t2g-partial and no-mito-genes, said on stderr', async () => {
    const half = readFileSync(T2G, 'utf8')
      .split('\n')
      .filter((_, i) => i % 2 === 0)
      .join('\n')
    const t2g = dir.write('half.t2g.tsv', new TextEncoder().encode(half))
    const { json, stderr } = await stats([SALMON_V3, '--t2g', t2g])
    expect(json.genes!.unmapped_alignments / json.alignments).toBeGreaterThan(0.1)
    expect(json.genes!.mito_genes).toBe(0)
    expect(ids(json.summary)).toEqual(['t2g-partial', 'no-mito-genes'])
    expect(stderr).toMatch(/^alert t2g-partial: \d+\.\d% of alignments .*t2g/m)
    expect(stderr).toMatch(/^alert no-mito-genes: No gene label matches the mito pattern/m)
    const full = await stats([SALMON_V3, '--t2g', T2G, '--gene-names', NAMES])
    expect(full.json.genes!.mito_genes).toBeGreaterThan(0)
    expect(ids(full.json.summary)).toEqual([])
  })

  it('the mapping rate: map_info.json beside the file, aux_info/meta_info.json, or --map-info', async () => {
    const run = join(dir.path('af_map'))
    mkdirSync(run)
    const rad = join(run, 'map.rad')
    copyFileSync(SALMON_V3, rad)
    writeFileSync(join(run, 'map_info.json'), JSON.stringify({ num_processed: 1000, num_mapped: 400 }))
    const beside = await stats([rad])
    expect(beside.json.summary.mapping_rate).toBe(0.4)
    expect(ids(beside.json.summary)).toContain('low-mapping-rate')
    expect(beside.stderr).toMatch(/note: mapping rate from .*map_info\.json \(num_mapped \/ num_processed\)/)
    expect(beside.stderr).toMatch(/^alert low-mapping-rate: Only 40\.0% of reads mapped/m)

    const salmon = dir.path('salmon-run')
    mkdirSync(join(salmon, 'aux_info'), { recursive: true })
    copyFileSync(SALMON_V3, join(salmon, 'map.rad'))
    writeFileSync(join(salmon, 'aux_info', 'meta_info.json'), JSON.stringify({ percent_mapped: 91.5 }))
    const meta = await stats([join(salmon, 'map.rad')])
    expect(meta.json.summary.mapping_rate).toBeCloseTo(0.915, 12)
    expect(ids(meta.json.summary)).not.toContain('low-mapping-rate')

    const given = dir.write('run.json', new TextEncoder().encode('{"num_reads": 200, "num_mapped": 150}'))
    expect((await stats([SALMON_V3, '--map-info', given])).json.summary.mapping_rate).toBe(0.75)

    const bad = dir.write('bad.json', new TextEncoder().encode('{"seconds": 3}'))
    const refused = await runCli(['stats', SALMON_V3, '--map-info', bad, '--json'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)
    expect(refused.stderr).toContain(`${bad}: no mapping rate`)
    expect((await runCli(['view', SALMON_V3, '--map-info', given])).stderr).toMatch(/--map-info applies to stats/)
  })
})
