/**
 * Which row of the record table is which. A browser cannot scroll an element
 * taller than ~33.5 M px (TanStack Virtual #616), so the table shows a window
 * of at most WINDOW_RECORDS records that moves over the file; an expanded
 * record adds rows below it: one per read tag a narrow table has no column
 * for, then one per alignment (rowsBelow, subRow).
 *
 * Why 100,000 rows (2.8 M px) and not the ~1 M the ceiling would allow:
 * TanStack Virtual rebuilds its per-row offsets (an O(rows) loop) whenever the
 * row count changes, which it does ten times a second while a file indexes.
 * Measured here (2 cores): a 500 k-row window made every index update a
 * ~100 ms main-thread task; 100 k rows keeps it near 15 ms, and only until
 * the window is full. The window slides when the view nears either end. The
 * table's own scrollbar would stand for the window only, so a file with more
 * records than a window gets a file scrollbar instead (useFileScrollbar.ts,
 * `scrollScale` below).
 */
export const ROW_HEIGHT = 28
export const WINDOW_RECORDS = 100_000

/**
 * Rows rendered beyond the visible ones: OVERSCAN on each side while the table is still, and
 * while it scrolls OVERSCAN ahead but only BEHIND behind (those are leaving the screen). A scroll
 * that moves more than a screen per event ('jump': a fling, a dragged scrollbar) renders no rows
 * ahead either: the next event lands beyond them. During a fast scroll every rendered row is new
 * in every frame, so each one costs the main thread (React, style, layout, paint: ~0.2 ms on
 * this project's 2-core machine).
 */
export const OVERSCAN = 6
export const BEHIND = 1

/** How the table moves: TanStack Virtual's scroll direction, 'jump' when faster than a screen per event. */
export type ScrollMotion = 'forward' | 'backward' | 'jump' | null

/** What `rowsToRender` should assume after a scroll event that moved `delta` px in a `viewport` px high view. */
export function scrollMotion(
  isScrolling: boolean,
  direction: 'forward' | 'backward' | null,
  delta: number,
  viewport: number,
): ScrollMotion {
  if (!isScrolling) return null
  return Math.abs(delta) > viewport ? 'jump' : direction
}

/** Indexes to render for TanStack Virtual's visible `range`, overscanned in the scroll direction. */
export function rowsToRender(
  range: { startIndex: number; endIndex: number; overscan: number; count: number },
  motion: ScrollMotion,
): number[] {
  const behind = Math.min(BEHIND, range.overscan)
  const before = motion === null || motion === 'backward' ? range.overscan : behind
  const after = motion === null || motion === 'forward' ? range.overscan : behind
  const start = Math.max(0, range.startIndex - before)
  const end = Math.min(range.count - 1, range.endIndex + after)
  const rows: number[] = []
  for (let i = start; i <= end; i++) rows.push(i)
  return rows
}

export type TableItem =
  { kind: 'record'; record: number } | { kind: 'alignment'; record: number; alignment: number; naln: number }

export interface TableLayout {
  windowStart: number
  windowLength: number
  /** Rows: records of the window plus the rows below expanded ones (tag and alignment rows). */
  count: number
  /** Whether `record` is one of the window's records. */
  holds(record: number): boolean
  itemAt(i: number): TableItem
  /** Row of a record (which must be in the window). */
  rowOf(record: number): number
}

/** Where a window should start so it holds `record`, as centred as the file allows. */
export function windowFor(record: number, records: number, size = WINDOW_RECORDS): number {
  return Math.max(0, Math.min(record - Math.floor(size / 2), records - size))
}

export function makeLayout(
  windowStart: number,
  records: number,
  expanded: ReadonlyMap<number, number>,
  size = WINDOW_RECORDS,
): TableLayout {
  const windowLength = Math.max(0, Math.min(size, records - windowStart))
  const end = windowStart + windowLength
  const recs = [...expanded.keys()].filter((r) => r >= windowStart && r < end).sort((a, b) => a - b)
  /** rows[j]: row of recs[j]; extra[j]: alignment rows before it. */
  const rows: number[] = []
  const extra: number[] = []
  let added = 0
  for (const r of recs) {
    extra.push(added)
    rows.push(r - windowStart + added)
    added += expanded.get(r) ?? 0
  }
  const itemAt = (i: number): TableItem => {
    // Last expanded record whose row is at or before i.
    let lo = 0
    let hi = rows.length - 1
    let j = -1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      if ((rows[mid] ?? 0) <= i) {
        j = mid
        lo = mid + 1
      } else hi = mid - 1
    }
    if (j < 0) return { kind: 'record', record: windowStart + i }
    const r = recs[j] ?? 0
    const naln = expanded.get(r) ?? 0
    const at = rows[j] ?? 0
    if (i === at) return { kind: 'record', record: r }
    if (i <= at + naln) return { kind: 'alignment', record: r, alignment: i - at - 1, naln }
    return { kind: 'record', record: windowStart + i - (extra[j] ?? 0) - naln }
  }
  const rowOf = (record: number): number => {
    let before = 0
    for (const r of recs) {
      if (r >= record) break
      before += expanded.get(r) ?? 0
    }
    return record - windowStart + before
  }
  const holds = (record: number): boolean => record >= windowStart && record < end
  return { windowStart, windowLength, count: windowLength + added, holds, itemAt, rowOf }
}

/**
 * Height of the file scrollbar's content: a browser cannot scroll an element taller than
 * ~33.5 M px in Chrome and ~17.9 M px in Firefox (TanStack Virtual #616, #998), so taller files
 * are scaled down to this (100 M records × 28 px = 2.8 G px: 187 px of rows per px of bar).
 */
export const SCROLLBAR_LIMIT_PX = 15_000_000

/**
 * How the file scrollbar maps to the rows: `content` px are the whole file's rows as if all were
 * in one table (the header row and every row of every record, expanded ones' alignment rows too),
 * `bar` px the scrollbar's content, both seen through a `view` px high viewport. Proportional:
 * the bar's top is the first row, its bottom the last one, its middle the middle one.
 */
export interface ScrollScale {
  content: number
  bar: number
  view: number
}

/** The scale for `rows` table rows (records and alignment rows) seen through `view` px. */
export function scrollScale(rows: number, view: number): ScrollScale {
  const content = (rows + 1) * ROW_HEIGHT // + the sticky header row
  return { content, bar: Math.min(content, SCROLLBAR_LIMIT_PX), view }
}

/**
 * The file scrollbar's scrollTop for the table scrolled to `contentTop` px of the whole file's
 * rows; `barView`: the scrollbar's own height when it is not quite the table's.
 */
export function barTopFor(contentTop: number, scale: ScrollScale, barView = scale.view): number {
  return toRange(contentTop, scale.content - scale.view, scale.bar - barView)
}

/** Where in the whole file's rows (px) the table stands when the file scrollbar is at `barTop`. */
export function contentTopFor(barTop: number, scale: ScrollScale, barView = scale.view): number {
  return toRange(barTop, scale.bar - barView, scale.content - scale.view)
}

/** `x` of [0, from] scaled to [0, to], clamped; 0 when either range is empty. */
function toRange(x: number, from: number, to: number): number {
  if (from <= 0 || to <= 0) return 0
  return Math.max(0, Math.min(to, (x * to) / from))
}

/** A scroll position over the whole file's rows: the row at the top of the view and how far past its top. */
export interface RowPosition {
  row: number
  px: number
}

export function rowPositionAt(contentTop: number): RowPosition {
  const row = Math.floor(contentTop / ROW_HEIGHT)
  return { row, px: contentTop - row * ROW_HEIGHT }
}

/**
 * The rows (indexes) a `view` px high table scrolled to `scrollTop` shows more than half of,
 * below its sticky header row; `last` < `first` when none.
 */
export function rowsInView(scrollTop: number, view: number, count: number): { first: number; last: number } {
  const half = ROW_HEIGHT / 2
  const first = Math.max(0, Math.ceil((scrollTop - half) / ROW_HEIGHT))
  const last = Math.min(count - 1, Math.floor((scrollTop + view - ROW_HEIGHT - half) / ROW_HEIGHT))
  return { first, last }
}

/** What one of the rows below an expanded record shows: one of its read-level tags, or one of its alignments. */
export type SubRow = { kind: 'tag'; tag: number } | { kind: 'alignment'; alignment: number; naln: number }

/**
 * Row `row` (0-based) of the `rows` below an expanded record, whose first `tagRows` rows list the
 * read tags a narrow table has no column for (tableColumns.ts `hiddenTags`), one each, and the
 * rest its alignments.
 */
export function subRow(row: number, rows: number, tagRows: number): SubRow {
  return row < tagRows
    ? { kind: 'tag', tag: row }
    : { kind: 'alignment', alignment: row - tagRows, naln: rows - tagRows }
}

/** The rows below each expanded record: its alignments (`expanded`'s values) and `tagRows` tag rows. */
export function rowsBelow(expanded: ReadonlyMap<number, number>, tagRows: number): ReadonlyMap<number, number> {
  if (tagRows === 0) return expanded
  return new Map([...expanded].map(([record, naln]) => [record, naln + tagRows]))
}

/**
 * Where to scroll a `view` px high table (sticky header included) at `scrollTop` so that the
 * `below` rows under row `row` show, as many as fit below the row itself, by the least scroll:
 * undefined when they already show. Expanding the last record on screen then reveals its rows.
 */
export function revealRowsTop(row: number, below: number, scrollTop: number, view: number): number | undefined {
  // Row r spans [(r + 1) · ROW_HEIGHT, (r + 2) · ROW_HEIGHT) of the scroll content; the header covers the view's first ROW_HEIGHT.
  const top = (row + 1) * ROW_HEIGHT
  const end = (row + 2 + below) * ROW_HEIGHT
  const fitsTop = top - ROW_HEIGHT // the row just under the header
  const want = Math.min(fitsTop, end - view)
  return want > scrollTop ? want : undefined
}
