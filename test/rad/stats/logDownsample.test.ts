import { describe, expect, it } from 'vitest'
import { logDownsample, logRanks, pointAtRank } from '../../../src/rad/stats/logDownsample'

describe('logRanks', () => {
  it('keeps every small rank, the last rank and the ranks asked for, sorted and unique', () => {
    const r = logRanks(1_000_000, 200, [12_345, 0, 2_000_000])
    expect(r[0]).toBe(1)
    expect(r.slice(0, 10)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(r[r.length - 1]).toBe(1_000_000)
    expect(r).toContain(12_345)
    expect(new Set(r).size).toBe(r.length)
    for (let i = 1; i < r.length; i++) expect(r[i]).toBeGreaterThan(r[i - 1] ?? 0)
    expect(r.length).toBeLessThanOrEqual(201)
  })

  it('is empty for an empty curve and [1] for one barcode', () => {
    expect(logRanks(0, 100)).toEqual([])
    expect(logRanks(1, 100)).toEqual([1])
  })
})

describe('logDownsample', () => {
  it('samples counts and exact cumulative reads at each kept rank', () => {
    const desc = [50, 40, 30, 20, 10, 5, 5, 1, 1, 1]
    const c = logDownsample(desc, 4, [6])
    expect(c.total).toBe(163)
    expect(c.barcodes).toBe(10)
    const ranks = [...c.rank]
    expect(ranks).toContain(1)
    expect(ranks).toContain(6)
    expect(ranks).toContain(10)
    for (let i = 0; i < ranks.length; i++) {
      const r = ranks[i] ?? 0
      expect(c.count[i]).toBe(desc[r - 1])
      expect(c.cumulative[i]).toBe(desc.slice(0, r).reduce((a, b) => a + b, 0))
    }
  })

  it('thins 10 million barcodes to the point budget, with exact sums (its speed is in the bench)', () => {
    const n = 10_000_000
    const desc = new Uint32Array(n)
    for (let i = 0; i < n; i++) desc[i] = Math.max(1, Math.floor(1e6 / (i + 1)))
    // Speed lives in the benchmarks (no timed unit test): here the figures of a 10M-barcode curve.
    const c = logDownsample(desc, 2000)
    let sum = 0
    for (let i = 0; i < n; i++) sum += desc[i] as number
    expect(c.total).toBe(sum)
    const at = c.rank.length - 1
    expect(c.cumulative[at]).toBe(sum)
    expect(c.count[at]).toBe(desc[n - 1])
    expect(c.rank.length).toBeLessThanOrEqual(2001)
    expect(c.rank[c.rank.length - 1]).toBe(n)
  })
})

describe('pointAtRank', () => {
  it('snaps to the drawn point at or just below a rank', () => {
    const c = logDownsample([9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1, 1], 12)
    expect(pointAtRank(c, 0.5)).toBe(0)
    expect(c.rank[pointAtRank(c, 5)]).toBe(5)
    expect(c.rank[pointAtRank(c, 100)]).toBe(12)
  })
})
