import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useEffect, useEffectEvent, useRef } from 'react'
import type { IndexStore, RadSession } from '../workers/client'
import { fmtCount } from './format'
import { CHUNK_COLUMNS } from './glossary'

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

/** Every chunk: number, byte offset, nbytes, nrec, first record. Virtualized; a click jumps the table there. */
export const ChunkList = memo(function ChunkList({ index, chunks, current, damaged, onSelect }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
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
      <div className="chunk-scroll" ref={scroller} role="listbox" aria-label="Chunks">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const k = item.index
            const bad = damaged.has(k)
            return (
              <div
                key={k}
                role="option"
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
                <span>{fmtCount(k)}</span>
                <span>{fmtCount(index.offset(k))}</span>
                <span>{fmtCount(index.nbytes(k))}</span>
                <span>{fmtCount(index.nrec(k))}</span>
                <span>{fmtCount(index.firstRecord(k))}</span>
              </div>
            )
          })}
        </div>
      </div>
    </section>
  )
})
