import type { Dispatch, SetStateAction } from 'react'
import type { FilterState, RadSession, SessionState } from '../../session'
import { CopyLink } from '../persist/CopyLink'
import { ExportButton } from '../export/ExportDialog'
import type { KneeCut } from '../export/exportChoice'
import { GotoControls } from './GotoControls'
import type { RecordFilterControl } from '../filter/useRecordFilter'

interface Props {
  session: RadSession
  state: SessionState
  /** The sidebar (file details and chunks) the first button shows and hides. */
  sidebar: { open: boolean; id: string; setOpen: Dispatch<SetStateAction<boolean>> }
  filter: RecordFilterControl
  /** The filter bar's id, for the toggle's aria-controls. */
  filterId: string
  filterState: FilterState | undefined
  kneeCut: KneeCut | undefined
  onRecord: (record: number) => void
  onChunk: (chunk: number) => void
  /** Writes the view into the page address before the link is copied. */
  beforeCopy: () => void
}

/** The bar above the records: sidebar and filter toggles, go to record or chunk, export, copy link. */
export function RecordsBar({
  session,
  state,
  sidebar,
  filter,
  filterId,
  filterState,
  kneeCut,
  onRecord,
  onChunk,
  beforeCopy,
}: Props) {
  return (
    <div className="records-bar">
      <button
        type="button"
        className="btn btn-small sidebar-toggle"
        data-testid="sidebar-toggle"
        aria-expanded={sidebar.open}
        aria-controls={sidebar.id}
        onClick={() => {
          sidebar.setOpen((open) => !open)
        }}
      >
        <span aria-hidden="true">{sidebar.open ? '◂' : '▸'}</span> File &amp; chunks
      </button>
      <button
        type="button"
        className="btn btn-small filter-toggle"
        data-testid="filter-toggle"
        aria-expanded={filter.shown}
        aria-controls={filter.shown ? filterId : undefined}
        onClick={() => {
          filter.setShown(!filter.shown)
          // Opened by its toggle, the bar's first field takes the focus once it is drawn.
          if (!filter.shown) {
            requestAnimationFrame(() => document.getElementById(filterId)?.querySelector('input')?.focus())
          }
        }}
      >
        <span aria-hidden="true">{filter.shown ? '▾' : '▸'}</span> Filter records
      </button>
      <GotoControls
        records={state.records}
        chunks={state.chunks}
        indexing={state.phase === 'indexing'}
        onRecord={onRecord}
        onChunk={onChunk}
      />
      <ExportButton
        session={session}
        fileName={state.fileName}
        cut={kneeCut}
        context={{
          filter: filterState && filterState.phase !== 'error' ? filterState.filter : undefined,
          chunks: state.chunks,
          indexed: state.phase === 'done' || (state.phase === 'error' && state.chunks > 0),
        }}
      />
      <CopyLink beforeCopy={beforeCopy} />
    </div>
  )
}
