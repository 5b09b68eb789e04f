import { useCallback, useState } from 'react'
import type { RadSession } from '../workers/client'
import { ChunkList } from './ChunkList'
import { ErrorBanner } from './ErrorBanner'
import { FilePanel } from './FilePanel'
import { GotoControls } from './GotoControls'
import { IndexStatus } from './IndexStatus'
import { RecordTable } from './RecordTable'
import type { JumpRequest } from './RecordTable'
import { useSessionState } from './useRadSession'

interface Props {
  session: RadSession
}

/** Everything shown for one open file. Mounted fresh (keyed) for every file. */
export function FileView({ session }: Props) {
  const state = useSessionState(session)
  const [jump, setJump] = useState<JumpRequest | undefined>(undefined)
  const [cursorChunk, setCursorChunk] = useState(-1)

  const goRecord = useCallback((record: number) => {
    setJump((j) => ({ record, seq: (j?.seq ?? 0) + 1 }))
  }, [])
  const goChunk = useCallback(
    (chunk: number) => {
      setCursorChunk(chunk)
      goRecord(Math.min(session.index.firstRecord(chunk), Math.max(0, session.index.records - 1)))
    },
    [session, goRecord],
  )
  const cancel = useCallback(() => {
    session.cancel()
  }, [session])

  const { opened, semantics } = state
  return (
    <main className="file-view" data-testid="file-view" data-session={session.id}>
      <IndexStatus state={state} onCancel={cancel} />
      {state.error && <ErrorBanner error={state.error} state={state} />}
      {opened && semantics && (
        <div className="workspace">
          <aside className="sidebar">
            <FilePanel state={state} opened={opened} semantics={semantics} />
            <ChunkList
              index={session.index}
              chunks={state.chunks}
              current={cursorChunk}
              onSelect={goChunk}
              session={session}
            />
          </aside>
          <section className="records" aria-label="Records">
            <GotoControls records={state.records} chunks={state.chunks} onRecord={goRecord} onChunk={goChunk} />
            <RecordTable
              session={session}
              prelude={opened.prelude}
              semantics={semantics}
              records={state.records}
              jump={jump}
              onCursorChunk={setCursorChunk}
            />
          </section>
        </div>
      )}
    </main>
  )
}
