import { useCallback, useId, useMemo, useState } from 'react'
import type { RadSession } from '../../session'
import { ChunkList } from './ChunkList'
import { ErrorBanner } from '../layout/ErrorBanner'
import { ErrorBoundary } from '../layout/ErrorBoundary'
import type { KneeCut } from '../export/exportChoice'
import type { MapInfo } from '../../rad/report/mapInfo'
import { FilterPanel } from '../filter/FilterPanel'
import { FilePanel } from './FilePanel'
import { IndexStatus } from './IndexStatus'
import { IntegrityPanel } from './IntegrityPanel'
import { RecordTable } from '../table/RecordTable'
import { RecordsBar } from '../table/RecordsBar'
import { StatsSection } from '../statistics/StatsSection'
import type { DeepLink } from '../persist/useDeepLink'
import { useSessionState } from '../useRadSession'
import { useFileNavigation } from './useFileNavigation'
import { useFilterState, useRecordFilter } from '../filter/useRecordFilter'
import { useSessionLink } from '../persist/useSessionLink'
import { useFilterToLink, useLinkedFilter } from '../filter/useLinkedFilter'

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
  /** The mapper's run statistics dropped with it (map_info.json): the summary's mapping rate. */
  mapInfo?: MapInfo | undefined
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
export function FileView({ session, onRetry, onReopen, link, onFingerprint, annotations = NO_FILES, mapInfo }: Props) {
  const state = useSessionState(session)
  const { jump, cursorChunk, setCursorChunk, goRecord, goChunk, goIssue } = useFileNavigation(session)
  const [sidebarOpen, setSidebarOpen] = useState(() => !window.matchMedia(NARROW_SCREEN).matches)
  const sidebarId = useId()
  const filterId = useId()
  // filter.pickBarcode(seq) / filter.pickReference(name) start a filter from other panels (statistics).
  const filter = useRecordFilter(session, !window.matchMedia(NARROW_SCREEN).matches, useFilterToLink(link))
  const filterState = useFilterState(filter.run)
  const [kneeCut, setKneeCut] = useState<KneeCut | undefined>(undefined)

  const linked = useSessionLink(session, state, link, goRecord, onFingerprint)
  useLinkedFilter(link, state, linked.fp, filter)
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
            mapInfo={mapInfo}
            semantics={semantics}
          />
        </ErrorBoundary>
      )}
      {opened && semantics && (
        <>
          <RecordsBar
            session={session}
            state={state}
            sidebar={{ open: sidebarOpen, id: sidebarId, setOpen: setSidebarOpen }}
            filter={filter}
            filterId={filterId}
            filterState={filterState}
            kneeCut={kneeCut}
            onRecord={goRecord}
            onChunk={goChunk}
            beforeCopy={link.flush}
          />
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
