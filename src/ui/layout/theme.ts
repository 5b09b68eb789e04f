/**
 * The colour theme: follow the system (prefers-color-scheme), or light or dark as chosen with
 * the theme toggle. The choice is remembered in localStorage; this module is the only one that
 * touches that key. app.css reads `data-theme` on <html> (absent = follow the system).
 */

export type ThemeChoice = 'system' | 'light' | 'dark'

export const THEME_KEY = 'rad-viewer.theme'
const ORDER: readonly ThemeChoice[] = ['system', 'light', 'dark']

/** The subset of Web Storage used here (localStorage in the page). */
export type ThemeStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export function parseTheme(stored: string | null): ThemeChoice {
  return stored === 'light' || stored === 'dark' ? stored : 'system'
}

/** The toggle cycles system → light → dark → system. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(choice) + 1) % ORDER.length] ?? 'system'
}

/** localStorage, or undefined where the browser refuses it (storage disabled, sandboxed frames). */
function pageStorage(): ThemeStorage | undefined {
  try {
    return globalThis.localStorage
  } catch {
    return undefined
  }
}

export function loadTheme(storage: ThemeStorage | undefined = pageStorage()): ThemeChoice {
  try {
    return parseTheme(storage?.getItem(THEME_KEY) ?? null)
  } catch {
    return 'system'
  }
}

export function saveTheme(choice: ThemeChoice, storage: ThemeStorage | undefined = pageStorage()): void {
  try {
    if (choice === 'system') storage?.removeItem(THEME_KEY)
    else storage?.setItem(THEME_KEY, choice)
  } catch {
    // A full or disabled storage: the choice lasts for this page only.
  }
}

/** Sets or clears `data-theme` on the root element. */
export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === 'system') delete root.dataset.theme
  else root.dataset.theme = choice
}
