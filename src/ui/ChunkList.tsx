import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useEffect, useEffectEvent, useId, useRef } from 'react'
import type { KeyboardEvent } from 'react'
import type { IndexStore, RadSession } from '../session'
import { fmtCount } from './format'
import { CHUNK_COLUMNS } from './glossary'
import { keyMove } from './tableKeys'

interface Props {
  index: IndexStore
  /** Chunks indexed so far (re-renders the list as the index grows). */
  chunks: number
  current: number
  /** Chunks whose records are damaged (marked in the list). */
  damaged: ReadonlySet<number>
  onSelect: (chunk: number) => void
  session: RadSession
}

const ROW = 24

/**
 * One figure of a chunk's row, named for a screen reader ("offset 1,234"): the column heads are
 * hidden from it, and an option is named by its content.
 */
function Figure({ name, value }: { name: string; value: number }) {
  return (
    <span>
      <span className="visually-hidden">{name} </span>
      {fmtCount(value)}
    </span>
  )
}

/**
 * Every chunk: number, byte offset, nbytes, nrec, first record. Virtualized; a click jumps the
 * table there. A listbox the keyboard reaches: ↑/↓, PageUp/PageDown, Home/End select a chunk and
 * jump the table to it (tableKeys.ts keyMove), and aria-activedescendant names the selected one.
 */
export const ChunkList = memo(function ChunkList({ index, chunks, current, damaged, onSelect }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const idPrefix = useId()
  const optionId = (k: number) => `${idPrefix}-chunk-${String(k)}`
  const virtualizer = useVirtualizer({
    count: chunks,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 12,
  })
  // Only when the selection moves, not when the index grows.
  const reveal = useEffectEvent((chunk: number) => {
    if (chunk >= 0 && chunk < chunks) virtualizer.scrollToIndex(chunk, { align: 'auto' })
  })
  useEffect(() => {
    reveal(current)
  }, [current])

  const onKeyDown = (ev: KeyboardEvent<HTMLDivElement>) => {
    const move = keyMove(ev.key, current, chunks, scroller.current?.clientHeight ?? 0, ROW)
    if (move) {
      ev.preventDefault()
      onSelect(move.record)
    } else if (ev.key === 'Enter' && current >= 0 && current < chunks) {
      ev.preventDefault()
      onSelect(current)
    }
  }
  const shown = virtualizer.getVirtualItems()
  const currentShown = shown.some((item) => item.index === current)

  return (
    <section className="chunk-list" aria-label="Chunks" data-testid="chunk-list">
      <h3 className="chunk-list-title">
        Chunks <span className="count">{fmtCount(chunks)}</span>
      </h3>
      <div className="chunk-head chunk-grid" aria-hidden="true">
        {Object.entries(CHUNK_COLUMNS).map(([name, title]) => (
          <span key={name} title={title}>
            {name}
          </span>
        ))}
      </div>
      <div
        className="chunk-scroll"
        ref={scroller}
        role="listbox"
        aria-label="Chunks"
        tabIndex={0}
        aria-activedescendant={currentShown ? optionId(current) : undefined}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {shown.map((item) => {
            const k = item.index
            const bad = damaged.has(k)
            return (
              <div
                key={k}
                role="option"
                id={optionId(k)}
                aria-selected={k === current}
                data-testid="chunk-row"
                data-chunk={k}
                data-damaged={bad ? 'true' : undefined}
                title={bad ? 'This chunk is damaged: see Integrity' : undefined}
                className={`chunk-row chunk-grid${k === current ? ' selected' : ''}${bad ? ' damaged' : ''}`}
                style={{ transform: `translateY(${String(item.start)}px)`, height: ROW }}
                onClick={() => {
                  onSelect(k)
                }}
              >
                <Figure name="chunk" value={k} />
                <Figure name="offset" value={index.offset(k)} />
                <Figure name="nbytes" value={index.nbytes(k)} />
                <Figure name="nrec" value={index.nrec(k)} />
                <Figure name="first record" value={index.firstRecord(k)} />
                {bad && <span className="visually-hidden">damaged</span>}
              </div>
            )
          })}
        </div>
      </div>
    </section>
  )
})
