import type { ScrollToOptions } from '@tanstack/react-virtual'
import { ROW_HEIGHT } from './tableLayout'

/** Where a record lands in the view after a move (TanStack Virtual's scroll alignment). */
export type Align = NonNullable<ScrollToOptions['align']>

/** A move of the table's cursor: the record to select and where to show it. */
export interface CursorMove {
  record: number
  align: Align
}

/** Rows a page key moves: a screenful less two, so the rows at the edge stay in view; at least one. */
export function pageRows(viewportPx: number): number {
  return Math.max(1, Math.floor(viewportPx / ROW_HEIGHT) - 2)
}

/** `record` inside the file's records (0 … records − 1); records must be at least 1. */
export function clampRecord(record: number, records: number): number {
  return Math.max(0, Math.min(records - 1, record))
}

/**
 * Where a navigation key moves the cursor in a table of `records` records whose view is
 * `viewportPx` high: arrows by one record, PageUp/PageDown by `pageRows`, Home/End to either
 * end. Undefined for any other key, and when there are no records.
 */
export function keyMove(key: string, cursor: number, records: number, viewportPx: number): CursorMove | undefined {
  if (records === 0) return undefined
  const move = unclamped(key, cursor, records, pageRows(viewportPx))
  return move && { record: clampRecord(move.record, records), align: move.align }
}

function unclamped(key: string, cursor: number, records: number, page: number): CursorMove | undefined {
  switch (key) {
    case 'ArrowDown':
      return { record: cursor + 1, align: 'auto' }
    case 'ArrowUp':
      return { record: cursor - 1, align: 'auto' }
    case 'PageDown':
      return { record: cursor + page, align: 'auto' }
    case 'PageUp':
      return { record: cursor - page, align: 'auto' }
    case 'Home':
      return { record: 0, align: 'start' }
    case 'End':
      return { record: records - 1, align: 'end' }
    default:
      return undefined
  }
}
