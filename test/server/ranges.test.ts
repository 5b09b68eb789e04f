import { describe, expect, it } from 'vitest'
import { parseRange } from '../../src/server/ranges'

describe('parseRange (one range, RFC 9110 §14)', () => {
  const size = 1000

  it('reads the three single-range forms, clamping the end to the file', () => {
    expect(parseRange('bytes=0-9', size)).toEqual({ kind: 'span', span: { start: 0, end: 9 } })
    expect(parseRange('bytes=990-', size)).toEqual({ kind: 'span', span: { start: 990, end: 999 } })
    expect(parseRange('bytes=-10', size)).toEqual({ kind: 'span', span: { start: 990, end: 999 } })
    expect(parseRange('bytes=-5000', size)).toEqual({ kind: 'span', span: { start: 0, end: 999 } })
    expect(parseRange('bytes=500-99999', size)).toEqual({ kind: 'span', span: { start: 500, end: 999 } })
    expect(parseRange('bytes=999-999', size)).toEqual({ kind: 'span', span: { start: 999, end: 999 } })
    expect(parseRange('bytes=0-99999999999999999999999', size)).toEqual({ kind: 'span', span: { start: 0, end: 999 } })
  })

  it('sends the whole file without a header or for a unit it does not know', () => {
    expect(parseRange(undefined, size)).toEqual({ kind: 'whole' })
    expect(parseRange('items=0-9', size)).toEqual({ kind: 'whole' })
  })

  it('refuses (416) what it cannot answer with one span of this file', () => {
    for (const header of [
      'bytes=1000-',
      'bytes=1000-1001',
      'bytes=5-4',
      'bytes=-0',
      'bytes=-',
      'bytes=',
      'bytes=0-9,20-29',
      'bytes=a-b',
      'bytes=-1-2',
      'bytes=99999999999999999999999-',
    ]) {
      expect(parseRange(header, size), header).toEqual({ kind: 'unsatisfiable' })
    }
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' })
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' })
  })
})
