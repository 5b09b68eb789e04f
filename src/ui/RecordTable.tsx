import { memo, useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react'
import type { CSSProperties, KeyboardEvent } from 'react'
import type { Semantics } from '../rad/semantics'
import type { Prelude } from '../rad/types'
import type { RadSession } from '../workers/client'
import { AlignmentRow } from './AlignmentRow'
import { fmtCount } from './format'
import { RecordRow } from './RecordRow'
import { recordColumns } from './tableColumns'
import { clampRecord, keyMove } from './tableKeys'
import type { Align } from './tableKeys'
import { ROW_HEIGHT } from './tableLayout'
import { useDataVersion } from './useRadSession'
import { useTableWindow } from './useTableWindow'
import { WindowBar } from './WindowBar'
import { recordColumnTitle } from './glossary'

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

/**
 * The records, one row per read (virtualized, fixed row height, windowed: see
 * tableLayout.ts and useTableWindow.ts). Asks the session for the chunks on screen first and
 * their neighbours next. Keyboard: arrows, PageUp/PageDown, Home/End (tableKeys.ts), Enter expands.
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
  const [expanded, setExpanded] = useState<ReadonlyMap<number, number>>(() => new Map())
  const [cursor, setCursor] = useState(0)
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
  const { layout, virtualizer, show, slideNearEdge } = useTableWindow(records, expanded, scroller)
  const items = virtualizer.getVirtualItems()

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
  const jumpTo = useEffectEvent((record: number) => {
    go(record, 'center')
  })
  useEffect(() => {
    if (jump) jumpTo(jump.record)
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

  const cursorChunk = index.chunkOf(cursor)
  useEffect(() => {
    onCursorChunk(cursorChunk)
  }, [cursorChunk, onCursorChunk])

  const toggle = useCallback(
    (record: number) => {
      const k = index.chunkOf(record)
      const cols = session.getChunk(k)
      if (!cols) return
      const recordInChunk = record - index.firstRecord(k)
      const naln = (cols.alnStart[recordInChunk + 1] ?? 0) - (cols.alnStart[recordInChunk] ?? 0)
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

  // Holds the index walk while the user scrolls (client.ts holdIndex).
  const onScroll = () => {
    session.holdIndex()
    slideNearEdge()
  }

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const move = keyMove(ev.key, cursor, records, scroller.current?.clientHeight ?? 0)
    if (move) {
      ev.preventDefault()
      go(move.record, move.align)
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
            <span
              key={i}
              role="columnheader"
              className={`cell clip${i > 0 && i < 4 ? ' num' : ''}`}
              title={recordColumnTitle(h)}
            >
              {h}
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
              return (
                <AlignmentRow
                  key={`a${String(item.record)}-${String(item.alignment)}`}
                  record={item.record}
                  alignment={item.alignment}
                  naln={item.naln}
                  recordInChunk={recordInChunk}
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
                recordInChunk={recordInChunk}
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
