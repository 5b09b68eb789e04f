import { describe, expect, it } from 'vitest'
import { alignmentRowIndex, recordRowId, recordRowIndex, tableRowCount } from '../../src/ui/table/tableAria'

describe('the record table rows for assistive technology', () => {
  it('numbers the header 1 and record n n + 2 when nothing is expanded', () => {
    const none = new Map<number, number>()
    expect(recordRowIndex(0, none)).toBe(2)
    expect(recordRowIndex(41, none)).toBe(43)
    expect(tableRowCount(100, none)).toBe(101)
  })

  it('counts the alignment rows of the records expanded before a row', () => {
    // Record 3 shows 2 alignments, record 10 shows 5.
    const expanded = new Map([
      [10, 5],
      [3, 2],
    ])
    expect(recordRowIndex(3, expanded)).toBe(5)
    expect(alignmentRowIndex(3, 0, expanded)).toBe(6)
    expect(alignmentRowIndex(3, 1, expanded)).toBe(7)
    expect(recordRowIndex(4, expanded)).toBe(8)
    expect(recordRowIndex(10, expanded)).toBe(14)
    expect(alignmentRowIndex(10, 4, expanded)).toBe(19)
    expect(recordRowIndex(11, expanded)).toBe(20)
    expect(tableRowCount(12, expanded)).toBe(20)
  })

  it('gives every record row its own id under a prefix', () => {
    expect(recordRowId(':r1:', 7)).toBe(':r1:-record-7')
    expect(recordRowId(':r1:', 7)).not.toBe(recordRowId(':r1:', 70))
  })
})
