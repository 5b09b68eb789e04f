import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { formatLink, parseLink, sameLink } from './deepLink'
import type { LinkState } from './deepLink'

/** The hash is rewritten at most this often while the user scrolls: history.replaceState is throttled by browsers (~100 calls / 10 s in Safari). */
const WRITE_EVERY_MS = 250

/** A link to apply to the next file opened (or the open one): from the page's address at load, or typed into it since. */
export interface LinkTarget {
  state: LinkState
  /** Changes with every new target, so the same link typed twice applies twice. */
  seq: number
}

export interface DeepLink {
  /** The link not yet applied, if any. */
  target: LinkTarget | undefined
  /** The target was applied (or refused): forget it. */
  settle: (seq: number) => void
  /** Merges `patch` into the state kept in the address (throttled replaceState). */
  update: (patch: LinkState) => void
  /** Writes a pending update now (before the address is copied). */
  flush: () => void
  /** The state the address holds (or will, after the throttle). */
  current: () => LinkState
}

let nextSeq = 1

function addressWith(state: LinkState): string {
  const { pathname, search } = window.location
  return `${pathname}${search}${formatLink(state)}`
}

/**
 * Keeps the view state in the page address's hash (deepLink.ts). Reads it once at load and on
 * every hand edit (hashchange); writes it with history.replaceState, so moving around adds no
 * history entries.
 */
export function useDeepLink(): DeepLink {
  const kept = useRef<LinkState>(parseLink(window.location.hash))
  const [target, setTarget] = useState<LinkTarget | undefined>(() =>
    window.location.hash.length > 1 ? { state: parseLink(window.location.hash), seq: nextSeq++ } : undefined,
  )
  const timer = useRef<number | undefined>(undefined)
  /** The hash as this hook last wrote or heard it: another one is a hand edit whose hashchange is still queued. */
  const known = useRef(window.location.hash)

  const flush = useCallback(() => {
    window.clearTimeout(timer.current)
    timer.current = undefined
    // A hand edit not heard yet wins: writing over it lost it (its hashchange then read our write).
    if (window.location.hash !== known.current) return
    const next = addressWith(kept.current)
    if (next !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, '', next)
    }
    known.current = window.location.hash
  }, [])

  const update = useCallback(
    (patch: LinkState) => {
      const next = { ...kept.current, ...patch }
      if (sameLink(next, kept.current)) return
      kept.current = next
      timer.current ??= window.setTimeout(flush, WRITE_EVERY_MS)
    },
    [flush],
  )

  const settle = useCallback((seq: number) => {
    setTarget((t) => (t?.seq === seq ? undefined : t))
  }, [])

  useEffect(() => {
    const onHashChange = () => {
      known.current = window.location.hash
      const state = parseLink(window.location.hash)
      kept.current = state
      setTarget({ state, seq: nextSeq++ })
    }
    window.addEventListener('hashchange', onHashChange)
    return () => {
      window.removeEventListener('hashchange', onHashChange)
      window.clearTimeout(timer.current)
    }
  }, [])

  return useMemo(
    () => ({ target, settle, update, flush, current: () => kept.current }),
    [target, settle, update, flush],
  )
}

/**
 * A panel's open state kept in the address as `panel=NAME`: opened by a link, written back when
 * the user opens or closes it.
 */
export function useLinkedPanel(link: DeepLink, name: string): [boolean, (open: boolean) => void] {
  const { target, update, current } = link
  const [open, setOpen] = useState(() => target?.state.panel === name)
  const [seenSeq, setSeenSeq] = useState(target?.seq)
  // A new link decides, as soon as it arrives (React's "adjust state on a prop change" pattern).
  if (target && target.seq !== seenSeq) {
    setSeenSeq(target.seq)
    setOpen(target.state.panel === name)
  }
  const set = useCallback(
    (next: boolean) => {
      setOpen(next)
      if (next) update({ panel: name })
      else if (current().panel === name) update({ panel: undefined })
    },
    [update, current, name],
  )
  return [open, set]
}
