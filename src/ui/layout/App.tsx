import { useEffect, useMemo, useRef } from 'react'
import { prewarmIndexWorker } from '../../session'
import { DropChoice } from '../open/DropChoice'
import { DropZone } from '../open/DropZone'
import { mapInfoOf, planFiles } from '../open/dropPlan'
import { StudySection, samplesOfDrop, samplesOfUrls } from '../study/StudySection'
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
import type { UrlStudy } from '../open/useUrlStudy'
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
  const requests = useOpenRequests(open, close)
  const { sampleError, dropped, openSource, openFile, openUrl, openOther, openDropped, onPlan, openSample } = requests

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
          onBack={requests.backToStudy}
        />
      )}
      {requests.urlStudy && (
        <UrlStudyPanel study={requests.urlStudy} onOpen={requests.openUrlSample} onBack={requests.backToStudy} />
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
  const { plan } = dropped
  const samples = useMemo(() => samplesOfDrop(plan), [plan])
  return (
    <>
      <DropChoice plan={plan} sidecars={dropped.sidecars} opened={dropped.opened} onOpen={onOpen} />
      {samples.length > 1 && (
        <StudySection
          samples={samples}
          opened={dropped.opened}
          onOpen={(sample) => {
            const file = plan.study.find((f) => f.path === sample.path)
            if (file) onOpen(file)
          }}
          onBack={onBack}
        />
      )}
    </>
  )
}

/** A study of URLs from the address (`?study=A&study=B`, docs/study.md). */
function UrlStudyPanel({
  study,
  onOpen,
  onBack,
}: {
  study: UrlStudy
  onOpen: (url: string) => void
  onBack: () => void
}) {
  const samples = useMemo(() => samplesOfUrls(study.urls), [study.urls])
  return (
    <StudySection
      samples={samples}
      opened={study.opened}
      onOpen={(sample) => {
        onOpen(sample.path)
      }}
      onBack={onBack}
    />
  )
}
