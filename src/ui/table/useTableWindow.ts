import { useVirtualizer } from '@tanstack/react-virtual'
import type { Virtualizer } from '@tanstack/react-virtual'
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { RefObject } from 'react'
import type { Align } from './tableKeys'
import { OVERSCAN, ROW_HEIGHT, WINDOW_RECORDS, makeLayout, rowPositionAt, windowFor } from './tableLayout'
import type { TableLayout } from './tableLayout'
import { useScrollMotion } from './useScrollMotion'

/** Scroll to a record after the window moved; `px` keeps the exact position when the window slides. */
interface PendingScroll {
  record: number
  align: Align
  px?: number
  rowsBelow?: number
}

/** Rows from either end of the window at which it slides (10% of it). */
const EDGE_ROWS = WINDOW_RECORDS / 10

export interface TableWindow {
  /** Which row is which in the current window (tableLayout.ts). */
  layout: TableLayout
  virtualizer: Virtualizer<HTMLDivElement, Element>
  /** Brings `record` (one of the file's records) into view, moving the window to it first if needed. */
  show: (record: number, align: Align) => void
  /** For the scroll event: slides the window when the view nears either end of it, keeping the exact position. */
  slideNearEdge: () => void
  /** Rows of the whole file, as if all were in one table (records and expanded alignment rows). */
  fileRows: number
  /** Where the table stands in the whole file's rows (px, like a scrollTop over them); undefined while the window moves. */
  contentTop: () => number | undefined
  /** Scrolls the table to `contentTop` px of the whole file's rows, moving the window there first if needed. */
  seek: (contentTop: number) => void
}

/**
 * The window of at most WINDOW_RECORDS records the table shows (tableLayout.ts says why), and
 * the virtualizer over its rows, with `expanded` records' alignment rows below them.
 */
export function useTableWindow(
  records: number,
  expanded: ReadonlyMap<number, number>,
  scroller: RefObject<HTMLDivElement | null>,
): TableWindow {
  const [windowStart, setWindowStart] = useState(0)
  const pending = useRef<PendingScroll | undefined>(undefined)
  const layout = useMemo(() => makeLayout(windowStart, records, expanded), [windowStart, records, expanded])
  // The same rows over the whole file: where the window starts in them, and what a file scrollbar position shows.
  const file = useMemo(() => makeLayout(0, records, expanded, records), [records, expanded])
  const windowTopRow = useMemo(() => file.rowOf(windowStart), [file, windowStart])
  const motion = useScrollMotion()
  const virtualizer = useVirtualizer({
    count: layout.count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    ...motion,
    // The sticky header row sits above the rows.
    scrollMargin: ROW_HEIGHT,
    scrollPaddingStart: ROW_HEIGHT,
  })

  const show = useCallback(
    (record: number, align: Align) => {
      if (layout.holds(record)) {
        scrollToRow(virtualizer, scroller.current, layout.rowOf(record), align)
      } else {
        pending.current = { record, align }
        setWindowStart(windowFor(record, records))
      }
    },
    [records, layout, virtualizer, scroller],
  )

  // After the window moves, put the wanted record where it belongs.
  useLayoutEffect(() => {
    const wanted = pending.current
    const el = scroller.current
    if (!wanted || !el || !layout.holds(wanted.record)) return
    pending.current = undefined
    const row = layout.rowOf(wanted.record) + (wanted.rowsBelow ?? 0)
    if (wanted.px !== undefined) el.scrollTop = row * ROW_HEIGHT + wanted.px
    else scrollToRow(virtualizer, el, row, wanted.align)
  }, [layout, virtualizer, scroller])

  const slideNearEdge = () => {
    const el = scroller.current
    if (!el || pending.current) return
    const topRow = Math.floor(el.scrollTop / ROW_HEIGHT)
    const viewRows = el.clientHeight / ROW_HEIGHT
    const nearEnd = topRow + viewRows > layout.count - EDGE_ROWS && layout.windowStart + layout.windowLength < records
    const nearStart = topRow < EDGE_ROWS && layout.windowStart > 0
    if (!nearEnd && !nearStart) return
    const item = layout.itemAt(Math.min(topRow, layout.count - 1))
    const start = windowFor(item.record, records)
    if (Math.abs(start - layout.windowStart) < EDGE_ROWS) return
    pending.current = {
      record: item.record,
      align: 'start',
      px: el.scrollTop - topRow * ROW_HEIGHT,
      rowsBelow: item.kind === 'alignment' ? item.alignment + 1 : 0,
    }
    setWindowStart(start)
  }

  const contentTop = () => {
    const el = scroller.current
    if (!el || pending.current) return undefined
    return windowTopRow * ROW_HEIGHT + el.scrollTop
  }

  const seek = (top: number) => {
    const el = scroller.current
    if (!el || file.count === 0) return
    const at = rowPositionAt(top)
    const item = file.itemAt(Math.min(at.row, file.count - 1))
    const rowsBelow = item.kind === 'alignment' ? item.alignment + 1 : 0
    if (layout.holds(item.record)) {
      // A window move asked for by an earlier seek is no longer wanted.
      pending.current = undefined
      setWindowStart(layout.windowStart)
      el.scrollTop = (layout.rowOf(item.record) + rowsBelow) * ROW_HEIGHT + at.px
      return
    }
    pending.current = { record: item.record, align: 'start', px: at.px, rowsBelow }
    setWindowStart(windowFor(item.record, records))
  }

  return { layout, virtualizer, show, slideNearEdge, fileRows: file.count, contentTop, seek }
}

/**
 * virtualizer.scrollToIndex with the view's height read now. The virtualizer learns it from a
 * ResizeObserver, a frame or more late: when a panel above the table grows just before a jump
 * (as the statistics panel once did when a file was opened), 'end' would stop short by the difference
 * and leave the last row hidden below the view (e2e/navigate.spec.ts, End).
 */
function scrollToRow(
  virtualizer: Virtualizer<HTMLDivElement, Element>,
  el: HTMLDivElement | null,
  row: number,
  align: Align,
): void {
  if (el) virtualizer.scrollRect = { width: el.clientWidth, height: el.clientHeight }
  virtualizer.scrollToIndex(row, { align })
}
