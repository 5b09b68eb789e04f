import { useEffect, useState } from 'react'
import type { RefObject } from 'react'

/**
 * How many optional columns the record table drops to fit the element: the first k whose layout's
 * minimum width (`minWidths[k]`, tableColumns.ts `layouts`) fits, else all of them. Dropping
 * columns does not change the element's own width, so the answer cannot oscillate.
 */
export function useCompactColumns(element: RefObject<HTMLElement | null>, minWidths: readonly number[]): number {
  const [dropped, setDropped] = useState(0)
  const key = minWidths.join(' ')
  useEffect(() => {
    const el = element.current
    if (!el) return
    const widths = key.split(' ').map(Number)
    const update = () => {
      const fits = widths.findIndex((w) => el.clientWidth >= w)
      setDropped(fits < 0 ? Math.max(0, widths.length - 1) : fits)
    }
    update()
    const observer = new ResizeObserver(update)
    observer.observe(el)
    return () => {
      observer.disconnect()
    }
  }, [element, key])
  return dropped
}
