import { useEffect, useEffectEvent } from 'react'
import { helpKey, typingTarget } from './helpKeys'

/** `?` anywhere on the page (but in a text field) toggles the help panel; Escape closes it (helpKeys.ts). */
export function useHelpKeys(open: boolean, setOpen: (open: boolean) => void): void {
  const onKey = useEffectEvent((ev: KeyboardEvent) => {
    const next = helpKey(ev.key, open, typingTarget(ev.target), ev.ctrlKey || ev.altKey || ev.metaKey)
    if (next === undefined) return
    ev.preventDefault()
    // Closed from inside the panel, the focus goes back to its toggle rather than to the page.
    if (!next && document.getElementById('help-panel')?.contains(document.activeElement)) {
      document.querySelector<HTMLElement>('[aria-controls="help-panel"]')?.focus()
    }
    setOpen(next)
  })
  useEffect(() => {
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
    }
  }, [])
}
