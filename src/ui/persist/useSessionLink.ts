import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { fingerprintKey } from '../../session'
import type { RadSession, SessionState } from '../../session'
import { hasPosition } from './deepLink'
import type { LinkState } from './deepLink'
import type { ViewPosition } from '../table/useTableFollow'
import type { DeepLink } from './useDeepLink'

/** The record a link shows: its `record`, else the first of its `chunk`, else its `open`; undefined until the index reaches it. */
export function linkRecord(link: LinkState, state: SessionState, session: RadSession): number | undefined {
  const finished = state.phase === 'done' || state.phase === 'error'
  const last = Math.max(0, state.records - 1)
  if (link.record !== undefined || link.open !== undefined) {
    const record = link.record ?? link.open ?? 0
    if (record < state.records) return record
    return finished ? last : undefined
  }
  if (link.chunk === undefined) return undefined
  if (link.chunk < state.chunks) return Math.min(session.index.firstRecord(link.chunk), last)
  return finished ? last : undefined
}

interface SessionLink {
  /** This file's fingerprint key, once known. */
  fp: string | undefined
  /** Set when the link named another file. */
  mismatch: string | undefined
  /** For RecordTable's onView: writes the position into the address. */
  onView: (view: ViewPosition) => void
}

/**
 * Ties one open file to the page address (docs/links.md): applies a pending link once the file's
 * fingerprint is known and the index reaches the linked record (a link naming another file is
 * refused with a message), then keeps the address following the view.
 */
export function useSessionLink(
  session: RadSession,
  state: SessionState,
  link: DeepLink,
  jump: (record: number, open: number | undefined) => void,
  onFingerprint?: (fp: string) => void,
): SessionLink {
  const [mismatch, setMismatch] = useState<string | undefined>(undefined)
  const hashed = state.opened?.hashed
  // The sidecar's fingerprint, one function for links, the index cache and sidecars (fingerprintKey).
  const fp = useMemo(() => hashed && fingerprintKey(hashed), [hashed])

  // Once per fingerprint: the caller's function is new at each of its renders, and calling it again
  // (it writes the recent files, whose update renders the caller) looped for the whole session.
  const told = useRef<string | undefined>(undefined)
  useEffect(() => {
    if (fp === undefined || told.current === fp) return
    told.current = fp
    onFingerprint?.(fp)
  }, [fp, onFingerprint])

  const { target, settle, update } = link
  const refused = target && fp !== undefined && target.state.fp !== undefined && target.state.fp !== fp
  // Each new link, once the fingerprint is known, sets or clears the message (adjusting state during render).
  const [judged, setJudged] = useState<number | undefined>(undefined)
  if (target && fp !== undefined && target.seq !== judged) {
    setJudged(target.seq)
    setMismatch(
      refused
        ? `The page address links to another file (fingerprint ${target.state.fp ?? ''}); this file is ${fp}. Showing it from the start.`
        : undefined,
    )
  }

  useEffect(() => {
    if (!target || fp === undefined) return
    if (refused || !hasPosition(target.state)) {
      settle(target.seq)
      return
    }
    const record = linkRecord(target.state, state, session)
    if (record === undefined) return
    jump(record, target.state.open)
    settle(target.seq)
  }, [target, fp, refused, state, session, jump, settle])

  const pending = target !== undefined
  useEffect(() => {
    if (fp !== undefined && !pending) update({ fp })
  }, [fp, pending, update])

  const onView = useCallback(
    (view: ViewPosition) => {
      if (!pending && fp !== undefined) update({ fp, record: view.record, chunk: view.chunk, open: view.open })
    },
    [pending, fp, update],
  )
  return { fp, mismatch, onView }
}
