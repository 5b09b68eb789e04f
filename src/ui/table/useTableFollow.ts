import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react'
import type { RefObject } from 'react'
import type { VirtualItem } from '@tanstack/react-virtual'
import type { RadSession } from '../../session'
import { fmtCount } from '../format'
import { clampRecord } from './tableKeys'
import type { Align } from './tableKeys'
import { rowsInView } from './tableLayout'
import type { TableItem, TableLayout } from './tableLayout'

export interface JumpRequest {
  record: number
  /** Changes on every request, so asking twice for the same record still jumps. */
  seq: number
  /** A record to expand once its chunk is decoded (a deep link's `open`). */
  open?: number
}

/** Where the view is, for the page address (useSessionLink.ts). */
export interface ViewPosition {
  record: number
  chunk: number
  /** The record expanded last, if any. */
  open: number | undefined
}

/**
 * Moves the table to each new jump request (`go` changes whenever the index grows; only a new
 * request jumps). Returns the record the request asks to expand, until it is opened.
 */
export function useJumps(
  jump: JumpRequest | undefined,
  go: (record: number, align: Align) => void,
  scroller: RefObject<HTMLDivElement | null>,
): RefObject<number | undefined> {
  const pendingOpen = useRef<number | undefined>(undefined)
  const jumpTo = useEffectEvent((request: JumpRequest) => {
    pendingOpen.current = request.open
    go(request.record, 'center')
    // When the panels above push the table below the fold (app.css, .app), the page scrolls to it.
    scroller.current?.scrollIntoView({ block: 'nearest' })
  })
  useEffect(() => {
    if (jump) jumpTo(jump)
  }, [jump])
  return pendingOpen
}

export interface TableCursor {
  /** The record the keyboard is on. */
  cursor: number
  setCursor: (record: number) => void
  /** Moves the cursor to a record and brings it into view. */
  go: (record: number, align: Align) => void
  /** The record a jump request asks to expand, until it is opened. */
  pendingOpen: RefObject<number | undefined>
}

/** The table's cursor, moved by keys, clicks and jump requests (`show` brings a record into view). */
export function useTableCursor(
  records: number,
  show: (record: number, align: Align) => void,
  jump: JumpRequest | undefined,
  scroller: RefObject<HTMLDivElement | null>,
): TableCursor {
  const [cursor, setCursor] = useState(0)
  const go = useCallback(
    (record: number, align: Align) => {
      if (records === 0) return
      const target = clampRecord(record, records)
      setCursor(target)
      show(target, align)
    },
    [records, show],
  )
  const pendingOpen = useJumps(jump, go, scroller)
  return { cursor, setCursor, go, pendingOpen }
}

/** Asks the session for the chunks on screen first and their neighbours next; returns the first item drawn. */
export function useWantVisibleChunks(
  session: RadSession,
  layout: TableLayout,
  items: readonly VirtualItem[],
): TableItem | undefined {
  const { index } = session
  const firstItem = items[0] ? layout.itemAt(items[0].index) : undefined
  const lastVisible = items.at(-1)
  const lastItem = lastVisible ? layout.itemAt(lastVisible.index) : undefined
  const firstChunk = firstItem ? index.chunkOf(firstItem.record) : -1
  const lastChunk = lastItem ? index.chunkOf(lastItem.record) : -1
  useEffect(() => {
    if (firstChunk < 0 || lastChunk < 0) return
    const visible: number[] = []
    for (let k = firstChunk; k <= lastChunk && visible.length < 256; k++) visible.push(k)
    session.want(visible, [lastChunk + 1, firstChunk - 1, lastChunk + 2])
  }, [session, firstChunk, lastChunk])
  return firstItem
}

export interface ViewSpan {
  firstShown: number
  lastShown: number
  cursorInView: boolean
  /** The chunk the view is in: the cursor's while it is in view, else the top record's. */
  viewChunk: number
}

/**
 * The records in view. The footer and the chunk list follow the view: the cursor's record
 * while it is in view, else the top one (`onCursorChunk`).
 */
export function useViewSpan(
  session: RadSession,
  layout: TableLayout,
  view: { scrollTop: number; height: number },
  cursor: number,
  onCursorChunk: (chunk: number) => void,
): ViewSpan {
  const inView = rowsInView(view.scrollTop, view.height, layout.count)
  const firstShown = inView.last >= inView.first ? layout.itemAt(inView.first).record : cursor
  const lastShown = inView.last >= inView.first ? layout.itemAt(inView.last).record : cursor
  const cursorInView = cursor >= firstShown && cursor <= lastShown
  const viewChunk = session.index.chunkOf(cursorInView ? cursor : firstShown)
  useEffect(() => {
    onCursorChunk(viewChunk)
  }, [viewChunk, onCursorChunk])
  return { firstShown, lastShown, cursorInView, viewChunk }
}

/** Tells the page address where the view is (record, chunk, the record expanded last). */
export function useReportView(
  records: number,
  span: ViewSpan,
  cursor: number,
  expanded: ReadonlyMap<number, number>,
  onView: ((view: ViewPosition) => void) | undefined,
): void {
  const lastOpened = [...expanded.keys()].at(-1)
  const viewRecord = span.cursorInView ? cursor : span.firstShown
  const { viewChunk } = span
  useEffect(() => {
    if (records > 0) onView?.({ record: viewRecord, chunk: Math.max(0, viewChunk), open: lastOpened })
  }, [records, viewRecord, viewChunk, lastOpened, onView])
}

/** The footer's line: the cursor's record while it is in view, else the records in view; and the chunk. */
export function viewSummary(cursor: number, span: ViewSpan): string {
  const chunk = fmtCount(Math.max(0, span.viewChunk))
  return span.cursorInView
    ? `Record ${fmtCount(cursor)} · chunk ${chunk}`
    : `Records ${fmtCount(span.firstShown)}–${fmtCount(span.lastShown)} · chunk ${chunk}`
}
