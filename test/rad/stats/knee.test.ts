/**
 * The knee (docs/stats.md "Knee"): hand-computed cases, and a reference
 * implementation transcribed from the algorithm in docs/stats.md, "Knee", compared on
 * random curves.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { expectCellsCutoff, forceCellsCutoff, kneeDistance, kneeIndex, runsOf } from '../../../src/rad/stats'

/**
 * The text, step by step, with plain arrays:
 * - sort reads per barcode descending and take the cumulative sum;
 * - normalise: x = rank / N, y = cumsum / total;
 * - pick the index farthest from the line through the first and last points;
 * - repeat on the prefix of length max(2, min(N, 5·index)) until the index stops moving, at most 100 rounds.
 * Ties between equally far points: the later index (as alevin-fry's `d >= max_d`).
 */
function referenceKnee(counts: number[]): number {
  const sorted = [...counts].sort((a, b) => b - a)
  const cum: number[] = []
  sorted.forEach((c, i) => cum.push(c + (i > 0 ? cum[i - 1]! : 0)))
  const farthest = (len: number): number => {
    const pts = cum.slice(0, len).map((c, i) => ({ x: i / len, y: c / cum[len - 1]! }))
    const p1 = pts[0]!
    const p2 = pts[len - 1]!
    let best = -1
    let at = 0
    pts.forEach((q, i) => {
      const d =
        Math.abs((p2.y - p1.y) * q.x - (p2.x - p1.x) * q.y + p2.x * p1.y - p2.y * p1.x) /
        Math.hypot(p2.y - p1.y, p2.x - p1.x)
      if (d >= best) {
        best = d
        at = i
      }
    })
    return at
  }
  let index = farthest(sorted.length)
  for (let round = 0; round < 100; round++) {
    const next = farthest(Math.max(2, Math.min(sorted.length, 5 * index)))
    if (next === index) break
    index = next
  }
  return index
}

describe('kneeDistance', () => {
  it('finds the hand-computed knee of three cells over seven ambient barcodes', () => {
    // cum = 100,200,300,301…307; y(2) = 300/307 = .977 while the line from (0, .326) to (.9, 1) is at .476 there:
    // index 2 is farthest (0.50 vs 0.25 at index 1 and 0.43 at index 3); the prefix of length 10 gives 2 again.
    const counts = [100, 100, 100, 1, 1, 1, 1, 1, 1, 1]
    expect(kneeIndex(counts)).toBe(2)
    expect(kneeDistance(counts)).toEqual({ index: 2, cells: 3, minCount: 100, readsShare: 300 / 307 })
  })

  it('keeps every barcode tied with the knee (alevin-fry keeps counts ≥ the knee rank)', () => {
    // Two points lie on their own line: both at distance 0, the later (index 1) wins; both have 5 records.
    expect(kneeDistance([5, 5])).toEqual({ index: 1, cells: 2, minCount: 5, readsShare: 1 })
  })

  it('narrows to the prefix: a later, smaller knee inside the first one', () => {
    const counts = [1000, 900, 800, 700, 600, ...Array<number>(20).fill(50), ...Array<number>(200).fill(1)]
    expect(kneeIndex(counts)).toBe(referenceKnee(counts))
  })

  it('has no knee below two barcodes or with no records', () => {
    expect(kneeDistance([])).toBeUndefined()
    expect(kneeDistance([7])).toBeUndefined()
    expect(kneeDistance([0, 0])).toBeUndefined()
  })

  it('agrees with the transcribed reference on random curves', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 2, maxLength: 300 }), (counts) => {
        const desc = [...counts].sort((a, b) => b - a)
        expect(kneeIndex(desc)).toBe(referenceKnee(counts))
      }),
      { numRuns: 300 },
    )
  })

  it('agrees with the reference on curves of long runs of equal counts, given as a list or as runs', () => {
    // Few distinct counts: the runs are long, and only their ends are looked at (knee.ts).
    const runsArb = fc.array(fc.tuple(fc.integer({ min: 1, max: 2000 }), fc.integer({ min: 1, max: 400 })), {
      minLength: 1,
      maxLength: 12,
    })
    fc.assert(
      fc.property(runsArb, (runs) => {
        const counts = runs.flatMap(([value, length]) => Array<number>(length).fill(value))
        fc.pre(counts.length >= 2)
        const desc = [...counts].sort((a, b) => b - a)
        expect(kneeIndex(desc)).toBe(referenceKnee(counts))
        expect(kneeIndex(runsOf(desc))).toBe(referenceKnee(counts))
      }),
      { numRuns: 300 },
    )
  })
})

describe('alevin-fry cut-offs', () => {
  const counts = [100, 100, 100, 1, 1, 1, 1, 1, 1, 1]

  it('--force-cells K keeps the K first ranks and their ties', () => {
    expect(forceCellsCutoff(counts, 2)).toMatchObject({ index: 1, cells: 3, minCount: 100 })
    expect(forceCellsCutoff(counts, 4)).toMatchObject({ index: 3, cells: 10, minCount: 1 })
    expect(forceCellsCutoff(counts, 50)).toMatchObject({ index: 9, cells: 10 })
  })

  it('--expect-cells E: threshold a tenth of the count at rank round(0.99·E)', () => {
    // E = 2: rank round(1.98) = 2, count 100, threshold 10: the three cells.
    expect(expectCellsCutoff(counts, 2)).toMatchObject({ index: 2, cells: 3, minCount: 10 })
    // E = 3: rank 3, count 1, threshold max(1, round(0.1)) = 1: everything.
    expect(expectCellsCutoff(counts, 3)).toMatchObject({ index: 3, cells: 10, minCount: 1 })
    expect(expectCellsCutoff([], 3)).toBeUndefined()
  })
})
