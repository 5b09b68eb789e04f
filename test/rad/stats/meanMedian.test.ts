/**
 * meanMedian finds the median by counting (small integers) or selection (figures.ts), not by sorting: it must give
 * what sorting gives, on odd and even lengths, with ties (counts of 1 are most barcodes) and
 * with the order of the input left as it was.
 */
import { describe, expect, it } from 'vitest'
import { meanMedian } from '../../../src/rad/stats/json'

function sortedMedian(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

describe('meanMedian', () => {
  it('gives the sorted median on every length from 1 to 300, with and without ties', () => {
    let seed = 12345
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0)
    for (let n = 1; n <= 300; n++) {
      for (const spread of [3, 1000, 2 ** 31]) {
        const values = Array.from({ length: n }, () => 1 + (next() % spread))
        const input = Float64Array.from(values)
        const mm = meanMedian(input)
        expect(mm.median, `n ${String(n)}, spread ${String(spread)}`).toBe(sortedMedian(values))
        expect(mm.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / n, 6)
        expect([...input]).toEqual(values)
      }
    }
  })

  it('handles sorted, reversed and constant inputs and none at all', () => {
    const up = Float64Array.from({ length: 100_001 }, (_, i) => i)
    expect(meanMedian(up).median).toBe(50_000)
    expect(meanMedian(up.slice().reverse()).median).toBe(50_000)
    expect(meanMedian(new Float64Array(1000).fill(7)).median).toBe(7)
    expect(meanMedian(Float64Array.of(1, 1, 1, 2)).median).toBe(1)
    expect(meanMedian(new Float64Array(0))).toEqual({ mean: 0, median: 0 })
  })
})
