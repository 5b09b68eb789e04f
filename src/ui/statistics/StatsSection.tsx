import { useSyncExternalStore } from 'react'
import type { StatsJson } from '../../rad/stats/statsTypes'
import type { Semantics } from '../../rad/prelude/semantics'
import type { CellsReply, RadSession } from '../../session'
import { AnnotationsInput, CellsSection } from './CellsSection'
import { cellsNotApplicable } from '../../session'
import type { KneeCut } from '../export/exportChoice'
import { saveFile } from '../saveFile'
import { StatsPanel } from './StatsPanel'
import { useCellsRun } from './useCellsRun'
import { useMediaQuery } from '../useMediaQuery'

interface Props {
  session: RadSession
  fileName: string
  onPickBarcode: (seq: string) => void
  onPickReference: (name: string) => void
  /** The knee plot's cut-off as it moves (FileView hands it to the export dialog). */
  onCutoff?: (cut: KneeCut) => void
  /** Annotation files dropped with the RAD file (docs/cells.md), sorted by content in the cells worker. */
  annotations: readonly File[]
  semantics: Semantics | undefined
}

/** Below this width (stats.css's narrow layout) the panel's first lines are full. */
const NARROW_SCREEN = '(max-width: 599px)'

/** The statistics panel wired to the session's statistics pass (RadSession.stats). */
export function StatsSection(props: Props) {
  const { session, fileName, onPickBarcode, onPickReference, onCutoff } = props
  const stats = session.stats
  const view = useSyncExternalStore(stats.subscribe, stats.getState)
  const statsDone = view.phase === 'done'
  const cells = useCellsRun(session, props.annotations, statsDone)
  const reply = cells.state?.phase === 'done' ? cells.state.reply : undefined
  const narrow = useMediaQuery(NARROW_SCREEN)
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
        saveFile(statsJsonFile(withCells(json, reply), fileName))
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
      actionsInside={narrow}
      actions={
        props.semantics && cellsNotApplicable(props.semantics) === undefined ? (
          <AnnotationsInput onFiles={cells.add} />
        ) : undefined
      }
    >
      <CellsSection
        cells={cells}
        semantics={props.semantics}
        statsDone={statsDone}
        fileName={fileName}
        onPickBarcode={onPickBarcode}
      />
    </StatsPanel>
  )
}

/** The statistics JSON with the cells pass's keys, as `rad stats --t2g … --json` prints them. */
function withCells(json: StatsJson, reply: CellsReply | undefined): StatsJson {
  return reply ? { ...json, ...reply.json } : json
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
