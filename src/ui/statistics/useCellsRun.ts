import { useCallback, useEffect, useState, useSyncExternalStore } from 'react'
import { DEFAULT_MITO } from '../../rad/cells'
import type { CellsRun, CellsState, RadSession } from '../../session'

export interface CellsHandle {
  /** The annotation files given so far (dropped with the file, then added). */
  files: File[]
  /** Adds files (one of the same name is replaced); the pass runs again with all of them. */
  add: (files: File[]) => void
  state: CellsState | undefined
  /** Why the pass could not start (the statistics are not done yet, a worker failed to start). */
  startError: string | undefined
  /** Stops the running pass (Add t2g… starts it again). */
  cancel: () => void
  /** The mitochondrial genes' pattern the pass counts with (rad stats --mito; docs/cells.md). */
  mito: string
  /** Counts again with another pattern (one that is not a regular expression is said by the pass). */
  setMito: (pattern: string) => void
}

const NO_RUN = (): (() => void) => () => undefined
const NO_STATE = (): undefined => undefined

/** A cut-off held this long is counted: a drag of the slider starts one pass, at its end. */
const CUT_SETTLE_MS = 400

/** `value`, once it has stayed the same for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => {
      setSettled(value)
    }, ms)
    return () => {
      clearTimeout(timer)
    }
  }, [value, ms])
  return settled
}

/**
 * The cells pass of one session (docs/cells.md): it runs once the statistics are done and at least
 * one annotation file was given, and again whenever files are added or the cut-off (`minReads`,
 * the barcodes with at least that many records; undefined: the knee) settles on other cells.
 */
export function useCellsRun(
  session: RadSession,
  dropped: readonly File[],
  statsDone: boolean,
  cutMinReads?: number,
): CellsHandle {
  const minReads = useSettled(cutMinReads, CUT_SETTLE_MS)
  const [files, setFiles] = useState<File[]>(() => [...dropped])
  const [run, setRun] = useState<CellsRun | undefined>(undefined)
  const [startError, setStartError] = useState<string | undefined>(undefined)
  const [mito, setMito] = useState(DEFAULT_MITO)
  useEffect(() => {
    if (!statsDone || files.length === 0) return
    let current = true
    session.passes.startCells(files, { minReads, mito }).then(
      (started) => {
        if (!current) {
          started.cancel()
          return
        }
        setStartError(undefined)
        setRun(started)
      },
      (e: unknown) => {
        if (current) setStartError(e instanceof Error ? e.message : String(e))
      },
    )
    return () => {
      current = false
    }
  }, [session, files, statsDone, minReads, mito])
  const state = useSyncExternalStore(run?.subscribe ?? NO_RUN, run?.getState ?? NO_STATE)
  const add = useCallback((added: File[]) => {
    setFiles((had) => [...had.filter((f) => !added.some((a) => a.name === f.name)), ...added])
  }, [])
  const cancel = useCallback(() => run?.cancel(), [run])
  return { files, add, state, startError, cancel, mito, setMito }
}
