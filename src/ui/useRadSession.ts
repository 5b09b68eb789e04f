import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { openRadSource } from '../workers/client'
import { browserIndexCache } from './persist/indexCache'
import type { RadSession, SessionState, SourceSpec } from '../workers/client'

/**
 * Owns the RadSession of the current file. Opening another file disposes the
 * previous session first (terminating all its workers), so nothing from it
 * can run or show again.
 */
export function useRadSession(): {
  session: RadSession | undefined
  open: (source: SourceSpec, sidecar?: File) => void
} {
  const [session, setSession] = useState<RadSession | undefined>(undefined)
  const current = useRef<RadSession | undefined>(undefined)

  const open = useCallback((source: SourceSpec, sidecar?: File) => {
    current.current?.dispose()
    const next = openRadSource(source, { indexCache: browserIndexCache, ...(sidecar ? { sidecar } : {}) })
    current.current = next
    setSession(next)
  }, [])

  useEffect(
    () => () => {
      current.current?.dispose()
      current.current = undefined
    },
    [],
  )

  return { session, open }
}

export function useSessionState(session: RadSession): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState)
}

/** Re-renders whenever a decoded chunk arrives (or fails). */
export function useDataVersion(session: RadSession): number {
  return useSyncExternalStore(session.subscribeData, session.getDataVersion)
}
