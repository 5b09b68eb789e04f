import { useCallback, useEffect, useState } from 'react'
import { prewarmIndexWorker } from '../workers/client'
import { DropOverlay } from './DropOverlay'
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

  const openSample = useCallback(() => {
    setSampleError(undefined)
    fetch(SAMPLE_URL)
      .then(async (res) => {
        if (!res.ok) throw new Error(`the server answered ${String(res.status)}`)
        // A Blob handle only: the bytes are read by the workers, not here.
        const blob = await res.blob()
        open(new File([blob], 'sample.rad', { type: 'application/octet-stream' }))
      })
      .catch((e: unknown) => {
        setSampleError(`Could not load the sample file: ${e instanceof Error ? e.message : String(e)}`)
      })
  }, [open])

  return (
    <div className="app">
      <TopBar onFile={open} onSample={openSample} />
      {sampleError && (
        <div className="notice notice-error" role="alert">
          {sampleError}
        </div>
      )}
      {session ? <FileView key={session.id} session={session} /> : <IdleView onSample={openSample} />}
      <DropOverlay onFile={open} />
    </div>
  )
}
