import { useCallback, useId, useMemo, useState } from 'react'
import type { RadSession } from '../session'
import { ChunkList } from './ChunkList'
import { CopyLink } from './CopyLink'
import { ErrorBanner } from './ErrorBanner'
import { ErrorBoundary } from './ErrorBoundary'
import { ExportButton } from './ExportDialog'
import type { KneeCut } from './exportChoice'
import { FilterPanel } from './FilterPanel'
import { FilePanel } from './FilePanel'
import { GotoControls } from './GotoControls'
import { IndexStatus } from './IndexStatus'
import { IntegrityPanel } from './IntegrityPanel'
import { RecordTable } from './RecordTable'
import { StatsSection } from './StatsSection'
import type { JumpRequest } from './RecordTable'
import type { DeepLink } from './useDeepLink'
import { useSessionState } from './useRadSession'
import { useFilterState, useRecordFilter } from './useRecordFilter'
import { useSessionLink } from './useSessionLink'
import { useFilterToLink, useLinkedFilter } from './useLinkedFilter'

/** Below this width (app.css's narrow layout) the sidebar starts collapsed and opens over the records. */
const NARROW_SCREEN = '(max-width: 899px)'

interface Props {
  session: RadSession
  /** Opens the same file again (after a worker failure, or a cancel before the header). */
  onRetry: () => void
  /** Opens a file chosen again (after the file changed on disk). */
  onReopen: (file: File) => void
  /** The page address's view state (useDeepLink.ts). */
  link: DeepLink
  /** The file's fingerprint key is known (recent files, the index cache). */
  onFingerprint?: (fp: string) => void
  /** Files dropped with it that may be a t2g, gene names or a permit list (docs/cells.md). */
  annotations?: readonly File[]
}

/** A cancel before the header was read leaves nothing to show: offer to carry on. */
function CancelledEarly({ onOpenAgain }: { onOpenAgain: () => void }) {
  return (
    <div className="notice" data-testid="cancelled-early">
      Cancelled before the header was read, so there is nothing to show yet.{' '}
      <button type="button" className="btn btn-small" data-testid="open-again" onClick={onOpenAgain}>
        Resume: open it again
      </button>
    </div>
  )
}

const NO_FILES: readonly File[] = []

/** Everything shown for one open file. Mounted fresh (keyed) for every file. */
export function FileView({ session, onRetry, onReopen, link, onFingerprint, annotations = NO_FILES }: Props) {
  const state = useSessionState(session)
  const [jump, setJump] = useState<JumpRequest | undefined>(undefined)
  const [cursorChunk, setCursorChunk] = useState(-1)
  const [sidebarOpen, setSidebarOpen] = useState(() => !window.matchMedia(NARROW_SCREEN).matches)
  const sidebarId = useId()
  const filterId = useId()
  // filter.pickBarcode(seq) / filter.pickReference(name) start a filter from other panels (statistics).
  const filter = useRecordFilter(session, !window.matchMedia(NARROW_SCREEN).matches, useFilterToLink(link))
  const filterState = useFilterState(filter.run)
  const [kneeCut, setKneeCut] = useState<KneeCut | undefined>(undefined)

  const goRecord = useCallback((record: number, open?: number) => {
    setJump((j) => ({ record, open, seq: (j?.seq ?? 0) + 1 }))
  }, [])
  const linked = useSessionLink(session, state, link, goRecord, onFingerprint)
  useLinkedFilter(link, state, linked.fp, filter)
  const goChunk = useCallback(
    (chunk: number) => {
      setCursorChunk(chunk)
      goRecord(Math.min(session.index.firstRecord(chunk), Math.max(0, session.index.records - 1)))
    },
    [session, goRecord],
  )
  /** From the integrity panel: a problem past the indexed chunks shows the last records before it. */
  const goIssue = useCallback(
    (chunk: number) => {
      const count = session.index.count
      if (count === 0) return
      if (chunk < count) {
        goChunk(chunk)
        return
      }
      setCursorChunk(count - 1)
      goRecord(Math.max(0, session.index.records - 1))
    },
    [session, goChunk, goRecord],
  )
  const cancel = useCallback(() => {
    session.cancel()
  }, [session])

  const { opened, semantics } = state
  // The file changing on disk overrides any other problem: what was found is about other bytes.
  const problem = state.changed ?? state.error
  const damaged = useMemo(() => new Set(state.summary?.damagedChunks), [state.summary])
  return (
    <main className="file-view" data-testid="file-view" data-session={session.id}>
      <IndexStatus state={state} onCancel={cancel} />
      {linked.mismatch && (
        <div className="notice" role="status" data-testid="link-mismatch">
          {linked.mismatch}
        </div>
      )}
      {problem && <ErrorBanner error={problem} state={state} onRetry={onRetry} onReopen={onReopen} />}
      {state.cancelled && !opened && <CancelledEarly onOpenAgain={onRetry} />}
      {/* A panel that throws is replaced by a message; the records stay (ErrorBoundary.tsx). */}
      <ErrorBoundary what="the integrity report">
        <IntegrityPanel state={state} session={session} onChunk={goIssue} />
      </ErrorBoundary>
      {opened && (
        <ErrorBoundary what="the statistics">
          <StatsSection
            session={session}
            fileName={state.fileName}
            onPickBarcode={filter.pickBarcode}
            onPickReference={filter.pickReference}
            onCutoff={setKneeCut}
            annotations={annotations}
            semantics={semantics}
          />
        </ErrorBoundary>
      )}
      {opened && semantics && (
        <>
          <div className="records-bar">
            <button
              type="button"
              className="btn btn-small sidebar-toggle"
              data-testid="sidebar-toggle"
              aria-expanded={sidebarOpen}
              aria-controls={sidebarId}
              onClick={() => {
                setSidebarOpen((open) => !open)
              }}
            >
              <span aria-hidden="true">{sidebarOpen ? '◂' : '▸'}</span> File &amp; chunks
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
              onRecord={goRecord}
              onChunk={goChunk}
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
            <CopyLink beforeCopy={link.flush} />
          </div>
          {filter.shown && (
            <FilterPanel
              id={filterId}
              control={filter}
              semantics={semantics}
              index={session.index}
              onRecord={goRecord}
            />
          )}
          <div className={`workspace${sidebarOpen ? '' : ' sidebar-closed'}`}>
            <aside className="sidebar" id={sidebarId} hidden={!sidebarOpen} aria-label="File details and chunks">
              <FilePanel state={state} opened={opened} semantics={semantics} />
              <ChunkList
                index={session.index}
                chunks={state.chunks}
                current={cursorChunk}
                damaged={damaged}
                onSelect={goChunk}
                session={session}
              />
            </aside>
            <section className="records" aria-label="Records">
              <RecordTable
                session={session}
                prelude={opened.prelude}
                semantics={semantics}
                records={state.records}
                jump={jump}
                onCursorChunk={setCursorChunk}
                onView={linked.onView}
              />
            </section>
          </div>
        </>
      )}
    </main>
  )
}
