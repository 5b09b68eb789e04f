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
export function pageRows(viewportPx: number, rowHeight = ROW_HEIGHT): number {
  return Math.max(1, Math.floor(viewportPx / rowHeight) - 2)
}

/** `record` inside the file's records (0 … records − 1); records must be at least 1. */
export function clampRecord(record: number, records: number): number {
  return Math.max(0, Math.min(records - 1, record))
}

/**
 * Where a navigation key moves the cursor in a list of `records` rows `rowHeight` px high (the
 * record table's by default, or the chunk list's) whose view is `viewportPx` high: arrows by one
 * row, PageUp/PageDown by `pageRows`, Home/End to either end. Undefined for any other key
 * (←/→ are `expansionKey`'s), and when there are no records.
 */
export function keyMove(
  key: string,
  cursor: number,
  records: number,
  viewportPx: number,
  rowHeight = ROW_HEIGHT,
): CursorMove | undefined {
  if (records === 0) return undefined
  const move = unclamped(key, cursor, records, pageRows(viewportPx, rowHeight))
  return move && { record: clampRecord(move.record, records), align: move.align }
}

/**
 * Whether a key asks to expand (true) or collapse (false) the record at the cursor, which is
 * `expanded` now: → expands and ← collapses (the WAI-ARIA treegrid pattern), Enter and Space
 * toggle. Undefined for any other key.
 */
export function expansionKey(key: string, expanded: boolean): boolean | undefined {
  switch (key) {
    case 'ArrowRight':
      return true
    case 'ArrowLeft':
      return false
    case 'Enter':
    case ' ':
      return !expanded
    default:
      return undefined
  }
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
