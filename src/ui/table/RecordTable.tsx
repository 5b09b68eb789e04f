import { memo, useId, useMemo, useRef } from 'react'
import type { Semantics } from '../../rad/prelude/semantics'
import type { Prelude } from '../../rad/types'
import type { RadSession } from '../../session'
import { recordRowId, tableRowCount } from './tableAria'
import { rowsBelow } from './tableLayout'
import { FileScrollbarTrack, TableHead, drawsRecord, tableRow } from './TableRows'
import type { RowContext } from './TableRows'
import { useExpandedRecords, useOpenWhenDecoded, useRevealRows } from './useExpandedRecords'
import { useFileScrollbar } from './useFileScrollbar'
import { useDataVersion } from '../useRadSession'
import { useKeepRowInView } from './useKeepRowInView'
import { useTableFit } from './useTableFit'
import { useTableInput } from './useTableInput'
import { useReportView, useTableCursor, useViewSpan, useWantVisibleChunks, viewSummary } from './useTableFollow'
import type { JumpRequest, ViewPosition } from './useTableFollow'
import { useTableWindow } from './useTableWindow'
import { WindowBar } from './WindowBar'

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
  const scroller = useRef<HTMLDivElement>(null)
  const idPrefix = useId()
  const { columns, dropped, hidden, tags, columnVars } = useTableFit(prelude, semantics, scroller)
  const { expanded, setRecordExpanded } = useExpandedRecords(session, columns)
  const rows = useMemo(() => rowsBelow(expanded, tags.length), [expanded, tags])
  const table = useTableWindow(records, rows, scroller)
  const { layout, virtualizer, show, slideNearEdge } = table
  const { cursor, setCursor, go, pendingOpen } = useTableCursor(records, show, jump, scroller)
  useKeepRowInView(scroller, records > 0 && layout.holds(cursor) ? layout.rowOf(cursor) : undefined)
  const items = virtualizer.getVirtualItems()
  const viewHeight = virtualizer.scrollRect?.height ?? 0
  const bar = useFileScrollbar(table, records, viewHeight)

  const firstItem = useWantVisibleChunks(session, layout, items)
  const view = { scrollTop: virtualizer.scrollOffset ?? 0, height: viewHeight }
  const span = useViewSpan(session, layout, view, cursor, onCursorChunk)
  const reveal = useRevealRows(scroller, rows, layout)
  useOpenWhenDecoded(pendingOpen, session, records, setRecordExpanded, jump, dataVersion)
  useReportView(records, span, cursor, expanded, onView)
  const { onRowClick, onScroll, onKeyDown } = useTableInput({
    session,
    records,
    cursor,
    setCursor,
    go,
    expanded,
    setRecordExpanded,
    revealRef: reveal,
    scrollerRef: scroller,
    onScrolled: () => {
      slideNearEdge()
      bar.follow()
    },
  })

  const margin = virtualizer.options.scrollMargin
  // Names the cursor's row only while it is rendered.
  const cursorRendered = drawsRecord(items, layout, cursor)
  const rowContext: RowContext = {
    session,
    layout,
    prelude,
    semantics,
    columns,
    hidden,
    tags,
    rows,
    expanded,
    cursor,
    idPrefix,
    margin,
    onRowClick,
  }
  return (
    <div className="record-table">
      <div className="table-frame">
        <div
          className={`table-scroll${hidden.chunk ? ' compact' : ''}${bar.shown ? ' file-scrolled' : ''}`}
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
          <TableHead columns={columns} dropped={dropped} />
          <div className="table-body" style={{ height: virtualizer.getTotalSize() - margin }}>
            {items.map((vi) => tableRow(vi, rowContext))}
          </div>
          {records === 0 && <div className="table-empty muted">No records indexed yet.</div>}
        </div>
        {bar.shown && <FileScrollbarTrack barRef={bar.ref} onBarScroll={bar.onBarScroll} height={bar.scale.bar} />}
      </div>
      <WindowBar
        records={records}
        windowStart={layout.windowStart}
        windowLength={layout.windowLength}
        top={firstItem?.record ?? 0}
        onSeek={(record) => {
          go(record, 'start')
        }}
        summary={viewSummary(cursor, span)}
      />
    </div>
  )
})
