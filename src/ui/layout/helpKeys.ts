/** What a key press does to the help panel: `?` toggles it, Escape closes it. */

/** The element a key was typed in takes text (or is inside a dialog with its own Escape): the keys are not ours. */
export function typingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  if (target.closest('dialog')) return true
  if (target instanceof HTMLElement && target.isContentEditable) return true
  return target.matches('input, textarea, select')
}

/**
 * The help panel's state after `key` (KeyboardEvent.key) while it is `open`, or undefined when the
 * key is not about help: `?` toggles it, Escape closes it, never while typing or with Ctrl, Alt or ⌘.
 */
export function helpKey(key: string, open: boolean, typing: boolean, modified: boolean): boolean | undefined {
  if (typing || modified) return undefined
  if (key === '?') return !open
  if (key === 'Escape' && open) return false
  return undefined
}
