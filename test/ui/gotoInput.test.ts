import { describe, expect, it } from 'vitest'
import { readGoto } from '../../src/ui/gotoInput'

describe('readGoto', () => {
  it('accepts 0-based numbers below the limit, with thousands separators', () => {
    expect(readGoto('0', 'record', 10)).toEqual({ index: 0 })
    expect(readGoto(' 1,234 ', 'record', 2000)).toEqual({ index: 1234 })
    expect(readGoto('9', 'chunk', 10)).toEqual({ index: 9 })
  })

  it('says why invalid input is invalid', () => {
    const problem = (text: string, limit = 18949) => {
      const r = readGoto(text, 'record', limit)
      return 'problem' in r ? r.problem : undefined
    }
    expect(problem('')).toBe('Type a record number from 0 to 18,948.')
    expect(problem('abc')).toBe('“abc” is not a record number: use digits only, from 0 to 18,948.')
    expect(problem('-3')).toBe('Records are numbered from 0: type 0 to 18,948.')
    expect(problem('1.5')).toBe('“1.5” is not a whole number: type a record number from 0 to 18,948.')
    expect(problem('18949')).toBe('There are 18,949 records indexed: record numbers go from 0 to 18,948.')
    expect(problem('99999999999999999999')).toMatch(/is too large/)
    expect(problem('5', 0)).toBe('No records indexed yet.')
  })
})
