import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { kneeMarks, placeLabels } from '../../src/ui/statistics/kneeLabels'

const cutoff = (cells: number) => ({ index: cells - 1, cells, minCount: 3, readsShare: 0.5 })

describe('kneeMarks', () => {
  it('marks the knee, and the expect/force-cells cut-offs only once they are set', () => {
    expect(kneeMarks(58, undefined).map((m) => m.label)).toEqual(['knee 58'])
    expect(kneeMarks(58, { expect: cutoff(100), force: undefined }).map((m) => m.label)).toEqual([
      'knee 58',
      'expect-cells 100',
    ])
    expect(kneeMarks(undefined, { expect: undefined, force: cutoff(2000) }).map((m) => m.label)).toEqual([
      'force-cells 2,000',
    ])
  })
})

describe('placeLabels', () => {
  it('puts a label right of its line, or left of it at the plot’s right edge', () => {
    expect(placeLabels([{ x: 100, width: 40 }], 50, 340)).toEqual([{ left: 104, row: 0 }])
    expect(placeLabels([{ x: 320, width: 40 }], 50, 340)).toEqual([{ left: 276, row: 0 }])
  })

  it('moves a label that would overlap one before it to the next row', () => {
    // The cut-off at the knee on a 390 px phone: "cut-off" and "knee 58" on one line.
    const placed = placeLabels(
      [
        { x: 200, width: 36 },
        { x: 200, width: 44 },
        { x: 330, width: 60 },
      ],
      50,
      340,
    )
    expect(placed.map((p) => p.row)).toEqual([0, 1, 0])
  })

  it('never overlaps two labels nor leaves the plot', () => {
    const arb = fc.array(
      fc.record({ x: fc.integer({ min: 50, max: 340 }), width: fc.integer({ min: 10, max: 120 }) }),
      {
        maxLength: 6,
      },
    )
    fc.assert(
      fc.property(arb, (labels) => {
        const placed = placeLabels(labels, 50, 340)
        placed.forEach((p, i) => {
          const w = labels[i]?.width ?? 0
          expect(p.left).toBeGreaterThanOrEqual(50)
          expect(p.left + w).toBeLessThanOrEqual(340)
          placed.forEach((q, j) => {
            if (j <= i || q.row !== p.row) return
            const v = labels[j]?.width ?? 0
            expect(p.left + w <= q.left || q.left + v <= p.left).toBe(true)
          })
        })
      }),
      { seed: 0x20e, numRuns: 300 },
    )
  })
})
