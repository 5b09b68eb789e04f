import { useMemo } from 'react'
import type { CSSProperties, RefObject } from 'react'
import type { Semantics } from '../../rad/prelude/semantics'
import type { Prelude } from '../../rad/types'
import { hiddenCells, hiddenTags, recordColumns } from './tableColumns'
import type { HiddenCells, RecordColumns } from './tableColumns'
import { useCompactColumns } from './useCompactColumns'

export interface TableFit {
  columns: RecordColumns
  /** How many columns the table's width drops (useCompactColumns.ts). */
  dropped: number
  hidden: HiddenCells
  /** The read tags the table has no column for: an expanded record lists them, one row each, above its alignments. */
  tags: string[]
  /** The grid's template and minimum width, set once on the scroller and inherited by every row. */
  columnVars: CSSProperties
}

/** The record table's columns for this file, and which of them fit the scroller's width. */
export function useTableFit(
  prelude: Prelude,
  semantics: Semantics,
  scroller: RefObject<HTMLDivElement | null>,
): TableFit {
  const columns = useMemo(() => recordColumns(prelude, semantics), [prelude, semantics])
  const minWidths = useMemo(() => columns.layouts.map((l) => l.minWidth), [columns])
  const dropped = useCompactColumns(scroller, minWidths)
  const hidden = useMemo(() => hiddenCells(columns.columns, dropped), [columns, dropped])
  const tags = useMemo(() => hiddenTags(columns.columns, dropped), [columns, dropped])
  const columnVars = useMemo(() => {
    const { template, minWidth } = columns.layouts[dropped] ?? columns.compact
    // Set once on the scroller and inherited by every row, rather than parsed in each row's style.
    const vars: CSSProperties & Record<`--${string}`, string> = {
      '--row-columns': template,
      '--row-min-width': `${String(minWidth)}px`,
    }
    return vars
  }, [columns, dropped])
  return { columns, dropped, hidden, tags, columnVars }
}
