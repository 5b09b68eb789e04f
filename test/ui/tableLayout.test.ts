import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  BEHIND,
  OVERSCAN,
  WINDOW_RECORDS,
  makeLayout,
  rowsToRender,
  scrollMotion,
  windowFor,
} from '../../src/ui/tableLayout'
import type { TableItem, TableLayout } from '../../src/ui/tableLayout'

describe('rowsToRender', () => {
  const range = { startIndex: 100, endIndex: 117, overscan: OVERSCAN, count: 1000 }

  it('overscans both sides while the table is still', () => {
    const rows = rowsToRender(range, null)
    expect(rows[0]).toBe(100 - OVERSCAN)
    expect(rows.at(-1)).toBe(117 + OVERSCAN)
    expect(rows).toHaveLength(18 + 2 * OVERSCAN)
  })

  it('overscans ahead of the scroll and keeps BEHIND rows behind it', () => {
    expect(rowsToRender(range, 'forward')[0]).toBe(100 - BEHIND)
    expect(rowsToRender(range, 'forward').at(-1)).toBe(117 + OVERSCAN)
    expect(rowsToRender(range, 'backward')[0]).toBe(100 - OVERSCAN)
    expect(rowsToRender(range, 'backward').at(-1)).toBe(117 + BEHIND)
  })

  it('stays inside the rows there are and is contiguous', () => {
    const rows = rowsToRender({ startIndex: 0, endIndex: 5, overscan: OVERSCAN, count: 8 }, 'forward')
    expect(rows).toEqual([0, 1, 2, 3, 4, 5, 6, 7])
    expect(rowsToRender({ startIndex: 0, endIndex: 0, overscan: 0, count: 1 }, null)).toEqual([0])
  })

  it('renders nothing ahead of a scroll faster than a screen per event', () => {
    const rows = rowsToRender(range, 'jump')
    expect(rows[0]).toBe(100 - BEHIND)
    expect(rows.at(-1)).toBe(117 + BEHIND)
  })
})

describe('scrollMotion', () => {
  it('is null when still, the direction at reading speed, jump beyond a screen per event', () => {
    expect(scrollMotion(false, 'forward', 900, 500)).toBeNull()
    expect(scrollMotion(true, 'forward', 100, 500)).toBe('forward')
    expect(scrollMotion(true, 'backward', -100, 500)).toBe('backward')
    expect(scrollMotion(true, 'forward', 900, 500)).toBe('jump')
    expect(scrollMotion(true, 'backward', -900, 500)).toBe('jump')
  })
})

describe('windowFor', () => {
  it('centres the window on the record', () => {
    expect(windowFor(500_000, 1_000_000)).toBe(500_000 - WINDOW_RECORDS / 2)
    expect(windowFor(50, 1000, 10)).toBe(45)
  })

  it('stays inside the file at either end', () => {
    expect(windowFor(3, 1000, 10)).toBe(0)
    expect(windowFor(998, 1000, 10)).toBe(990)
    expect(windowFor(999, 1000, 10)).toBe(990)
    expect(windowFor(999_999, 1_000_000)).toBe(1_000_000 - WINDOW_RECORDS)
  })

  it('starts at 0 when the file is smaller than a window', () => {
    expect(windowFor(7, 8, 10)).toBe(0)
    expect(windowFor(0, 0, 10)).toBe(0)
  })

  it('always holds the record', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.nat(),
        (records, size, at) => {
          const record = at % records
          const start = windowFor(record, records, size)
          expect(start).toBeGreaterThanOrEqual(0)
          expect(record).toBeGreaterThanOrEqual(start)
          expect(record).toBeLessThan(start + size)
        },
      ),
      { seed: 0x7ab1e, numRuns: 300 },
    )
  })
})

/** The rows of a window, listed one by one: each record, then its alignments when expanded. */
function rowsByHand(windowStart: number, windowLength: number, expanded: ReadonlyMap<number, number>): TableItem[] {
  const rows: TableItem[] = []
  for (let record = windowStart; record < windowStart + windowLength; record++) {
    rows.push({ kind: 'record', record })
    const naln = expanded.get(record) ?? 0
    for (let alignment = 0; alignment < naln; alignment++) rows.push({ kind: 'alignment', record, alignment, naln })
  }
  return rows
}

function everyRow(layout: TableLayout): TableItem[] {
  return Array.from({ length: layout.count }, (_, i) => layout.itemAt(i))
}

describe('makeLayout', () => {
  it('one row per record when nothing is expanded', () => {
    const layout = makeLayout(100, 1000, new Map(), 10)
    expect(layout.windowLength).toBe(10)
    expect(layout.count).toBe(10)
    expect(everyRow(layout)).toEqual(rowsByHand(100, 10, new Map()))
    expect(layout.rowOf(100)).toBe(0)
    expect(layout.rowOf(109)).toBe(9)
  })

  it('a window at the end of the file holds only the records there are', () => {
    const layout = makeLayout(995, 1000, new Map(), 10)
    expect(layout.windowLength).toBe(5)
    expect(layout.count).toBe(5)
    expect(makeLayout(0, 0, new Map(), 10).count).toBe(0)
  })

  it('puts an expanded record’s alignments right below it and shifts the records after', () => {
    const expanded = new Map([
      [102, 3],
      [105, 1],
    ])
    const layout = makeLayout(100, 1000, expanded, 10)
    expect(layout.count).toBe(14)
    expect(layout.itemAt(2)).toEqual({ kind: 'record', record: 102 })
    expect(layout.itemAt(3)).toEqual({ kind: 'alignment', record: 102, alignment: 0, naln: 3 })
    expect(layout.itemAt(5)).toEqual({ kind: 'alignment', record: 102, alignment: 2, naln: 3 })
    expect(layout.itemAt(6)).toEqual({ kind: 'record', record: 103 })
    expect(layout.itemAt(9)).toEqual({ kind: 'alignment', record: 105, alignment: 0, naln: 1 })
    expect(layout.itemAt(13)).toEqual({ kind: 'record', record: 109 })
    expect(layout.rowOf(102)).toBe(2)
    expect(layout.rowOf(103)).toBe(6)
    expect(layout.rowOf(106)).toBe(10)
  })

  it('ignores expanded records outside the window', () => {
    const layout = makeLayout(
      100,
      1000,
      new Map([
        [50, 4],
        [110, 2],
        [104, 2],
      ]),
      10,
    )
    expect(layout.count).toBe(12)
    expect(everyRow(layout)).toEqual(rowsByHand(100, 10, new Map([[104, 2]])))
  })

  it('holds exactly the window’s records', () => {
    const layout = makeLayout(100, 105, new Map(), 10)
    expect([99, 100, 104, 105].map((r) => layout.holds(r))).toEqual([false, true, true, false])
  })

  it('matches the rows listed by hand, and rowOf finds each record’s row', () => {
    const arb = fc
      .record({ records: fc.integer({ min: 0, max: 60 }), size: fc.integer({ min: 1, max: 30 }), at: fc.nat() })
      .chain(({ records, size, at }) =>
        fc.record({
          records: fc.constant(records),
          size: fc.constant(size),
          windowStart: fc.constant(windowFor(records === 0 ? 0 : at % records, records, size)),
          expanded: fc.array(fc.tuple(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 1, max: 5 })), {
            maxLength: 12,
          }),
        }),
      )
    fc.assert(
      fc.property(arb, ({ records, size, windowStart, expanded }) => {
        const map = new Map(expanded)
        const layout = makeLayout(windowStart, records, map, size)
        const want = rowsByHand(windowStart, layout.windowLength, map)
        expect(layout.windowLength).toBe(Math.min(size, records - windowStart))
        expect(everyRow(layout)).toEqual(want)
        for (const [row, item] of want.entries()) {
          if (item.kind === 'record') expect(layout.rowOf(item.record)).toBe(row)
        }
      }),
      { seed: 0x1a407, numRuns: 300 },
    )
  })
})
