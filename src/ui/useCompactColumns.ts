import { useEffect, useState } from 'react'
import type { RefObject } from 'react'

/**
 * True while the element is narrower than `fullWidth` px: the record table then shows its
 * essential columns only (tableColumns.ts `compact`). Hiding columns does not change the
 * element's own width, so the answer cannot oscillate.
 */
export function useCompactColumns(element: RefObject<HTMLElement | null>, fullWidth: number): boolean {
  const [compact, setCompact] = useState(false)
  useEffect(() => {
    const el = element.current
    if (!el) return
    const update = () => {
      setCompact(el.clientWidth < fullWidth)
    }
    update()
    const observer = new ResizeObserver(update)
    observer.observe(el)
    return () => {
      observer.disconnect()
    }
  }, [element, fullWidth])
  return compact
}
