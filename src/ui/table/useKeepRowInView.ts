import { useEffect, useEffectEvent } from 'react'
import type { RefObject } from 'react'
import { ROW_HEIGHT } from './tableLayout'

/**
 * Keeps a row (the cursor's) in view when the table's view gets shorter, as when a panel above
 * it grows. The browser keeps scrollTop then, so a row near the bottom of the view, such as the
 * last record after End, would slip below it while still selected. Only a row that was wholly
 * in view before is kept, by the least scroll; `row` is its index among the table's rows
 * (undefined: none). A view scrolled to its bottom (the file's scrollbar dragged to its end, no
 * cursor) stays at its bottom.
 */
export function useKeepRowInView(scroller: RefObject<HTMLDivElement | null>, row: number | undefined): void {
  const rowNow = useEffectEvent(() => row)
  useEffect(() => {
    const el = scroller.current
    if (!el || typeof ResizeObserver === 'undefined') return
    let height = el.clientHeight
    const observer = new ResizeObserver(() => {
      const before = height
      height = el.clientHeight
      if (height >= before) return
      if (el.scrollTop + before >= el.scrollHeight - 1) {
        el.scrollTop = el.scrollHeight - height
        return
      }
      const r = rowNow()
      if (r === undefined) return
      // Row r spans [top, end) of the scroll content; the sticky header covers its first ROW_HEIGHT.
      const top = (r + 1) * ROW_HEIGHT
      const end = top + ROW_HEIGHT
      const wasInView = top >= el.scrollTop + ROW_HEIGHT && end <= el.scrollTop + before
      if (wasInView && end > el.scrollTop + height) el.scrollTop = end - height
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
    }
  }, [scroller])
}
