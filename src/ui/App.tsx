import { useCallback, useEffect, useRef, useState } from 'react'
import { prewarmIndexWorker, urlSpec } from '../session'
import type { SourceSpec } from '../session'
import { DropChoice } from './DropChoice'
import { readSidecars } from './dropEntries'
import { sidecarIndexFor } from './dropPlan'
import type { DropPlan, DroppedFile, Sidecar } from './dropPlan'
import { DropZone } from './DropZone'
import { ErrorBoundary } from './ErrorBoundary'
import { FileView } from './FileView'
import { HelpPanel } from './HelpPanel'
import { IdleView } from './IdleView'
import { LinkPending } from './LinkPending'
import { RecentFiles } from './RecentFiles'
import { TopBar } from './TopBar'
import { readUrlParam, showUrlParam } from './urlParam'
import { useDeepLink, useLinkedPanel } from './useDeepLink'
import { useHelpKeys } from './useHelpKeys'
import { useRadSession } from './useRadSession'
import { useRecentFiles } from './useRecentFiles'

const SAMPLE_URL = `${import.meta.env.BASE_URL}sample.rad`

/** A folder or several files dropped, the sidecars read from it, and which of its files is open. */
interface Dropped {
  plan: DropPlan
  sidecars: Sidecar[]
  opened: string | undefined
}

/**
 * The state machine: idle (no file) → a session per opened file, which goes
 * opening → indexing → done | error on its own (see RadSession). Keying the
 * file view by session id resets every view state when a new file replaces
 * the old one, so no stale rows or figures can show.
 */
export function App() {
  const { session, open } = useRadSession()
  const [sampleError, setSampleError] = useState<string | undefined>(undefined)
  const [dropped, setDropped] = useState<Dropped | undefined>(undefined)
  const link = useDeepLink()
  const recent = useRecentFiles()
  const [helpOpen, setHelpOpen] = useLinkedPanel(link, 'help')
  useHelpKeys(helpOpen, setHelpOpen)
  const fileInput = useRef<HTMLInputElement>(null)
  useEffect(prewarmIndexWorker, [])

  // Counts open requests, so a slow sample download never replaces a file opened meanwhile.
  const requests = useRef(0)
  const openSource = useCallback(
    (source: SourceSpec, sidecar?: File) => {
      requests.current++
      setSampleError(undefined)
      showUrlParam(source.kind === 'url' ? source.url : undefined)
      open(source, sidecar)
    },
    [open],
  )
  const openFile = useCallback(
    (file: File, sidecar?: File) => {
      openSource({ kind: 'file', file }, sidecar)
    },
    [openSource],
  )
  /** A URL from "Open URL…" or `?url=`: read by HTTP Range from its own server. */
  const openUrl = useCallback(
    (url: string) => {
      setDropped(undefined)
      try {
        openSource(urlSpec(url, location.href))
      } catch (e) {
        setSampleError(`Could not open ${url}: ${e instanceof Error ? e.message : String(e)}`)
      }
    },
    [openSource],
  )
  // `?url=` in the page address: opened once, after the first render (the workers start outside React).
  const urlParamSeen = useRef(false)
  useEffect(() => {
    if (urlParamSeen.current) return
    urlParamSeen.current = true
    const url = readUrlParam(location.search)
    if (url === undefined) return
    queueMicrotask(() => {
      openUrl(url)
    })
  }, [openUrl])
  /** A file from outside a dropped folder: the folder's panel goes. */
  const openOther = useCallback(
    (file: File) => {
      setDropped(undefined)
      openFile(file)
    },
    [openFile],
  )
  const openDropped = useCallback(
    (plan: DropPlan, file: DroppedFile) => {
      setDropped((d) => d && { ...d, opened: file.path })
      openFile(file.file, sidecarIndexFor(plan, file.path)?.file)
    },
    [openFile],
  )
  const onPlan = useCallback(
    (plan: DropPlan) => {
      setDropped({ plan, sidecars: [], opened: undefined })
      if (plan.open) openDropped(plan, plan.open)
      void readSidecars(plan.sidecarFiles).then((sidecars) => {
        setDropped((d) => (d?.plan === plan ? { ...d, sidecars } : d))
      })
    },
    [openDropped],
  )

  const openSample = useCallback(() => {
    const request = ++requests.current
    setSampleError(undefined)
    setDropped(undefined)
    fetch(SAMPLE_URL)
      .then(async (res) => {
        if (!res.ok) throw new Error(`the server answered ${String(res.status)}`)
        // A Blob handle only: the bytes are read by the workers, not here.
        const blob = await res.blob()
        if (request === requests.current) openFile(new File([blob], 'sample.rad', { type: 'application/octet-stream' }))
      })
      .catch((e: unknown) => {
        setSampleError(`Could not load the sample file: ${e instanceof Error ? e.message : String(e)}`)
      })
  }, [openFile])

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
