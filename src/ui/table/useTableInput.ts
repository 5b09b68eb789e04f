import { useCallback } from 'react'
import type { KeyboardEvent, RefObject } from 'react'
import type { RadSession } from '../../session'
import { expansionKey, keyMove } from './tableKeys'
import type { Align } from './tableKeys'

interface TableInputs {
  session: RadSession
  records: number
  cursor: number
  setCursor: (record: number) => void
  go: (record: number, align: Align) => void
  expanded: ReadonlyMap<number, number>
  setRecordExpanded: (record: number, expand: boolean | undefined) => void
  /** Set to a record before the user expands it, so that its rows are shown (useRevealRows). */
  revealRef: RefObject<number | undefined>
  scrollerRef: RefObject<HTMLDivElement | null>
  /** What else follows the table's scroll (the window's edge, the file scrollbar). */
  onScrolled: () => void
}

/** The record table's clicks, keys (tableKeys.ts) and scrolls. */
export function useTableInput({
  session,
  records,
  cursor,
  setCursor,
  go,
  expanded,
  setRecordExpanded,
  revealRef,
  scrollerRef,
  onScrolled,
}: TableInputs) {
  const onRowClick = useCallback(
    (record: number) => {
      setCursor(record)
      revealRef.current = record
      setRecordExpanded(record, undefined)
    },
    [setRecordExpanded, setCursor, revealRef],
  )

  // Holds the index walk while the user scrolls (client.ts holdIndex).
  const onScroll = () => {
    session.holdIndex()
    onScrolled()
  }

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const move = keyMove(ev.key, cursor, records, scrollerRef.current?.clientHeight ?? 0)
    const expand = move || records === 0 ? undefined : expansionKey(ev.key, expanded.has(cursor))
    if (move) {
      ev.preventDefault()
      go(move.record, move.align)
    } else if (expand !== undefined) {
      ev.preventDefault()
      revealRef.current = cursor
      setRecordExpanded(cursor, expand)
    }
  }
  return { onRowClick, onScroll, onKeyDown }
}
