import { useCallback, useMemo, useState, useSyncExternalStore } from 'react'
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
import type { MapInfo } from '../../rad/report/mapInfo'
import { summaryOf } from '../../rad/report/summary'
import type { CellsJson } from '../../rad/cells'
import { SummaryPanel } from './SummaryPanel'
import { barcodeRankJson, generalStatsTsv } from '../../rad/report/multiqc'
import { sampleNames } from '../../rad/report/sampleNames'

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
  /** The mapper's run statistics dropped with the file (map_info.json): the summary's mapping rate. */
  mapInfo?: MapInfo | undefined
}

/** Below this width (stats.css's narrow layout) the panel's first lines are full. */
const NARROW_SCREEN = '(max-width: 599px)'

/** The statistics panel wired to the session's statistics pass (RadSession.stats). */
export function StatsSection(props: Props) {
  const { session, fileName, onPickBarcode, onPickReference, onCutoff } = props
  const stats = session.stats
  const view = useSyncExternalStore(stats.subscribe, stats.getState)
  const statsDone = view.phase === 'done'
  const json = view.report?.json
  // The cut-off of the slider drives the cells (issue 38 §2): a cut other than the knee's is counted.
  const [cut, setCut] = useState<KneeCut | undefined>(undefined)
  const kneeMin = json?.cutoffs?.knee?.minCount
  const cells = useCellsRun(
    session,
    props.annotations,
    statsDone,
    cut?.minCount === kneeMin ? undefined : cut?.minCount,
  )
  const reply = cells.state?.phase === 'done' ? cells.state.reply : undefined
  const narrow = useMediaQuery(NARROW_SCREEN)
  const hearCut = useCallback(
    (c: KneeCut) => {
      setCut(c)
      onCutoff?.(c)
    },
    [onCutoff],
  )
  const cellsOfCut =
    reply && (cut === undefined || reply.json.cells.min_reads === cut.minCount) ? reply.json : undefined
  const summary = useMemo(
    () => json && summaryOf(json, { cells: cellsOfCut, mapInfo: props.mapInfo, cut: summaryCut(cut, kneeMin) }),
    [json, cellsOfCut, props.mapInfo, cut, kneeMin],
  )
  const counting = cells.files.length > 0 && cellsOfCut === undefined && cells.state?.phase === 'running'
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
        // As rad stats --json prints it: the cells pass's keys, then the summary.
        saveFile(statsJsonFile({ ...withCells(json, reply), ...(summary ? { summary } : {}) }, fileName))
      }}
      onSaveTsv={() =>
        stats.tsv().then((text) => {
          saveFile(new File([text], `${baseName(fileName)}.stats.tsv`, { type: 'text/tab-separated-values' }))
        })
      }
      onSaveMultiqc={() => {
        if (!json || !summary) return
        const sample = {
          sample: sampleNames([fileName])[0]!,
          json: { ...withCells(json, reply), summary },
          curve: view.report?.curve,
        }
        saveFile(new File([generalStatsTsv([sample])], 'rad_stats_mqc.tsv', { type: 'text/tab-separated-values' }))
        saveFile(new File([barcodeRankJson([sample])], 'rad_barcode_rank_mqc.json', { type: 'application/json' }))
      }}
      onCutoff={hearCut}
      summary={summary && statsDone ? <SummaryPanel summary={summary} counting={counting} /> : undefined}
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

/** The slider's cut-off for the summary, named as the cells pass names it (cellsRun.ts, cellsCut). */
function summaryCut(cut: KneeCut | undefined, kneeMin: number | undefined) {
  return cut && { name: cut.minCount === kneeMin ? 'knee' : 'chosen', cells: cut.cells, readsShare: cut.readsShare }
}

/** The statistics JSON with the cells pass's keys, as `rad stats --t2g … --json` prints them. */
function withCells(json: StatsJson, reply: CellsReply | undefined): StatsJson & Partial<CellsJson> {
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
