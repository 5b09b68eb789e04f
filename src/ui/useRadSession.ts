import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { openRadFile } from '../workers/client'
import type { RadSession, SessionState } from '../workers/client'

/**
 * Owns the RadSession of the current file. Opening another file disposes the
 * previous session first (terminating all its workers), so nothing from it
 * can run or show again.
 */
export function useRadSession(): {
  session: RadSession | undefined
  open: (file: File, sidecar?: File) => void
} {
  const [session, setSession] = useState<RadSession | undefined>(undefined)
  const current = useRef<RadSession | undefined>(undefined)

  const open = useCallback((file: File, sidecar?: File) => {
    current.current?.dispose()
    const next = openRadFile(file, sidecar ? { sidecar } : undefined)
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
