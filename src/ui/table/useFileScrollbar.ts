import { useEffectEvent, useLayoutEffect, useRef } from 'react'
import type { RefObject } from 'react'
import { barTopFor, contentTopFor, scrollScale } from './tableLayout'
import type { ScrollScale } from './tableLayout'
import type { TableWindow } from './useTableWindow'

export interface FileScrollbar {
  /** Whether the file has more records than the table's window: then the file scrollbar stands in for the table's. */
  shown: boolean
  scale: ScrollScale
  ref: RefObject<HTMLDivElement | null>
  /** The file scrollbar's scroll event: the user moved it, so the table goes there. */
  onBarScroll: () => void
  /** For the table's scroll event: the file scrollbar follows the table. */
  follow: () => void
}

/**
 * A scrollbar for the whole file next to the table (tableLayout.ts `scrollScale`): its top is the
 * first record, its bottom the last, its middle the middle one, for any number of records. It
 * and the table follow each other without a render: `target` is the bar position the table
 * stands at, so each one's scroll event caused by the other is recognised and dropped.
 */
export function useFileScrollbar(table: TableWindow, records: number, viewHeight: number): FileScrollbar {
  const ref = useRef<HTMLDivElement>(null)
  const target = useRef(0)
  const scale = scrollScale(table.fileRows, viewHeight)
  const shown = table.layout.windowLength < records

  const follow = () => {
    const bar = ref.current
    const top = table.contentTop()
    if (!bar || top === undefined) return
    // The bar is as tall as the table's scroller beside it: its clientHeight is the view that is
    // scrolled (the virtualizer's scrollRect can differ by the sticky header, which left the last
    // row hidden below the view at the bar's bottom).
    const barTop = barTopFor(top, scrollScale(table.fileRows, bar.clientHeight))
    // Within a pixel: the table's own echo of a bar move (rounded to whole pixels on the way).
    if (Math.abs(barTop - target.current) <= 1) return
    target.current = barTop
    bar.scrollTop = barTop
  }

  const onBarScroll = () => {
    const bar = ref.current
    if (!bar || Math.abs(bar.scrollTop - target.current) <= 1) return
    target.current = bar.scrollTop
    // At the bar's bottom, the file's last record is at the table's bottom, whatever the rounding.
    if (records > 0 && bar.scrollTop >= bar.scrollHeight - bar.clientHeight - 1) table.show(records - 1, 'end')
    else table.seek(contentTopFor(bar.scrollTop, scrollScale(table.fileRows, bar.clientHeight)))
  }

  // The bar's height changes with the rows (indexing, an expanded record) and the view: put it back in step.
  const rescaled = useEffectEvent(follow)
  useLayoutEffect(() => {
    rescaled()
  }, [shown, scale.content, scale.view])
  return { shown, scale, ref, onBarScroll, follow }
}
