import { useVirtualizer } from '@tanstack/react-virtual'
import type { Range } from '@tanstack/react-virtual'
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { CSSProperties, KeyboardEvent } from 'react'
import type { Semantics } from '../rad/semantics'
import type { Prelude } from '../rad/types'
import type { RadSession } from '../workers/client'
import { AlignmentRow } from './AlignmentRow'
import { fmtCount } from './format'
import { RecordRow } from './RecordRow'
import { recordColumns } from './tableColumns'
import { OVERSCAN, ROW_HEIGHT, WINDOW_RECORDS, makeLayout, rowsToRender, scrollMotion, windowFor } from './tableLayout'
import type { ScrollMotion } from './tableLayout'
import { useDataVersion } from './useRadSession'
import { WindowBar } from './WindowBar'

export interface JumpRequest {
  record: number
  /** Changes on every request, so asking twice for the same record still jumps. */
  seq: number
}

interface Props {
  session: RadSession
  prelude: Prelude
  semantics: Semantics
  records: number
  jump: JumpRequest | undefined
  onCursorChunk: (chunk: number) => void
}

type Align = 'start' | 'center' | 'end' | 'auto'

/** Scroll to a record after the window moved; `px` keeps the exact position when the window slides. */
interface PendingScroll {
  record: number
  align: Align
  px?: number
  rowsBelow?: number
}

/** Rows from either end of the window at which it slides (10% of it). */
const EDGE_ROWS = WINDOW_RECORDS / 10

/**
 * The records, one row per read (virtualized, fixed row height, windowed: see
 * tableLayout.ts). Asks the session for the chunks on screen first and their
 * neighbours next. Keyboard: arrows, PageUp/PageDown, Home/End, Enter expands.
 */
export const RecordTable = memo(function RecordTable({
  session,
  prelude,
  semantics,
  records,
  jump,
  onCursorChunk,
}: Props) {
  useDataVersion(session)
  const { index } = session
  const [windowStart, setWindowStart] = useState(0)
  const [expanded, setExpanded] = useState<ReadonlyMap<number, number>>(() => new Map())
  const [cursor, setCursor] = useState(0)
  const pending = useRef<PendingScroll | undefined>(undefined)
  const scroller = useRef<HTMLDivElement>(null)
  const columns = useMemo(() => {
    const c = recordColumns(prelude, semantics)
    // Set once on the scroller and inherited by every row, rather than parsed in each row's style.
    const vars: CSSProperties & Record<`--${string}`, string> = {
      '--row-columns': c.template,
      '--row-min-width': c.minWidth,
    }
    return { ...c, vars }
  }, [prelude, semantics])
  const layout = useMemo(() => makeLayout(windowStart, records, expanded), [windowStart, records, expanded])

  // Overscan ahead of the scroll, not behind it (tableLayout.ts); set after the render that
  // started or ended a scroll, so at most one frame renders with the previous choice.
  const [motion, setMotion] = useState<ScrollMotion>(null)
  // setState with an unchanged value still re-renders the table once after a commit: call it only on a change.
  const motionSet = useRef<ScrollMotion>(null)
  const lastOffset = useRef(0)
  const rangeExtractor = useCallback((range: Range) => rowsToRender(range, motion), [motion])

  const virtualizer = useVirtualizer({
    count: layout.count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    rangeExtractor,
    onChange: (v) => {
      const offset = v.scrollOffset ?? 0
      const next = scrollMotion(
        v.isScrolling,
        v.scrollDirection,
        offset - lastOffset.current,
        v.scrollRect?.height ?? 0,
      )
      lastOffset.current = offset
      if (next !== motionSet.current) {
        motionSet.current = next
        setMotion(next)
      }
    },
    scrollMargin: ROW_HEIGHT,
    scrollPaddingStart: ROW_HEIGHT,
  })
  const items = virtualizer.getVirtualItems()

  const go = useCallback(
    (record: number, align: Align) => {
      if (records === 0) return
      const r = Math.max(0, Math.min(records - 1, record))
      setCursor(r)
      if (r < layout.windowStart || r >= layout.windowStart + layout.windowLength) {
        pending.current = { record: r, align }
        setWindowStart(windowFor(r, records))
      } else {
        virtualizer.scrollToIndex(layout.rowOf(r), { align })
      }
    },
    [records, layout, virtualizer],
  )

  // After the window moves, put the wanted record where it belongs.
  useLayoutEffect(() => {
    const p = pending.current
    const el = scroller.current
    if (!p || !el || p.record < layout.windowStart || p.record >= layout.windowStart + layout.windowLength) return
    pending.current = undefined
    const row = layout.rowOf(p.record) + (p.rowsBelow ?? 0)
    if (p.px !== undefined) el.scrollTop = row * ROW_HEIGHT + p.px
    else virtualizer.scrollToIndex(row, { align: p.align })
  }, [layout, virtualizer])

  useEffect(() => {
    if (jump) go(jump.record, 'center')
    // Only a new request jumps; `go` changes whenever the index grows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jump])

  // Visible chunks first, then their neighbours.
  const firstItem = items[0] ? layout.itemAt(items[0].index) : undefined
  const lastItem = items.length > 0 ? layout.itemAt((items[items.length - 1] as { index: number }).index) : undefined
  const firstChunk = firstItem ? index.chunkOf(firstItem.record) : -1
  const lastChunk = lastItem ? index.chunkOf(lastItem.record) : -1
  useEffect(() => {
    if (firstChunk < 0 || lastChunk < 0) return
    const visible: number[] = []
    for (let k = firstChunk; k <= lastChunk && visible.length < 256; k++) visible.push(k)
    session.want(visible, [lastChunk + 1, firstChunk - 1, lastChunk + 2])
  }, [session, firstChunk, lastChunk])

  const cursorChunk = index.chunkOf(cursor)
  useEffect(() => {
    onCursorChunk(cursorChunk)
  }, [cursorChunk, onCursorChunk])

  const toggle = useCallback(
    (record: number) => {
      const k = index.chunkOf(record)
      const cols = session.getChunk(k)
      if (!cols) return
      const r = record - index.firstRecord(k)
      const naln = (cols.alnStart[r + 1] ?? 0) - (cols.alnStart[r] ?? 0)
      setExpanded((old) => {
        const next = new Map(old)
        if (next.has(record)) next.delete(record)
        else if (naln > 0) next.set(record, naln)
        return next
      })
    },
    [index, session],
  )

  const onRowClick = useCallback(
    (record: number) => {
      setCursor(record)
      toggle(record)
    },
    [toggle],
  )

  /**
   * Holds the index walk while the user scrolls (client.ts holdIndex), and slides the window
   * when the view nears either end of it, keeping the exact scroll position.
   */
  const onScroll = () => {
    session.holdIndex()
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

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const el = scroller.current
    const page = Math.max(1, Math.floor((el?.clientHeight ?? 0) / ROW_HEIGHT) - 2)
    const moves: Record<string, [number, Align]> = {
      ArrowDown: [cursor + 1, 'auto'],
      ArrowUp: [cursor - 1, 'auto'],
      PageDown: [cursor + page, 'auto'],
      PageUp: [cursor - page, 'auto'],
      Home: [0, 'start'],
      End: [records - 1, 'end'],
    }
    const move = moves[ev.key]
    if (move) {
      ev.preventDefault()
      go(move[0], move[1])
    } else if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault()
      toggle(cursor)
    }
  }

  const margin = virtualizer.options.scrollMargin
  return (
    <div className="record-table">
      <div
        className="table-scroll"
        ref={scroller}
        tabIndex={0}
        role="grid"
        aria-label="Records"
        aria-rowcount={records}
        data-testid="record-table"
        style={columns.vars}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
        <div className="row table-head" role="row">
          {columns.headers.map((h, i) => (
            <span key={i} role="columnheader" className={`cell clip${i > 0 && i < 4 ? ' num' : ''}`}>
              {h}
            </span>
          ))}
        </div>
        <div className="table-body" style={{ height: virtualizer.getTotalSize() - margin }}>
          {items.map((vi) => {
            const item = layout.itemAt(vi.index)
            const k = index.chunkOf(item.record)
            const cols = session.getChunk(k)
            const r = item.record - index.firstRecord(k)
            const top = vi.start - margin
            if (item.kind === 'alignment') {
              return (
                <AlignmentRow
                  key={`a${String(item.record)}-${String(item.alignment)}`}
                  record={item.record}
                  alignment={item.alignment}
                  naln={item.naln}
                  r={r}
                  cols={cols}
                  top={top}
                  height={ROW_HEIGHT}
                  prelude={prelude}
                  semantics={semantics}
                />
              )
            }
            return (
              <RecordRow
                key={`r${String(item.record)}`}
                record={item.record}
                chunk={k}
                r={r}
                cols={cols}
                error={cols ? undefined : session.chunkError(k)}
                expanded={expanded.has(item.record)}
                active={item.record === cursor}
                top={top}
                height={ROW_HEIGHT}
                prelude={prelude}
                semantics={semantics}
                onClick={onRowClick}
              />
            )
          })}
        </div>
        {records === 0 && <div className="table-empty muted">No records indexed yet.</div>}
      </div>
      <WindowBar
        records={records}
        windowStart={layout.windowStart}
        windowLength={layout.windowLength}
        top={firstItem?.record ?? 0}
        onSeek={(record) => {
          go(record, 'start')
        }}
        summary={`Record ${fmtCount(cursor)} · chunk ${fmtCount(Math.max(0, cursorChunk))}`}
      />
    </div>
  )
})
