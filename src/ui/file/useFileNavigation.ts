import { useCallback, useState } from 'react'
import type { RadSession } from '../../session'
import type { JumpRequest } from '../table/useTableFollow'

/**
 * Where the open file's view goes: a record (with one to expand), a chunk's first record, or a
 * problem's place from the integrity panel; and the chunk the view is in (the chunk list's mark).
 */
export function useFileNavigation(session: RadSession) {
  const [jump, setJump] = useState<JumpRequest | undefined>(undefined)
  const [cursorChunk, setCursorChunk] = useState(-1)
  const goRecord = useCallback((record: number, open?: number) => {
    setJump((j) => ({ record, open, seq: (j?.seq ?? 0) + 1 }))
  }, [])
  const goChunk = useCallback(
    (chunk: number) => {
      setCursorChunk(chunk)
      goRecord(Math.min(session.index.firstRecord(chunk), Math.max(0, session.index.records - 1)))
    },
    [session, goRecord],
  )
  /** From the integrity panel: a problem past the indexed chunks shows the last records before it. */
  const goIssue = useCallback(
    (chunk: number) => {
      const count = session.index.count
      if (count === 0) return
      if (chunk < count) {
        goChunk(chunk)
        return
      }
      setCursorChunk(count - 1)
      goRecord(Math.max(0, session.index.records - 1))
    },
    [session, goChunk, goRecord],
  )
  return { jump, cursorChunk, setCursorChunk, goRecord, goChunk, goIssue }
}
