import { describe, expect, it } from 'vitest'
import { formatLink, hasPosition, parseLink, sameLink } from '../../src/ui/persist/deepLink'

describe('parseLink', () => {
  it('reads a hand-written record, with or without the #', () => {
    expect(parseLink('#record=1234567')).toEqual({ record: 1234567 })
    expect(parseLink('record=5')).toEqual({ record: 5 })
    expect(parseLink('#record=1,234,567')).toEqual({ record: 1234567 })
  })

  it('reads every key', () => {
    expect(parseLink('#fp=100-abc&record=7&chunk=2&open=7&panel=help&filter=umi%3DACGT%20%26%20x')).toEqual({
      fp: '100-abc',
      record: 7,
      chunk: 2,
      open: 7,
      panel: 'help',
      filter: 'umi=ACGT & x',
    })
  })

  it('drops unknown keys, bad numbers, empty values and malformed escapes; the last repeat wins', () => {
    expect(parseLink('#x=1&record=-3&chunk=1.5&open=&panel=%E0%A4%A&fp')).toEqual({})
    expect(parseLink('#record=99999999999999999999')).toEqual({})
    expect(parseLink('#record=1&record=2')).toEqual({ record: 2 })
    expect(parseLink('')).toEqual({})
    expect(parseLink('#')).toEqual({})
  })
})

describe('formatLink', () => {
  it('writes keys in a fixed order, URL-encoded, and nothing for an empty state', () => {
    expect(formatLink({ open: 7, record: 7, fp: 'a b' })).toBe('#fp=a%20b&record=7&open=7')
    expect(formatLink({ filter: 'umi=A&B' })).toBe('#filter=umi%3DA%26B')
    expect(formatLink({})).toBe('')
    expect(formatLink({ panel: '' })).toBe('')
  })

  it('round-trips through parseLink', () => {
    const state = {
      fp: '5242880-9f86d081884c7d65',
      record: 1234567,
      chunk: 42,
      open: 1234567,
      panel: 'help',
      filter: 'a=b&c',
    }
    expect(parseLink(formatLink(state))).toEqual(state)
    expect(sameLink(state, { ...state })).toBe(true)
    expect(sameLink(state, { ...state, record: 1 })).toBe(false)
  })
})

describe('hasPosition', () => {
  it('is true for a record, a chunk or an expanded record only', () => {
    expect(hasPosition({ record: 0 })).toBe(true)
    expect(hasPosition({ chunk: 3 })).toBe(true)
    expect(hasPosition({ open: 1 })).toBe(true)
    expect(hasPosition({ fp: 'x', panel: 'help' })).toBe(false)
  })
})
