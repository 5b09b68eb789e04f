import { describe, expect, it } from 'vitest'
import { helpKey } from '../../src/ui/layout/helpKeys'

describe('helpKey', () => {
  it('? toggles the help, Escape closes it', () => {
    expect(helpKey('?', false, false, false)).toBe(true)
    expect(helpKey('?', true, false, false)).toBe(false)
    expect(helpKey('Escape', true, false, false)).toBe(false)
  })

  it('leaves other keys, Escape with the help closed, typing and shortcuts alone', () => {
    expect(helpKey('Escape', false, false, false)).toBeUndefined()
    expect(helpKey('h', false, false, false)).toBeUndefined()
    expect(helpKey('?', false, true, false)).toBeUndefined()
    expect(helpKey('Escape', true, true, false)).toBeUndefined()
    expect(helpKey('?', false, false, true)).toBeUndefined()
  })
})
