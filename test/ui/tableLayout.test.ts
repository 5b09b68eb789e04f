import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  BEHIND,
  OVERSCAN,
  ROW_HEIGHT,
  SCROLLBAR_LIMIT_PX,
  WINDOW_RECORDS,
  barTopFor,
  contentTopFor,
  makeLayout,
  revealRowsTop,
  rowsBelow,
  rowPositionAt,
  rowsInView,
  rowsToRender,
  scrollMotion,
  scrollScale,
  subRow,
  windowFor,
} from '../../src/ui/table/tableLayout'
import type { TableItem, TableLayout } from '../../src/ui/table/tableLayout'

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

/** The records a table of `records` records (with `expanded` ones) shows when the file scrollbar is at `barTop`. */
function shownAt(barTop: number, records: number, expanded: ReadonlyMap<number, number>, view: number) {
  const file = makeLayout(0, records, expanded, records)
  const scale = scrollScale(file.count, view)
  const inView = rowsInView(contentTopFor(barTop, scale), view, file.count)
  return { first: file.itemAt(inView.first).record, last: file.itemAt(inView.last).record, scale, file }
}

describe('the file scrollbar (scrollScale, barTopFor, contentTopFor)', () => {
  const view = 800
  const none = new Map<number, number>()

  it('is the table’s own scrollbar while the rows fit under the browser’s limit', () => {
    const scale = scrollScale(500_000, view)
    expect(scale.bar).toBe(scale.content)
    for (const top of [0, 1234.5, scale.content - view]) {
      expect(barTopFor(top, scale)).toBe(top)
      expect(contentTopFor(top, scale)).toBe(top)
    }
  })

  it.each([757_960, 47_000_000, 100_000_000])('stands for all of %i records: top, middle and bottom', (records) => {
    const top = shownAt(0, records, none, view)
    expect(top.scale.bar).toBeLessThanOrEqual(SCROLLBAR_LIMIT_PX)
    expect(top.first).toBe(0)
    const max = top.scale.bar - view
    const bottom = shownAt(max, records, none, view)
    expect(bottom.last).toBe(records - 1)
    expect(bottom.last - bottom.first).toBe(Math.floor((view - 1.5 * ROW_HEIGHT) / ROW_HEIGHT))
    const middle = shownAt(max / 2, records, none, view)
    const mid = Math.floor(records / 2)
    expect(middle.first).toBeLessThanOrEqual(mid)
    expect(middle.last).toBeGreaterThanOrEqual(mid)
  })

  it('counts expanded records’ alignment rows: the bottom is the last record’s last alignment', () => {
    const records = 100_000_000
    const expanded = new Map([
      [0, 3],
      [50_000_000, 40],
      [records - 1, 5],
    ])
    const bottom = shownAt(scrollScale(records + 48, view).bar - view, records, expanded, view)
    expect(bottom.file.count).toBe(records + 48)
    expect(bottom.last).toBe(records - 1)
    expect(bottom.file.itemAt(bottom.file.count - 1)).toEqual({
      kind: 'alignment',
      record: records - 1,
      alignment: 4,
      naln: 5,
    })
  })

  it('round-trips record → scrollTop → record, to within the rows one pixel of bar stands for', () => {
    for (const records of [757_960, 47_000_000, 100_000_000]) {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: records - 1 }),
          fc.array(fc.tuple(fc.integer({ min: 0, max: records - 1 }), fc.integer({ min: 1, max: 50 })), {
            maxLength: 8,
          }),
          (record, expandedList) => {
            const expanded = new Map(expandedList)
            const file = makeLayout(0, records, expanded, records)
            const scale = scrollScale(file.count, view)
            const contentTop = Math.min(file.rowOf(record) * ROW_HEIGHT, scale.content - view)
            // The browser keeps whole pixels of scrollTop.
            const barTop = Math.round(barTopFor(contentTop, scale))
            const back = contentTopFor(barTop, scale)
            const rowsPerPx = scale.content / scale.bar / ROW_HEIGHT
            expect(Math.abs(back - contentTop) / ROW_HEIGHT).toBeLessThanOrEqual(rowsPerPx)
            expect(Math.abs(contentTopFor(barTopFor(contentTop, scale), scale) - contentTop)).toBeLessThan(1e-3)
            // The row back at the top is the record's row (the last screenful's top for the last
            // records), or one as many rows away as a pixel of bar stands for.
            const row = rowPositionAt(back).row
            expect(Math.abs(row - rowPositionAt(contentTop).row)).toBeLessThanOrEqual(Math.ceil(rowsPerPx))
            if (contentTop === file.rowOf(record) * ROW_HEIGHT) {
              expect(rowPositionAt(contentTop).row).toBe(file.rowOf(record))
            }
          },
        ),
        { seed: 0x5c2011, numRuns: 100 },
      )
    }
  })

  it('is empty when the rows fit in the view', () => {
    const scale = scrollScale(10, view)
    expect(barTopFor(100, scale)).toBe(0)
    expect(contentTopFor(100, scale)).toBe(0)
  })
})

describe('rowsInView', () => {
  it('counts rows more than half visible below the sticky header', () => {
    // Header [0, 28) of the view; row i at [28 + 28i, 56 + 28i) of the content.
    expect(rowsInView(0, 28 * 11, 1000)).toEqual({ first: 0, last: 9 })
    expect(rowsInView(13, 28 * 11, 1000)).toEqual({ first: 0, last: 9 })
    expect(rowsInView(15, 28 * 11, 1000)).toEqual({ first: 1, last: 10 })
    expect(rowsInView(28 * 995, 28 * 11, 1000)).toEqual({ first: 995, last: 999 })
    expect(rowsInView(0, 28 * 11, 0).last).toBeLessThan(0)
  })
})

describe('rowPositionAt', () => {
  it('splits a content offset into a row and the pixels past its top', () => {
    expect(rowPositionAt(0)).toEqual({ row: 0, px: 0 })
    expect(rowPositionAt(28 * 5 + 3)).toEqual({ row: 5, px: 3 })
    expect(rowPositionAt(28 * 99_999_999)).toEqual({ row: 99_999_999, px: 0 })
  })
})

describe('subRow', () => {
  it('lists the read tags without a column first, one a row, then the alignments', () => {
    expect(subRow(0, 4, 2)).toEqual({ kind: 'tag', tag: 0 })
    expect(subRow(1, 4, 2)).toEqual({ kind: 'tag', tag: 1 })
    expect(subRow(2, 4, 2)).toEqual({ kind: 'alignment', alignment: 0, naln: 2 })
    expect(subRow(3, 4, 2)).toEqual({ kind: 'alignment', alignment: 1, naln: 2 })
    expect(subRow(0, 2, 0)).toEqual({ kind: 'alignment', alignment: 0, naln: 2 })
  })

  it('adds the tag rows to every expanded record’s alignment rows', () => {
    const expanded = new Map([
      [3, 2],
      [9, 0],
    ])
    expect(rowsBelow(expanded, 0)).toBe(expanded)
    expect([...rowsBelow(expanded, 3)]).toEqual([
      [3, 5],
      [9, 3],
    ])
  })
})

describe('revealRowsTop', () => {
  // A view of the header and ten rows.
  const view = 11 * ROW_HEIGHT

  it('scrolls the last row on screen up just enough to show the rows below it', () => {
    // Row 9 is the last one in view; its 3 rows below need 3 rows more.
    expect(revealRowsTop(9, 3, 0, view)).toBe(3 * ROW_HEIGHT)
  })

  it('keeps the expanded row itself in view when its rows are more than the view holds', () => {
    expect(revealRowsTop(9, 50, 0, view)).toBe(9 * ROW_HEIGHT)
  })

  it('does not scroll when the rows already show, nor back up', () => {
    expect(revealRowsTop(2, 3, 0, view)).toBeUndefined()
    expect(revealRowsTop(9, 3, 5 * ROW_HEIGHT, view)).toBeUndefined()
  })
})
