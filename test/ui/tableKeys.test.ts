import { describe, expect, it } from 'vitest'
import { clampRecord, expansionKey, keyMove, pageRows } from '../../src/ui/table/tableKeys'
import { ROW_HEIGHT } from '../../src/ui/table/tableLayout'

/** A view 20 rows high: a page key moves 18 records. */
const VIEW = 20 * ROW_HEIGHT

describe('keyMove', () => {
  it('moves one record with the arrows and a screenful less two with the page keys', () => {
    expect(keyMove('ArrowDown', 5, 100, VIEW)).toEqual({ record: 6, align: 'auto' })
    expect(keyMove('ArrowUp', 5, 100, VIEW)).toEqual({ record: 4, align: 'auto' })
    expect(keyMove('PageDown', 5, 100, VIEW)).toEqual({ record: 23, align: 'auto' })
    expect(keyMove('PageUp', 50, 100, VIEW)).toEqual({ record: 32, align: 'auto' })
  })

  it('goes to either end with Home and End, each shown at its edge of the view', () => {
    expect(keyMove('Home', 50, 100, VIEW)).toEqual({ record: 0, align: 'start' })
    expect(keyMove('End', 50, 100, VIEW)).toEqual({ record: 99, align: 'end' })
  })

  it('stops at the first and the last record', () => {
    expect(keyMove('ArrowUp', 0, 100, VIEW)?.record).toBe(0)
    expect(keyMove('ArrowDown', 99, 100, VIEW)?.record).toBe(99)
    expect(keyMove('PageUp', 3, 100, VIEW)?.record).toBe(0)
    expect(keyMove('PageDown', 95, 100, VIEW)?.record).toBe(99)
    expect(keyMove('End', 0, 1, VIEW)?.record).toBe(0)
  })

  it('pages by one record in a view too small for a page', () => {
    expect(keyMove('PageDown', 5, 100, 0)?.record).toBe(6)
    expect(keyMove('PageUp', 5, 100, 2 * ROW_HEIGHT)?.record).toBe(4)
  })

  it('pages by the rows of another list when given their height (the chunk list)', () => {
    expect(keyMove('PageDown', 0, 100, 10 * 24, 24)).toEqual({ record: 8, align: 'auto' })
    expect(keyMove('ArrowDown', 0, 100, 10 * 24, 24)).toEqual({ record: 1, align: 'auto' })
  })

  it('leaves other keys, and an empty table, alone', () => {
    for (const key of ['Enter', ' ', 'a', 'ArrowLeft', 'Tab', 'toString', 'constructor']) {
      expect(keyMove(key, 5, 100, VIEW)).toBeUndefined()
    }
    for (const key of ['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End']) {
      expect(keyMove(key, 0, 0, VIEW)).toBeUndefined()
    }
  })
})

describe('expansionKey', () => {
  it('expands with → and collapses with ←, whatever the state (the treegrid pattern)', () => {
    for (const expanded of [false, true]) {
      expect(expansionKey('ArrowRight', expanded)).toBe(true)
      expect(expansionKey('ArrowLeft', expanded)).toBe(false)
    }
  })

  it('toggles with Enter and Space', () => {
    expect(expansionKey('Enter', false)).toBe(true)
    expect(expansionKey('Enter', true)).toBe(false)
    expect(expansionKey(' ', false)).toBe(true)
    expect(expansionKey(' ', true)).toBe(false)
  })

  it('leaves the navigation keys and others alone', () => {
    for (const key of ['ArrowDown', 'ArrowUp', 'PageDown', 'Home', 'End', 'a', 'Tab', 'toString']) {
      expect(expansionKey(key, false)).toBeUndefined()
    }
  })
})

describe('pageRows and clampRecord', () => {
  it('counts whole rows in the view, less two, at least one', () => {
    expect(pageRows(VIEW)).toBe(18)
    expect(pageRows(VIEW + ROW_HEIGHT - 1)).toBe(18)
    expect(pageRows(3 * ROW_HEIGHT)).toBe(1)
    expect(pageRows(0)).toBe(1)
  })

  it('keeps a record number inside the file', () => {
    expect(clampRecord(-3, 10)).toBe(0)
    expect(clampRecord(4, 10)).toBe(4)
    expect(clampRecord(10, 10)).toBe(9)
  })
})
