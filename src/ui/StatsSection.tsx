import { useSyncExternalStore } from 'react'
import type { StatsJson } from '../rad/stats/types'
import type { RadSession } from '../session'
import type { KneeCut } from './exportChoice'
import { saveFile } from './saveFile'
import { StatsPanel } from './StatsPanel'

interface Props {
  session: RadSession
  fileName: string
  onPickBarcode: (seq: string) => void
  onPickReference: (name: string) => void
  /** The knee plot's cut-off as it moves (FileView hands it to the export dialog). */
  onCutoff?: (cut: KneeCut) => void
}

/** The statistics panel wired to the session's statistics pass (RadSession.stats). */
export function StatsSection({ session, fileName, onPickBarcode, onPickReference, onCutoff }: Props) {
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
      onSaveTsv={() =>
        stats.tsv().then((text) => {
          saveFile(new File([text], `${baseName(fileName)}.stats.tsv`, { type: 'text/tab-separated-values' }))
        })
      }
      onCutoff={onCutoff}
      onAskCutoffs={(e, f) => stats.cutoffs(e, f)}
      onPickBarcode={onPickBarcode}
      onPickReference={onPickReference}
    />
  )
}

/** The JSON as `rad stats FILE --json` prints it, named after the file. */
export function statsJsonFile(json: StatsJson, fileName: string): File {
  return new File([`${JSON.stringify(json, null, 2)}\n`], `${baseName(fileName)}.stats.json`, {
    type: 'application/json',
  })
}

function baseName(fileName: string): string {
  return fileName.replace(/\.rad$/i, '') || 'file'
}
