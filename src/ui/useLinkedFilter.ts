import { useCallback, useEffect, useRef, useState } from 'react'
import type { SessionState } from '../session'
import { draftFromLink, draftToLink } from './filterDraft'
import type { FilterDraft } from './filterDraft'
import type { RecordFilterControl } from './useRecordFilter'
import type { DeepLink } from './useDeepLink'

/** A link's filter waiting for its file: the fingerprint it names, if any. */
interface Pending {
  draft: FilterDraft
  fp: string | undefined
}

/** For useRecordFilter's onRun: each filter that runs is written into the address as `filter=…`. */
export function useFilterToLink(link: DeepLink): (draft: FilterDraft) => void {
  const { update } = link
  return useCallback(
    (draft: FilterDraft) => {
      update({ filter: draftToLink(draft) })
    },
    [update],
  )
}

/**
 * Restores a deep link's `filter` (docs/links.md): the bar opens with those fields and runs them
 * once the file is indexed (a filter runs over the chunks indexed so far), unless the link names
 * another file (useSessionLink says so).
 */
export function useLinkedFilter(
  link: DeepLink,
  state: SessionState,
  fp: string | undefined,
  filter: RecordFilterControl,
): void {
  const { target, update } = link
  // A new file starts unfiltered: the address drops the last file's filter, unless this link brings one.
  const cleared = useRef(false)
  useEffect(() => {
    if (cleared.current) return
    cleared.current = true
    if (target?.state.filter === undefined) update({ filter: undefined })
  }, [target, update])
  const [pending, setPending] = useState<Pending | undefined>(undefined)
  const [seenSeq, setSeenSeq] = useState<number | undefined>(undefined)
  // Caught as soon as the link arrives: useSessionLink settles a link without a position at once.
  if (target && target.seq !== seenSeq) {
    setSeenSeq(target.seq)
    const draft = target.state.filter === undefined ? undefined : draftFromLink(target.state.filter)
    setPending(draft && { draft, fp: target.state.fp })
  }
  // A damaged file stops with an error, everything before the problem browsable: filter that too.
  const finished = state.phase === 'done' || (state.phase === 'error' && state.opened !== undefined)
  const indexed = finished && state.convention !== undefined
  const { apply } = filter
  const applied = useRef<Pending | undefined>(undefined)
  useEffect(() => {
    if (!pending || applied.current === pending || !indexed || fp === undefined) return
    applied.current = pending
    if (pending.fp === undefined || pending.fp === fp) apply(pending.draft)
  }, [pending, indexed, fp, apply])
}
