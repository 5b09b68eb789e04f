import type { ReactNode, RefObject } from 'react'
import type { VirtualItem } from '@tanstack/react-virtual'
import type { Semantics } from '../../rad/prelude/semantics'
import type { Prelude } from '../../rad/types'
import type { RadSession } from '../../session'
import { AlignmentRow } from './AlignmentRow'
import { recordColumnTitle } from '../glossary'
import { ReadTagsRow } from './ReadTagsRow'
import { RecordRow } from './RecordRow'
import { alignmentRowIndex, recordRowId, recordRowIndex } from './tableAria'
import { shownColumns } from './tableColumns'
import type { HiddenCells, RecordColumns } from './tableColumns'
import { ROW_HEIGHT, subRow } from './tableLayout'
import type { TableLayout } from './tableLayout'

/** The table's header row: the columns that fit. */
export function TableHead({ columns, dropped }: { columns: RecordColumns; dropped: number }) {
  return (
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
  )
}

/** What every drawn row of the table needs to know. */
export interface RowContext {
  session: RadSession
  layout: TableLayout
  prelude: Prelude
  semantics: Semantics
  columns: RecordColumns
  hidden: HiddenCells
  tags: readonly string[]
  /** Rows below each expanded record (tableLayout.ts rowsBelow). */
  rows: ReadonlyMap<number, number>
  expanded: ReadonlyMap<number, number>
  cursor: number
  idPrefix: string
  /** The virtualizer's scroll margin, taken off every row's top. */
  margin: number
  onRowClick: (record: number) => void
}

/** One virtual item of the table: a record's row, one of its read-tag rows, or one of its alignments. */
export function tableRow(vi: VirtualItem, ctx: RowContext): ReactNode {
  const { session, layout, prelude, semantics, rows } = ctx
  const { index } = session
  const item = layout.itemAt(vi.index)
  const k = index.chunkOf(item.record)
  const cols = session.getChunk(k)
  const recordInChunk = item.record - index.firstRecord(k)
  const top = vi.start - ctx.margin
  if (item.kind === 'alignment') {
    const sub = subRow(item.alignment, item.naln, ctx.tags.length)
    const rowIndex = alignmentRowIndex(item.record, item.alignment, rows)
    const place = { record: item.record, rowIndex, recordInChunk, cols, top, height: ROW_HEIGHT, prelude, semantics }
    if (sub.kind === 'tag') {
      return <ReadTagsRow key={`t${String(item.record)}-${String(sub.tag)}`} {...place} tag={ctx.tags[sub.tag] ?? ''} />
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
      id={recordRowId(ctx.idPrefix, item.record)}
      rowIndex={recordRowIndex(item.record, rows)}
      key={`r${String(item.record)}`}
      record={item.record}
      chunk={k}
      recordInChunk={recordInChunk}
      cols={cols}
      error={cols ? undefined : session.chunkError(k)}
      expanded={ctx.expanded.has(item.record)}
      tagRow={ctx.columns.tagRow}
      hidden={ctx.hidden}
      active={item.record === ctx.cursor}
      top={top}
      height={ROW_HEIGHT}
      prelude={prelude}
      semantics={semantics}
      onClick={ctx.onRowClick}
    />
  )
}

/** The scrollbar over the whole file's rows, beside the table's own (useFileScrollbar.ts). */
export function FileScrollbarTrack({
  barRef,
  onBarScroll,
  height,
}: {
  barRef: RefObject<HTMLDivElement | null>
  onBarScroll: () => void
  /** The bar's content height (px): the whole file's rows, scaled (tableLayout.ts scrollScale). */
  height: number
}) {
  return (
    <div
      className="file-scrollbar"
      ref={barRef}
      data-testid="file-scrollbar"
      aria-hidden="true"
      tabIndex={-1}
      onScroll={onBarScroll}
    >
      <div style={{ height }} />
    </div>
  )
}

/** Whether the cursor's record row is among the rows drawn (an id must point at an element). */
export function drawsRecord(items: readonly VirtualItem[], layout: TableLayout, record: number): boolean {
  return items.some((vi) => {
    const item = layout.itemAt(vi.index)
    return item.kind === 'record' && item.record === record
  })
}
