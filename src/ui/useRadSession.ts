import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { openRadSource } from '../session'
import { browserIndexCache } from './persist/indexCache'
import type { RadSession, SessionState, SourceSpec } from '../session'
import type { KeptCells } from '../rad/cells/cellsSection'

interface Holder {
  current: { current: RadSession | undefined }
  set: (session: RadSession) => void
}

/**
 * Replaces the held session by one for `source`. "Check every record", or a sidecar's or cached
 * index that disagrees with the file (docs/sidecar.md), opens the same source again, fresh: scanned.
 */
function openSession(
  holder: Holder,
  source: SourceSpec,
  sidecar: File | undefined,
  fresh: { because: string | undefined; keptCells?: readonly KeptCells[] } | undefined,
): void {
  holder.current.current?.dispose()
  const next = openRadSource(source, {
    indexCache: browserIndexCache,
    ...(sidecar ? { sidecar } : {}),
    ...(fresh ? { fresh } : {}),
    onRescan: (because, keptCells) => {
      if (holder.current.current === next) openSession(holder, source, undefined, { because, keptCells })
    },
  })
  holder.current.current = next
  holder.set(next)
}

/**
 * Owns the RadSession of the current file. Opening another file disposes the
 * previous session first (terminating all its workers), so nothing from it
 * can run or show again.
 */
export function useRadSession(): {
  session: RadSession | undefined
  open: (source: SourceSpec, sidecar?: File) => void
  /** Disposes the open file's session: nothing is open (a study's Back). */
  close: () => void
} {
  const [session, setSession] = useState<RadSession | undefined>(undefined)
  const current = useRef<RadSession | undefined>(undefined)

  const open = useCallback((source: SourceSpec, sidecar?: File) => {
    openSession({ current, set: setSession }, source, sidecar, undefined)
  }, [])

  const close = useCallback(() => {
    current.current?.dispose()
    current.current = undefined
    setSession(undefined)
  }, [])

  useEffect(
    () => () => {
      current.current?.dispose()
      current.current = undefined
    },
    [],
  )

  return { session, open, close }
}

export function useSessionState(session: RadSession): SessionState {
  return useSyncExternalStore(session.subscribe, session.getState)
}

/** Re-renders whenever a decoded chunk arrives (or fails). */
export function useDataVersion(session: RadSession): number {
  return useSyncExternalStore(session.subscribeData, session.getDataVersion)
}
