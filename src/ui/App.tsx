import { useCallback, useEffect, useRef, useState } from 'react'
import { prewarmIndexWorker } from '../workers/client'
import { DropZone } from './DropZone'
import { FileView } from './FileView'
import { IdleView } from './IdleView'
import { TopBar } from './TopBar'
import { useRadSession } from './useRadSession'

const SAMPLE_URL = `${import.meta.env.BASE_URL}sample.rad`

/**
 * The state machine: idle (no file) → a session per opened file, which goes
 * opening → indexing → done | error on its own (see RadSession). Keying the
 * file view by session id resets every view state when a new file replaces
 * the old one, so no stale rows or figures can show.
 */
export function App() {
  const { session, open } = useRadSession()
  const [sampleError, setSampleError] = useState<string | undefined>(undefined)
  useEffect(prewarmIndexWorker, [])

  // Counts open requests, so a slow sample download never replaces a file opened meanwhile.
  const requests = useRef(0)
  const openFile = useCallback(
    (file: File) => {
      requests.current++
      setSampleError(undefined)
      open(file)
    },
    [open],
  )

  const openSample = useCallback(() => {
    const request = ++requests.current
    setSampleError(undefined)
    fetch(SAMPLE_URL)
      .then(async (res) => {
        if (!res.ok) throw new Error(`the server answered ${String(res.status)}`)
        // A Blob handle only: the bytes are read by the workers, not here.
        const blob = await res.blob()
        if (request === requests.current) open(new File([blob], 'sample.rad', { type: 'application/octet-stream' }))
      })
      .catch((e: unknown) => {
        setSampleError(`Could not load the sample file: ${e instanceof Error ? e.message : String(e)}`)
      })
  }, [open])

  return (
    <div className="app">
      <TopBar onFile={openFile} onSample={openSample} />
      {sampleError && (
        <div className="notice notice-error" role="alert">
          {sampleError}
        </div>
      )}
      {session ? (
        <FileView
          key={session.id}
          session={session}
          onRetry={() => {
            openFile(session.file)
          }}
          onReopen={openFile}
        />
      ) : (
        <IdleView onSample={openSample} />
      )}
      <DropZone onFile={openFile} />
    </div>
  )
}
