import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { statsJsonProblem } from '../../src/rad/stats/statsJsonShape'
import { SALMON_V2, SALMON_V3 } from '../helpers/fixtures'
import { statsJsonOf } from '../helpers/statsOf'

describe('statsJsonProblem (statistics kept in a sidecar or the cache: docs/sidecar.md, "A sidecar is a claim")', () => {
  it('accepts what `rad stats --json` writes, for v2 and v3 files', async () => {
    for (const path of [SALMON_V2, SALMON_V3]) {
      const json = await statsJsonOf(new Uint8Array(readFileSync(path)))
      expect(statsJsonProblem(JSON.parse(JSON.stringify(json)))).toBeUndefined()
    }
  })

  it('names the first field of another shape, by its path', async () => {
    const json = await statsJsonOf(new Uint8Array(readFileSync(SALMON_V3)))
    expect(statsJsonProblem([])).toBe('it is a list, not an object')
    expect(statsJsonProblem({ ...json, records: '18949' })).toBe('records is a string, not a number')
    expect(statsJsonProblem({ ...json, chunks: undefined })).toBe('chunks is missing, not an object')
    expect(statsJsonProblem({ ...json, notes: [1] }, 'json')).toBe('json.notes[0] is a number, not a string')
    const top = [['ACGT', 'many']]
    expect(statsJsonProblem({ ...json, barcodes: { ...json.barcodes, top } })).toBe(
      'barcodes.top[0][1] is a string, not a number',
    )
    const levels = [{ tag: 'b0' }]
    expect(statsJsonProblem({ ...json, barcodes: { ...json.barcodes, levels } })).toBe(
      'barcodes.levels[0].distinct is missing, not a number',
    )
  })
})
