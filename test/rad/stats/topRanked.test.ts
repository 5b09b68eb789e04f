import { describe, expect, it } from 'vitest'
import { topRanked } from '../../../src/rad/stats'

/** A small deterministic generator, so a failure can be replayed. */
function lcg(seed: number): () => number {
  let s = seed >>> 0
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0)
}

describe('topRanked', () => {
  it('an order on indices gives the same list as the text order, ties by key ascending', () => {
    const next = lcg(7)
    const n = 5000
    const values = Uint32Array.from({ length: n }, () => next() & 0xffff)
    const counts = Uint32Array.from({ length: n }, () => 1 + (next() % 3))
    const text = (i: number) => values[i]!.toString(4).padStart(8, '0')
    const byText = topRanked(n, (i) => counts[i]!, text, 20)
    const byValue = topRanked(
      n,
      (i) => counts[i]!,
      text,
      20,
      (i, j) => values[i]! - values[j]!,
    )
    expect(byValue).toEqual(byText)
    expect(byText.every(([, c]) => c === 3)).toBe(true)
    const keys = byText.map(([k]) => k)
    expect(keys).toEqual([...keys].sort())
  })

  it('makes text for the kept entries only', () => {
    let made = 0
    const text = (i: number) => {
      made++
      return String(i).padStart(6, '0')
    }
    topRanked(
      100_000,
      () => 1,
      text,
      20,
      (i, j) => i - j,
    )
    expect(made).toBe(20)
  })
})
