/**
 * "Save the valid part" (docs/integrity.md) in process: planSalvage on damaged files
 * keeps the prelude and every intact chunk byte for byte, drops the damaged
 * ones, corrects num_chunks, and the result reads clean.
 */
import { describe, expect, it } from 'vitest'
import { loadZstd } from '../helpers/radWriter'
import { expectSalvaged, salvageBytes, salvageCases } from '../helpers/salvageCases'

await loadZstd()
const cases = salvageCases()

describe('planSalvage', () => {
  it.each(cases)('$name', async (c) => {
    const { plan, out, before } = await salvageBytes(c.input)
    expect(plan.keptChunks).toBe(c.kept.length)
    expect(plan.droppedChunks).toEqual(c.dropped)
    expect(plan.keptRecords).toBe(c.kept.reduce((n, k) => n + (c.chunks[k]?.nrec ?? 0), 0))
    // Ranges are input positions, merged where contiguous, in file order.
    const flat = plan.ranges.flat()
    expect(flat).toEqual([...flat].sort((a, b) => a - b))
    for (let i = 1; i < plan.ranges.length; i++) {
      expect(plan.ranges[i]?.[0]).toBeGreaterThan(plan.ranges[i - 1]?.[1] ?? Infinity)
    }
    expect(before.scan.convention).toBe(c.convention)
    await expectSalvaged(c, out)
  })

  it('a clean file is one range from the first chunk to the end', async () => {
    const c = cases.find((x) => x.name.startsWith('a clean file'))
    if (!c) throw new Error('no clean case')
    const { plan } = await salvageBytes(c.input)
    expect(plan.ranges).toEqual([[c.firstChunkOffset, c.input.length]])
    expect(plan.bytes).toBe(c.input.length)
  })
})
