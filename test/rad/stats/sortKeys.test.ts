/** The radix sort of two-word keys (interleaved) against a comparison sort: empty, one key, shared digits, wide values. */
import { describe, expect, it } from 'vitest'
import { sortKeys } from '../../../src/rad/stats/sortKeys'

function reference(hi: Uint32Array, lo: Uint32Array, n: number): [number, number][] {
  return Array.from({ length: n }, (_, i): [number, number] => [hi[i]!, lo[i]!]).sort(
    (a, b) => a[0] - b[0] || a[1] - b[1],
  )
}

function sorted(hi: Uint32Array, lo: Uint32Array, n: number): [number, number][] {
  const keys = new Uint32Array(2 * hi.length)
  hi.forEach((h, i) => {
    keys[2 * i] = h
    keys[2 * i + 1] = lo[i]!
  })
  const s = sortKeys(keys, n)
  return Array.from({ length: n }, (_, i): [number, number] => [s[2 * i]!, s[2 * i + 1]!])
}

describe('sortKeys', () => {
  it('sorts by hi, then lo, whatever digits the keys share', () => {
    let seed = 7
    const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0)
    const cases: [string, () => [number, number]][] = [
      ['random', () => [next() >>> 8, next() >>> 1]],
      ['one barcode', () => [0x123456, next() >>> 8]],
      ['one UMI', () => [next() >>> 8, 42]],
      ['a shared middle digit', () => [(next() & 0xf000ff) | 0x000a00, (next() & 0xff00ff) | 0x00ab00]],
      ['full words', () => [next(), next()]],
    ]
    for (const [, make] of cases) {
      for (const n of [0, 1, 2, 1000, 20_000]) {
        const hi = new Uint32Array(n)
        const lo = new Uint32Array(n)
        for (let i = 0; i < n; i++) [hi[i], lo[i]] = make()
        expect(sorted(hi, lo, n)).toEqual(reference(hi, lo, n))
      }
    }
  })

  it('sorts only the first n keys', () => {
    const hi = Uint32Array.of(3, 1, 2, 0)
    const lo = Uint32Array.of(0, 0, 0, 0)
    expect(sorted(hi, lo, 3)).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
    ])
  })
})
