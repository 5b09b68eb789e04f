import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useRef } from 'react'
import type { FilterRun, IndexStore } from '../session'
import { fmtCount } from './format'

/** One result row's height in px (the `.filter-result` button: 13 px text, 4 px padding each side, 1 px gap). */
const ROW_PX = 28

interface Props {
  run: FilterRun
  /** Record numbers kept so far (re-renders the list as matches arrive). */
  kept: number
  index: IndexStore
  onRecord: (record: number) => void
}

/** The matching record numbers, virtualized (up to a million rows); a click jumps to the record in the table. */
export const FilterResults = memo(function FilterResults({ run, kept, index, onRecord }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const virtual = useVirtualizer({
    count: kept,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 8,
  })
  if (kept === 0) return null
  return (
    <div
      className="filter-results"
      ref={scroller}
      data-testid="filter-results"
      tabIndex={0}
      aria-label="Matching records"
    >
      <ul className="filter-results-inner" style={{ height: virtual.getTotalSize() }}>
        {virtual.getVirtualItems().map((item) => {
          const record = run.matches.at(item.index)
          return (
            <li
              key={item.key}
              className="filter-result-item"
              style={{ transform: `translateY(${String(item.start)}px)` }}
            >
              <button
                type="button"
                className="filter-result"
                data-testid="filter-result"
                data-record={record}
                onClick={() => {
                  onRecord(record)
                }}
              >
                <span className="filter-result-n">#{fmtCount(record)}</span>
                <span className="muted">chunk {fmtCount(index.chunkOf(record))}</span>
              </button>
            </li>
          )
        })}
      </ul>
    </div>
  )
})
