import { describe, expect, it } from 'vitest'
import { fmtCounted } from '../../src/ui/format'
import { readGoto, waitingText } from '../../src/ui/table/gotoInput'

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

describe('readGoto while the file is indexed', () => {
  it('waits for a number past the records indexed so far, rather than refusing it', () => {
    expect(readGoto('25000', 'record', 18949, true)).toEqual({ index: 25000, wait: true })
    expect(readGoto('3', 'chunk', 0, true)).toEqual({ index: 3, wait: true })
    expect(readGoto('12', 'record', 18949, true)).toEqual({ index: 12 })
    expect(readGoto('abc', 'record', 18949, true)).toHaveProperty('problem')
  })

  it('says it waits, with the count so far pluralised', () => {
    expect(waitingText('record', 25000, 18949)).toBe(
      'Record 25,000 is not indexed yet (18,949 records so far): going there once it is…',
    )
    expect(waitingText('chunk', 4, 1)).toBe('Chunk 4 is not indexed yet (1 chunk so far): going there once it is…')
  })
})

describe('fmtCounted', () => {
  it('names one thing in the singular and the rest in the plural', () => {
    expect(fmtCounted(1, 'chunk')).toBe('1 chunk')
    expect(fmtCounted(0, 'chunk')).toBe('0 chunks')
    expect(fmtCounted(18949, 'record')).toBe('18,949 records')
    expect(fmtCounted(1, 'match', 'matches')).toBe('1 match')
    expect(fmtCounted(2, 'match', 'matches')).toBe('2 matches')
  })
})
