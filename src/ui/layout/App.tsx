import { useEffect, useRef } from 'react'
import { prewarmIndexWorker } from '../../session'
import { DropChoice } from '../open/DropChoice'
import { DropZone } from '../open/DropZone'
import { mapInfoOf, planFiles } from '../open/dropPlan'
import { StudySection } from '../study/StudySection'
import { ErrorBoundary } from './ErrorBoundary'
import { FileView } from '../file/FileView'
import { HelpPanel } from './HelpPanel'
import { IdleView } from '../open/IdleView'
import { LinkPending } from '../persist/LinkPending'
import { RecentFiles } from '../persist/RecentFiles'
import { TopBar } from './TopBar'
import { useDeepLink, useLinkedPanel } from '../persist/useDeepLink'
import { useHelpKeys } from './useHelpKeys'
import { useOpenRequests } from '../open/useOpenRequests'
import type { Dropped } from '../open/useOpenRequests'
import type { DroppedFile } from '../open/dropPlan'
import { useRadSession } from '../useRadSession'
import { useRecentFiles } from '../persist/useRecentFiles'

/**
 * The state machine: idle (no file) → a session per opened file, which goes
 * opening → indexing → done | error on its own (see RadSession). Keying the
 * file view by session id resets every view state when a new file replaces
 * the old one, so no stale rows or figures can show.
 */
export function App() {
  const { session, open, close } = useRadSession()
  const link = useDeepLink()
  const recent = useRecentFiles()
  const [helpOpen, setHelpOpen] = useLinkedPanel(link, 'help')
  useHelpKeys(helpOpen, setHelpOpen)
  const fileInput = useRef<HTMLInputElement>(null)
  useEffect(prewarmIndexWorker, [])
  const {
    sampleError,
    dropped,
    openSource,
    openFile,
    openUrl,
    openOther,
    openDropped,
    onPlan,
    openSample,
    backToStudy,
  } = useOpenRequests(open, close)

  return (
    <div className="app">
      <TopBar
        onFile={openOther}
        onFiles={(files) => {
          onPlan(planFiles(files.map((file) => ({ path: file.name, file }))))
        }}
        onSample={openSample}
        onUrl={openUrl}
        input={fileInput}
        helpOpen={helpOpen}
        onHelp={() => {
          setHelpOpen(!helpOpen)
        }}
      />
      {helpOpen && (
        <HelpPanel
          onClose={() => {
            setHelpOpen(false)
          }}
        />
      )}
      {sampleError && (
        <div className="notice notice-error" role="alert">
          {sampleError}
        </div>
      )}
      {dropped && (
        <DropPanels
          dropped={dropped}
          onOpen={(file) => {
            openDropped(dropped.plan, file)
          }}
          onBack={backToStudy}
        />
      )}
      {session ? (
        // Keyed like the view: a new file gets a fresh boundary, and an exception in one file's view leaves the top bar.
        <ErrorBoundary key={session.id} what="this file">
          <FileView
            session={session}
            onRetry={() => {
              openSource(session.source)
            }}
            onReopen={openFile}
            link={link}
            annotations={dropped?.plan.annotations}
            mapInfo={dropped && mapInfoOf(dropped.sidecars)}
            onFingerprint={(fp) => {
              if (session.source.kind === 'file' && session.source.file instanceof File) {
                recent.remember(session.source.file, fp)
              }
            }}
          />
        </ErrorBoundary>
      ) : (
        !dropped && (
          <IdleView
            onSample={openSample}
            onChoose={() => {
              fileInput.current?.click()
            }}
          >
            <LinkPending target={link.target} />
            <RecentFiles
              recent={recent}
              onFile={openOther}
              onChoose={() => {
                fileInput.current?.click()
              }}
            />
          </IdleView>
        )
      )}
      <DropZone onFile={openOther} onPlan={onPlan} />
    </div>
  )
}

/** What a drop of a folder or several files shows: which files, the run's files, and a study of several RAD files. */
function DropPanels({
  dropped,
  onOpen,
  onBack,
}: {
  dropped: Dropped
  onOpen: (file: DroppedFile) => void
  onBack: () => void
}) {
  return (
    <>
      <DropChoice plan={dropped.plan} sidecars={dropped.sidecars} opened={dropped.opened} onOpen={onOpen} />
      {dropped.plan.study.length > 1 && (
        <StudySection plan={dropped.plan} opened={dropped.opened} onOpen={onOpen} onBack={onBack} />
      )}
    </>
  )
}
