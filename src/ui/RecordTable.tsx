import { memo, useCallback, useEffect, useEffectEvent, useId, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { CSSProperties, KeyboardEvent } from 'react'
import type { Semantics } from '../rad/semantics'
import type { Prelude } from '../rad/types'
import type { RadSession } from '../session'
import { AlignmentRow } from './AlignmentRow'
import { fmtCount } from './format'
import { ReadTagsRow } from './ReadTagsRow'
import { RecordRow } from './RecordRow'
import { alignmentRowIndex, recordRowId, recordRowIndex, tableRowCount } from './tableAria'
import { hiddenCells, hiddenTags, recordColumns, shownColumns } from './tableColumns'
import { clampRecord, expansionKey, keyMove } from './tableKeys'
import type { Align } from './tableKeys'
import { ROW_HEIGHT, revealRowsTop, rowsBelow, rowsInView, subRow } from './tableLayout'
import { useCompactColumns } from './useCompactColumns'
import { useFileScrollbar } from './useFileScrollbar'
import { useDataVersion } from './useRadSession'
import { useKeepRowInView } from './useKeepRowInView'
import { useTableWindow } from './useTableWindow'
import { WindowBar } from './WindowBar'
import { recordColumnTitle } from './glossary'

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

interface Props {
  session: RadSession
  prelude: Prelude
  semantics: Semantics
  records: number
  jump: JumpRequest | undefined
  onCursorChunk: (chunk: number) => void
  onView?: (view: ViewPosition) => void
}

/**
 * The records, one row per read (virtualized, fixed row height, windowed: see
 * tableLayout.ts and useTableWindow.ts). Asks the session for the chunks on screen first and
 * their neighbours next. Keyboard: ↑/↓, PageUp/PageDown, Home/End move, →/← expand and collapse,
 * Enter toggles (tableKeys.ts). A WAI-ARIA treegrid: focus stays on the scroller and
 * aria-activedescendant names the cursor's row, so a screen reader reads the record it moves to.
 */
export const RecordTable = memo(function RecordTable({
  session,
  prelude,
  semantics,
  records,
  jump,
  onCursorChunk,
  onView,
}: Props) {
  const dataVersion = useDataVersion(session)
  const { index } = session
  // Expanded records and their alignment counts.
  const [expanded, setExpanded] = useState<ReadonlyMap<number, number>>(() => new Map())
  const [cursor, setCursor] = useState(0)
  const scroller = useRef<HTMLDivElement>(null)
  const idPrefix = useId()
  const columns = useMemo(() => recordColumns(prelude, semantics), [prelude, semantics])
  const minWidths = useMemo(() => columns.layouts.map((l) => l.minWidth), [columns])
  const dropped = useCompactColumns(scroller, minWidths)
  const hidden = useMemo(() => hiddenCells(columns.columns, dropped), [columns, dropped])
  const compact = hidden.chunk
  // An expanded record lists the read tags the table has no column for, one row each, above its alignments.
  const tags = useMemo(() => hiddenTags(columns.columns, dropped), [columns, dropped])
  const rows = useMemo(() => rowsBelow(expanded, tags.length), [expanded, tags])
  const columnVars = useMemo(() => {
    const { template, minWidth } = columns.layouts[dropped] ?? columns.compact
    // Set once on the scroller and inherited by every row, rather than parsed in each row's style.
    const vars: CSSProperties & Record<`--${string}`, string> = {
      '--row-columns': template,
      '--row-min-width': `${String(minWidth)}px`,
    }
    return vars
  }, [columns, dropped])
  const table = useTableWindow(records, rows, scroller)
  const { layout, virtualizer, show, slideNearEdge } = table
  useKeepRowInView(scroller, records > 0 && layout.holds(cursor) ? layout.rowOf(cursor) : undefined)
  const items = virtualizer.getVirtualItems()
  const viewHeight = virtualizer.scrollRect?.height ?? 0
  const bar = useFileScrollbar(table, records, viewHeight)

  const go = useCallback(
    (record: number, align: Align) => {
      if (records === 0) return
      const target = clampRecord(record, records)
      setCursor(target)
      show(target, align)
    },
    [records, show],
  )

  // Only a new request jumps; `go` changes whenever the index grows.
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

  // Visible chunks first, then their neighbours.
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

  // The footer and the chunk list follow the view: the cursor's record while it is in view, else the top one.
  const inView = rowsInView(virtualizer.scrollOffset ?? 0, viewHeight, layout.count)
  const firstShown = inView.last >= inView.first ? layout.itemAt(inView.first).record : cursor
  const lastShown = inView.last >= inView.first ? layout.itemAt(inView.last).record : cursor
  const cursorInView = cursor >= firstShown && cursor <= lastShown
  const viewChunk = index.chunkOf(cursorInView ? cursor : firstShown)
  useEffect(() => {
    onCursorChunk(viewChunk)
  }, [viewChunk, onCursorChunk])

  /**
   * Expands a record (when it is decoded and has rows to show: its read tags or alignments),
   * collapses it, or (undefined) toggles it.
   */
  const setRecordExpanded = useCallback(
    (record: number, expand: boolean | undefined) => {
      const k = index.chunkOf(record)
      const cols = session.getChunk(k)
      if (!cols) return
      const recordInChunk = record - index.firstRecord(k)
      const naln = (cols.alnStart[recordInChunk + 1] ?? 0) - (cols.alnStart[recordInChunk] ?? 0)
      setExpanded((old) => {
        const want = (expand ?? !old.has(record)) && (naln > 0 || columns.tagRow)
        if (old.has(record) === want) return old
        const next = new Map(old)
        if (want) next.set(record, naln)
        else next.delete(record)
        return next
      })
    },
    [index, session, columns],
  )

  // A record the user expands shows its rows: the table scrolls as little as needed (the last record on screen).
  const reveal = useRef<number | undefined>(undefined)
  const expandByUser = (record: number, expand: boolean | undefined) => {
    reveal.current = record
    setRecordExpanded(record, expand)
  }
  useLayoutEffect(() => {
    const record = reveal.current
    const el = scroller.current
    reveal.current = undefined
    const below = record === undefined ? undefined : rows.get(record)
    if (record === undefined || below === undefined || !el || !layout.holds(record)) return
    const row = layout.rowOf(record)
    const scroll = () => {
      const top = revealRowsTop(row, below, el.scrollTop, el.clientHeight)
      if (top !== undefined) el.scrollTop = top
    }
    scroll()
    // Again once the rows below have their height (the virtualizer can size the body a frame late,
    // and the scroll above stops at its end then).
    requestAnimationFrame(scroll)
    // When the panels above push the table below the fold (a phone), the page scrolls to it too.
    if (below > 0) el.scrollIntoView({ block: 'nearest' })
  }, [rows, layout])

  // A deep link's expanded record opens once its chunk has been decoded.
  useEffect(() => {
    const record = pendingOpen.current
    if (record === undefined || record >= records) return
    if (!session.getChunk(index.chunkOf(record))) return
    pendingOpen.current = undefined
    setRecordExpanded(record, true)
  }, [jump, dataVersion, records, session, index, setRecordExpanded])

  const lastOpened = [...expanded.keys()].at(-1)
  const viewRecord = cursorInView ? cursor : firstShown
  useEffect(() => {
    if (records > 0) onView?.({ record: viewRecord, chunk: Math.max(0, viewChunk), open: lastOpened })
  }, [records, viewRecord, viewChunk, lastOpened, onView])

  const onRowClick = useCallback(
    (record: number) => {
      setCursor(record)
      reveal.current = record
      setRecordExpanded(record, undefined)
    },
    [setRecordExpanded],
  )

  // Holds the index walk while the user scrolls (client.ts holdIndex).
  const onScroll = () => {
    session.holdIndex()
    slideNearEdge()
    bar.follow()
  }

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const move = keyMove(ev.key, cursor, records, scroller.current?.clientHeight ?? 0)
    const expand = move || records === 0 ? undefined : expansionKey(ev.key, expanded.has(cursor))
    if (move) {
      ev.preventDefault()
      go(move.record, move.align)
    } else if (expand !== undefined) {
      ev.preventDefault()
      expandByUser(cursor, expand)
    }
  }

  const margin = virtualizer.options.scrollMargin
  // Names the cursor's row only while it is rendered (an id must point at an element).
  const cursorRendered = items.some((vi) => {
    const item = layout.itemAt(vi.index)
    return item.kind === 'record' && item.record === cursor
  })
  return (
    <div className="record-table">
      <div className="table-frame">
        <div
          className={`table-scroll${compact ? ' compact' : ''}${bar.shown ? ' file-scrolled' : ''}`}
          ref={scroller}
          tabIndex={0}
          role="treegrid"
          aria-label="Records"
          aria-rowcount={tableRowCount(records, rows)}
          aria-activedescendant={cursorRendered ? recordRowId(idPrefix, cursor) : undefined}
          data-testid="record-table"
          style={columnVars}
          onScroll={onScroll}
          onKeyDown={onKeyDown}
        >
          <div className="row table-head" role="row" aria-rowindex={1}>
            {shownColumns(columns.columns, dropped).map((c, i) => (
              // The caret column has no header, as its cells are hidden from assistive technology.
              <span
                key={i}
                role="columnheader"
                aria-hidden={c.header === '' ? true : undefined}
                className={`cell clip col-${c.kind}`}
                title={recordColumnTitle(c.header)}
              >
                {c.header}
              </span>
            ))}
          </div>
          <div className="table-body" style={{ height: virtualizer.getTotalSize() - margin }}>
            {items.map((vi) => {
              const item = layout.itemAt(vi.index)
              const k = index.chunkOf(item.record)
              const cols = session.getChunk(k)
              const recordInChunk = item.record - index.firstRecord(k)
              const top = vi.start - margin
              if (item.kind === 'alignment') {
                const sub = subRow(item.alignment, item.naln, tags.length)
                const rowIndex = alignmentRowIndex(item.record, item.alignment, rows)
                const place = {
                  record: item.record,
                  rowIndex,
                  recordInChunk,
                  cols,
                  top,
                  height: ROW_HEIGHT,
                  prelude,
                  semantics,
                }
                if (sub.kind === 'tag') {
                  return (
                    <ReadTagsRow
                      key={`t${String(item.record)}-${String(sub.tag)}`}
                      {...place}
                      tag={tags[sub.tag] ?? ''}
                    />
                  )
                }
                return (
                  <AlignmentRow
                    key={`a${String(item.record)}-${String(sub.alignment)}`}
                    {...place}
                    alignment={sub.alignment}
                    naln={sub.naln}
                  />
                )
              }
              return (
                <RecordRow
                  id={recordRowId(idPrefix, item.record)}
                  rowIndex={recordRowIndex(item.record, rows)}
                  key={`r${String(item.record)}`}
                  record={item.record}
                  chunk={k}
                  recordInChunk={recordInChunk}
                  cols={cols}
                  error={cols ? undefined : session.chunkError(k)}
                  expanded={expanded.has(item.record)}
                  tagRow={columns.tagRow}
                  hidden={hidden}
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
        {bar.shown && (
          <div
            className="file-scrollbar"
            ref={bar.ref}
            data-testid="file-scrollbar"
            aria-hidden="true"
            tabIndex={-1}
            onScroll={bar.onBarScroll}
          >
            <div style={{ height: bar.scale.bar }} />
          </div>
        )}
      </div>
      <WindowBar
        records={records}
        windowStart={layout.windowStart}
        windowLength={layout.windowLength}
        top={firstItem?.record ?? 0}
        onSeek={(record) => {
          go(record, 'start')
        }}
        summary={
          cursorInView
            ? `Record ${fmtCount(cursor)} · chunk ${fmtCount(Math.max(0, viewChunk))}`
            : `Records ${fmtCount(firstShown)}–${fmtCount(lastShown)} · chunk ${fmtCount(Math.max(0, viewChunk))}`
        }
      />
    </div>
  )
})
