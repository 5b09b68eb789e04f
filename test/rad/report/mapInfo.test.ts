import { describe, expect, it } from 'vitest'
import { parseMapInfo } from '../../../src/rad/report/mapInfo'
import { planFolder, mapInfoOf, runFileRole } from '../../../src/ui/open/dropPlan'

describe('parseMapInfo: the mapping rate of salmon’s and piscem’s run statistics', () => {
  it('reads num_mapped / num_processed, num_reads, or percent_mapped', () => {
    expect(parseMapInfo('{"num_processed": 1000, "num_mapped": 900}', 'm.json')).toEqual({
      mappingRate: 0.9,
      from: 'num_mapped / num_processed',
    })
    expect(parseMapInfo('{"num_reads": 4, "num_mapped": 1}', 'm.json').mappingRate).toBe(0.25)
    expect(parseMapInfo('{"percent_mapped": 87.5}', 'meta_info.json').mappingRate).toBe(0.875)
  })

  it('names the file and what it expected when there is no rate, or no JSON', () => {
    expect(() => parseMapInfo('{"seconds": 3}', 'run/map_info.json')).toThrow(
      /^run\/map_info\.json: no mapping rate \(expected num_mapped and num_processed/,
    )
    expect(() => parseMapInfo('{"num_processed": 10, "num_mapped": 11}', 'x.json')).toThrow(/no mapping rate/)
    expect(() => parseMapInfo('[1]', 'x.json')).toThrow(/x\.json: not a JSON object/)
    expect(() => parseMapInfo('{', 'x.json')).toThrow(/x\.json: not JSON/)
  })
})

describe('a dropped mapping run: its files said for what they are', () => {
  const file = (path: string, size = 10): { path: string; file: File } => ({
    path,
    file: new File([new Uint8Array(size)], path.split('/').pop()!),
  })

  it('unmapped_bc_count.bin is a run file, neither an annotation nor a RAD file to offer', () => {
    const plan = planFolder('af_map', [file('map.rad', 1000), file('unmapped_bc_count.bin'), file('t2g.tsv')])
    expect(plan.runFiles.map((f) => f.path)).toEqual(['unmapped_bc_count.bin'])
    expect(plan.annotations.map((f) => f.name)).toEqual(['t2g.tsv'])
    expect(runFileRole('af_map/map_info.json')).toMatch(/piscem/)
    expect(runFileRole('notes.txt')).toBeUndefined()
  })

  it('an annotation file too large to be one is named with why, not dropped silently; 320 MiB is read', () => {
    const mid = new File([], 'mid.t2g.tsv')
    Object.defineProperty(mid, 'size', { value: 320 << 20 })
    expect(planFolder('run', [file('map.rad', 1000), { path: 'mid.t2g.tsv', file: mid }]).annotations).toEqual([mid])
    const big = new File([], 'big.t2g.tsv')
    Object.defineProperty(big, 'size', { value: 3 * 2 ** 30 })
    const plan = planFolder('run', [file('map.rad', 1000), { path: 'big.t2g.tsv', file: big }])
    expect(plan.annotations).toEqual([])
    expect(plan.skipped.map((f) => f.path)).toEqual(['big.t2g.tsv'])
    expect(plan.skipped[0]?.why).toMatch(/over 2 GiB, more than any annotation file unpacks to/)
  })

  it('the mapping rate comes from map_info.json, else a meta_info.json that says it', () => {
    const meta = { path: 'aux_info/meta_info.json', text: '{"percent_mapped": 50}' }
    const piscem = { path: 'map_info.json', text: '{"num_processed": 10, "num_mapped": 9}' }
    expect(mapInfoOf([meta, piscem])?.mappingRate).toBe(0.9)
    expect(mapInfoOf([meta])?.mappingRate).toBe(0.5)
    expect(mapInfoOf([{ path: 'aux_info/meta_info.json', text: '{"salmon_version": "1.10"}' }])).toBeUndefined()
  })
})
