import { useEffect, useRef } from 'react'
import type { MouseEvent } from 'react'

/**
 * A little longer than the usual double-click interval (Windows' default is 500 ms, most systems
 * use 400–500 ms; people who double-click copy do it faster than this).
 */
const DOUBLE_CLICK_MS = 300

/** A pointer that moved farther than this between press and release was selecting text, not clicking. */
const DRAG_PX = 4

/** Cells whose text people copy: a click there waits to see whether it becomes a double-click. */
const COPY_CELL = '.seq'

function copyCell(target: EventTarget): HTMLElement | null {
  return target instanceof Element ? target.closest<HTMLElement>(COPY_CELL) : null
}

function selectAndCopy(cell: HTMLElement): void {
  const selection = window.getSelection()
  selection?.selectAllChildren(cell)
  const text = cell.textContent
  // Clipboard access needs a secure context and may be refused: the selection stays for Ctrl+C.
  if (text) navigator.clipboard.writeText(text).catch(() => undefined)
}

/**
 * Row click handlers that leave copying alone: a double-click on a barcode/UMI selects and copies
 * it without expanding the row, and a press-drag-release that selects text does nothing.
 */
export function useRowClick(onClick: () => void): {
  onMouseDown: (ev: MouseEvent) => void
  onClick: (ev: MouseEvent) => void
  onDoubleClick: (ev: MouseEvent) => void
} {
  const pending = useRef<number | undefined>(undefined)
  const pressedAt = useRef<{ x: number; y: number } | undefined>(undefined)
  const clear = () => {
    window.clearTimeout(pending.current)
    pending.current = undefined
  }
  useEffect(() => clear, [])
  const dragged = (ev: MouseEvent): boolean => {
    const at = pressedAt.current
    return at !== undefined && Math.hypot(ev.clientX - at.x, ev.clientY - at.y) > DRAG_PX
  }
  return {
    onMouseDown: (ev) => {
      pressedAt.current = { x: ev.clientX, y: ev.clientY }
    },
    onClick: (ev) => {
      if (ev.detail > 1 || dragged(ev)) return
      if (copyCell(ev.target) === null) {
        onClick()
        return
      }
      clear()
      pending.current = window.setTimeout(() => {
        pending.current = undefined
        onClick()
      }, DOUBLE_CLICK_MS)
    },
    onDoubleClick: (ev) => {
      const cell = copyCell(ev.target)
      if (cell === null) return
      clear()
      selectAndCopy(cell)
    },
  }
}
