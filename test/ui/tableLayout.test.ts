import { describe, expect, it } from 'vitest'
import { BEHIND, OVERSCAN, rowsToRender, scrollMotion } from '../../src/ui/tableLayout'

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
