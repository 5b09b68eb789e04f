import { useState } from 'react'
import { applyTheme, loadTheme, nextTheme, saveTheme } from './theme'
import type { ThemeChoice } from './theme'

const LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' }
const ICON: Record<ThemeChoice, string> = { system: '◐', light: '☀', dark: '☾' }

/** One button cycling the theme: system → light → dark (theme.ts); main.tsx applies the saved one at start. */
export function ThemeToggle() {
  const [choice, setChoice] = useState(loadTheme)
  const next = nextTheme(choice)
  return (
    <button
      type="button"
      className="btn theme-toggle"
      data-testid="theme-toggle"
      data-theme-choice={choice}
      aria-label={`Theme: ${LABEL[choice]}. Switch to ${LABEL[next]}`}
      title={`Theme: ${LABEL[choice]} (click for ${LABEL[next]})`}
      onClick={() => {
        applyTheme(next)
        saveTheme(next)
        setChoice(next)
      }}
    >
      <span aria-hidden="true">{ICON[choice]}</span> {LABEL[choice]}
    </button>
  )
}
