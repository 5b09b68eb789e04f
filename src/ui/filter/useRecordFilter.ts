import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { FilterRun, FilterState, RadSession } from '../../session'
import { EMPTY_DRAFT, draftToFilter } from './filterDraft'
import type { FilterDraft } from './filterDraft'

/** The page's record filter: the bar's fields, the run in progress, and ways to start one from elsewhere. */
export interface RecordFilterControl {
  draft: FilterDraft
  setDraft: (draft: FilterDraft) => void
  run: FilterRun | undefined
  /** What is wrong with the fields (not a file problem: those are in the run's state). */
  problem: string | undefined
  /** Runs the filter in the bar's fields. */
  start: () => void
  cancel: () => void
  /** Filters on one barcode (e.g. clicked in the statistics panel): the bar shows it and the filter starts. */
  pickBarcode: (seq: string) => void
  /** Filters on one reference, by exact name (a regex anchored at both ends). */
  pickReference: (name: string) => void
  /** Shows the bar with these fields and runs them (a deep link's `filter`). */
  apply: (draft: FilterDraft) => void
  /** Whether the filter bar is shown (folded away, the records get its height). */
  shown: boolean
  setShown: (shown: boolean) => void
}

/** `ENST0001|GeneA` → `/^ENST0001\|GeneA$/`: exactly that reference. */
function exactName(name: string): string {
  return `/^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$/`
}

/**
 * `initiallyShown`: the bar starts open on a wide screen, folded behind its toggle on a phone.
 * `onRun` hears each draft that starts a run (the deep link keeps it: useLinkedFilter.ts).
 */
export function useRecordFilter(
  session: RadSession,
  initiallyShown = false,
  onRun?: (draft: FilterDraft) => void,
): RecordFilterControl {
  const [draft, setDraft] = useState<FilterDraft>(EMPTY_DRAFT)
  const [run, setRun] = useState<FilterRun | undefined>(undefined)
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const [shown, setShown] = useState(initiallyShown)
  const current = useRef<FilterRun | undefined>(undefined)

  const runDraft = useCallback(
    (d: FilterDraft) => {
      const filter = draftToFilter(d)
      if ('problem' in filter) {
        setProblem(filter.problem)
        return
      }
      setProblem(undefined)
      current.current?.cancel()
      const next = session.passes.startFilter(filter)
      current.current = next
      setRun(next)
      if (!next) setProblem('The file is not open yet: try again in a moment.')
      else onRun?.(d)
    },
    [session, onRun],
  )

  useEffect(() => () => current.current?.cancel(), [])

  const start = useCallback(() => {
    runDraft(draft)
  }, [runDraft, draft])
  const cancel = useCallback(() => {
    current.current?.cancel()
  }, [])
  const apply = useCallback(
    (d: FilterDraft) => {
      setShown(true)
      setDraft(d)
      runDraft(d)
    },
    [runDraft],
  )
  const pickBarcode = useCallback(
    (seq: string) => {
      apply({ ...EMPTY_DRAFT, barcode: seq })
    },
    [apply],
  )
  const pickReference = useCallback(
    (name: string) => {
      apply({ ...EMPTY_DRAFT, ref: exactName(name) })
    },
    [apply],
  )
  return { draft, setDraft, run, problem, start, cancel, pickBarcode, pickReference, apply, shown, setShown }
}

const IDLE = (): undefined => undefined
const NO_SUBSCRIPTION = (): (() => void) => () => undefined

/** The run's state, re-rendering as matches arrive. */
export function useFilterState(run: FilterRun | undefined): FilterState | undefined {
  return useSyncExternalStore(run?.subscribe ?? NO_SUBSCRIPTION, run?.getState ?? IDLE)
}
