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

  it('thins 10 million barcodes to the point budget at the speed of one summing loop (~10 ms when the machine is quiet)', () => {
    const n = 10_000_000
    const desc = new Uint32Array(n)
    for (let i = 0; i < n; i++) desc[i] = Math.max(1, Math.floor(1e6 / (i + 1)))
    // Best of 5 against a bare sum of the same array, both warmed: this machine is shared, so the
    // bound is relative (≤ 2× one loop) with an absolute ceiling far under the 100 ms the plot may take.
    let ms = Infinity
    let loop = Infinity
    let c = logDownsample(desc, 2000)
    for (let run = 0; run < 5; run++) {
      let t = performance.now()
      c = logDownsample(desc, 2000)
      ms = Math.min(ms, performance.now() - t)
      t = performance.now()
      let sum = 0
      for (let i = 0; i < n; i++) sum += desc[i] as number
      loop = Math.min(loop, performance.now() - t)
      expect(sum).toBe(c.total)
    }
    expect(c.rank.length).toBeLessThanOrEqual(2001)
    expect(c.rank[c.rank.length - 1]).toBe(n)
    expect(ms).toBeLessThan(Math.max(2 * loop, 20))
    expect(ms).toBeLessThan(250)
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
