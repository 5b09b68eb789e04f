import { describe, expect, it } from 'vitest'
import { THEME_KEY, loadTheme, nextTheme, parseTheme, saveTheme } from '../../src/ui/layout/theme'
import type { ThemeStorage } from '../../src/ui/layout/theme'

/** A Web Storage stand-in over a Map (vitest runs in Node, without localStorage). */
function memoryStorage(): ThemeStorage & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => {
      map.set(k, v)
    },
    removeItem: (k) => {
      map.delete(k)
    },
  }
}

describe('theme preference', () => {
  it('reads only light and dark; anything else follows the system', () => {
    expect(parseTheme('light')).toBe('light')
    expect(parseTheme('dark')).toBe('dark')
    expect(parseTheme(null)).toBe('system')
    expect(parseTheme('DARK')).toBe('system')
  })

  it('cycles system → light → dark → system', () => {
    expect(nextTheme('system')).toBe('light')
    expect(nextTheme('light')).toBe('dark')
    expect(nextTheme('dark')).toBe('system')
  })

  it('remembers a choice, and forgets it when back to system', () => {
    const storage = memoryStorage()
    saveTheme('dark', storage)
    expect(storage.map.get(THEME_KEY)).toBe('dark')
    expect(loadTheme(storage)).toBe('dark')
    saveTheme('system', storage)
    expect(storage.map.has(THEME_KEY)).toBe(false)
    expect(loadTheme(storage)).toBe('system')
  })

  it('follows the system when storage throws or is missing', () => {
    const refusing: ThemeStorage = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
      removeItem: () => undefined,
    }
    expect(loadTheme(refusing)).toBe('system')
    expect(() => {
      saveTheme('dark', refusing)
    }).not.toThrow()
    expect(loadTheme(undefined)).toBe('system')
  })
})
