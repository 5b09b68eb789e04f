import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { RefObject } from 'react'
import type { RadSession } from '../../session'
import type { RecordColumns } from './tableColumns'
import { revealRowsTop } from './tableLayout'
import type { TableLayout } from './tableLayout'

export interface ExpandedRecords {
  /** Expanded records and their alignment counts. */
  expanded: ReadonlyMap<number, number>
  /**
   * Expands a record (when it is decoded and has rows to show: its read tags or alignments),
   * collapses it, or (undefined) toggles it.
   */
  setRecordExpanded: (record: number, expand: boolean | undefined) => void
}

/** The records the table shows expanded, with their alignment rows below them. */
export function useExpandedRecords(session: RadSession, columns: RecordColumns): ExpandedRecords {
  const { index } = session
  const [expanded, setExpanded] = useState<ReadonlyMap<number, number>>(() => new Map())
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
  return { expanded, setRecordExpanded }
}

/**
 * A record the user expands shows its rows: the table scrolls as little as needed (the last
 * record on screen). Set the returned ref to the record before expanding it.
 */
export function useRevealRows(
  scrollerRef: RefObject<HTMLDivElement | null>,
  rows: ReadonlyMap<number, number>,
  layout: TableLayout,
): RefObject<number | undefined> {
  const reveal = useRef<number | undefined>(undefined)
  useLayoutEffect(() => {
    const record = reveal.current
    const el = scrollerRef.current
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
  }, [rows, layout, scrollerRef])
  return reveal
}

/** A deep link's expanded record (`pendingRef`) opens once its chunk has been decoded. */
export function useOpenWhenDecoded(
  pendingRef: RefObject<number | undefined>,
  session: RadSession,
  records: number,
  setRecordExpanded: (record: number, expand: boolean) => void,
  /** Re-checks when these change: the jump asked for, the decoded chunks' version. */
  jump: unknown,
  dataVersion: number,
): void {
  const { index } = session
  useEffect(() => {
    const record = pendingRef.current
    if (record === undefined || record >= records) return
    if (!session.getChunk(index.chunkOf(record))) return
    pendingRef.current = undefined
    setRecordExpanded(record, true)
  }, [pendingRef, jump, dataVersion, records, session, index, setRecordExpanded])
}
