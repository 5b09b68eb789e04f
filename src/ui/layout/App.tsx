import { useEffect, useRef } from 'react'
import { prewarmIndexWorker } from '../../session'
import { DropChoice } from '../open/DropChoice'
import { DropZone } from '../open/DropZone'
import { mapInfoOf } from '../open/dropPlan'
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
import { useRadSession } from '../useRadSession'
import { useRecentFiles } from '../persist/useRecentFiles'

/**
 * The state machine: idle (no file) → a session per opened file, which goes
 * opening → indexing → done | error on its own (see RadSession). Keying the
 * file view by session id resets every view state when a new file replaces
 * the old one, so no stale rows or figures can show.
 */
export function App() {
  const { session, open } = useRadSession()
  const link = useDeepLink()
  const recent = useRecentFiles()
  const [helpOpen, setHelpOpen] = useLinkedPanel(link, 'help')
  useHelpKeys(helpOpen, setHelpOpen)
  const fileInput = useRef<HTMLInputElement>(null)
  useEffect(prewarmIndexWorker, [])
  const { sampleError, dropped, openSource, openFile, openUrl, openOther, openDropped, onPlan, openSample } =
    useOpenRequests(open)

  return (
    <div className="app">
      <TopBar
        onFile={openOther}
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
        <DropChoice
          plan={dropped.plan}
          sidecars={dropped.sidecars}
          opened={dropped.opened}
          onOpen={(file) => {
            openDropped(dropped.plan, file)
          }}
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
