import { useCallback, useSyncExternalStore } from 'react'
import type { StatsJson } from '../rad/stats/types'
import type { RecordQuery } from '../rad/stats/firstMatch'
import type { RadSession } from '../workers/client'
import { saveFile } from './saveFile'
import { StatsPanel } from './StatsPanel'

interface Props {
  session: RadSession
  fileName: string
  onPickBarcode: (seq: string) => void
  onPickReference: (name: string) => void
}

/** The statistics panel wired to the session's statistics pass (RadSession.stats). */
export function StatsSection({ session, fileName, onPickBarcode, onPickReference }: Props) {
  const stats = session.stats
  const view = useSyncExternalStore(stats.subscribe, stats.getState)
  return (
    <StatsPanel
      view={view}
      fileName={fileName}
      onCancel={() => {
        stats.cancel()
      }}
      onRestart={() => {
        stats.start(session.index)
      }}
      onSaveJson={(json: StatsJson) => {
        saveFile(statsJsonFile(json, fileName))
      }}
      onAskCutoffs={(e, f) => stats.cutoffs(e, f)}
      onPickBarcode={onPickBarcode}
      onPickReference={onPickReference}
    />
  )
}

/** The JSON as `rad stats FILE --json` prints it, named after the file. */
export function statsJsonFile(json: StatsJson, fileName: string): File {
  const base = fileName.replace(/\.rad$/i, '') || 'file'
  return new File([`${JSON.stringify(json, null, 2)}\n`], `${base}.stats.json`, { type: 'application/json' })
}

/**
 * The click-through for now: jump the table to the first record with the
 * barcode, or aligned to the reference. This is the seam for the record
 * filters (branch `search`): they replace these two callbacks with opening
 * a filter.
 */
export function useFirstRecordJump(
  session: RadSession,
  onRecord: (record: number) => void,
): { onPickBarcode: (seq: string) => void; onPickReference: (name: string) => void } {
  const jump = useCallback(
    (query: RecordQuery) => {
      void session.stats.firstRecord(session.index, query).then((record) => {
        if (record !== undefined) onRecord(record)
      })
    },
    [session, onRecord],
  )
  return {
    onPickBarcode: useCallback(
      (seq: string) => {
        jump({ barcode: seq })
      },
      [jump],
    ),
    onPickReference: useCallback(
      (name: string) => {
        jump({ reference: name })
      },
      [jump],
    ),
  }
}
