import { useState } from 'react'
import type { ReactNode } from 'react'
import type { StatsJson } from '../../rad/stats/statsTypes'
import type { StatsCutoffs } from '../../session'
import type { StatsView } from '../../session'
import type { KneeCut } from '../export/exportChoice'
import { fmtCount } from '../format'
import { HistogramPlot } from './HistogramPlot'
import { KneeFigure } from './KneeFigure'
import { RankedBars } from './RankedBars'
import { StatFigure } from './StatFigure'
import { StatsStatus } from './StatsStatus'
import { RadError } from '../../rad/errors'
import './stats.css'

export interface StatsPanelProps {
  view: StatsView
  fileName: string
  onCancel: () => void
  onRestart: () => void
  onSaveJson: (json: StatsJson) => void
  /** `rad stats FILE --tsv` (barcode, reads, distinct UMIs, above-knee flag), saved as a file. */
  onSaveTsv?: () => Promise<void>
  /** `rad stats FILE --multiqc DIR`'s two files, for this file (docs/stats.md, "MultiQC"). */
  onSaveMultiqc?: () => void
  /** Hears the knee plot's cut-off as it moves (the export of the cells above it). */
  onCutoff?: (cut: KneeCut) => void
  /** alevin-fry's --expect-cells / --force-cells, asked of the finished pass. */
  onAskCutoffs: (expectCells: number | undefined, forceCells: number | undefined) => Promise<StatsCutoffs>
  /** The seam to the record filters (branch `search`): for now, jump to the barcode's first record. */
  onPickBarcode: (seq: string) => void
  onPickReference: (name: string) => void
  /** Shown at the end of the panel (the cells and genes: CellsSection.tsx). */
  children?: ReactNode
  /** Shown at the top, under the head (the summary: SummaryPanel.tsx). */
  summary?: ReactNode
  /** More controls, beside the plots' disclosure (the annotations control)… */
  actions?: ReactNode
  /** …or inside it, on a narrow screen, where its line is full. */
  actionsInside?: boolean
}

/** The whole-file statistics (docs/stats.md, ADR 0004): figures, plots and top lists, all computed in the decode workers. */
export function StatsPanel(props: StatsPanelProps) {
  const { view } = props
  const json = view.report?.json
  // Compact by default (the records keep their room); expanded, the QC reads without an inner scroll bar.
  const [expanded, setExpanded] = useState(false)
  return (
    <section
      className={expanded ? 'stats-panel stats-panel-expanded' : 'stats-panel'}
      data-testid="stats-panel"
      data-state={view.phase}
      data-source={view.restored ? (view.restoredFrom ?? 'cache') : 'pass'}
      aria-labelledby="stats-title"
    >
      <div className="stats-head">
        <h2 id="stats-title">Statistics</h2>
        <StatsStatus view={view} onCancel={props.onCancel} onRestart={props.onRestart} />
        <button
          type="button"
          className="btn btn-small"
          data-testid="stats-expand"
          aria-pressed={expanded}
          title={
            expanded
              ? 'Give the records their room again'
              : 'Show the whole statistics panel; the page scrolls to the records'
          }
          onClick={() => {
            setExpanded(!expanded)
          }}
        >
          {expanded ? 'Compact' : 'Expand'}
        </button>
        {json && view.phase === 'done' && (
          <button
            type="button"
            className="btn btn-small"
            data-testid="stats-save-json"
            onClick={() => {
              props.onSaveJson(json)
            }}
          >
            Save JSON
          </button>
        )}
        {json && view.phase === 'done' && props.onSaveMultiqc && (
          <button
            type="button"
            className="btn btn-small"
            data-testid="stats-save-multiqc"
            title="MultiQC custom-content files (rad stats FILE --multiqc DIR): put them in a folder MultiQC reads"
            onClick={props.onSaveMultiqc}
          >
            MultiQC files
          </button>
        )}
        {json?.barcodes && view.phase === 'done' && props.onSaveTsv && (
          <SaveTsv
            onSave={props.onSaveTsv}
            countsFirst={view.totalsMissing === true}
            counting={view.totalsProgress !== undefined}
          />
        )}
      </div>
      {props.summary}
      <Figures json={json} />
      {json ? (
        <StatsDetails {...props} json={json} />
      ) : (
        <div className="stats-details stats-details-pending" aria-hidden="true">
          <span className="stats-details-label">Plots and top lists</span>
        </div>
      )}
      {!props.actionsInside && props.actions}
      {props.children}
    </section>
  )
}

/** The MultiQC-friendly TSV, asked of the decode worker holding the totals. */
function SaveTsv({
  onSave,
  countsFirst,
  counting,
}: {
  onSave: () => Promise<void>
  countsFirst: boolean
  /** The count behind a kept report runs: the TSV of this click comes when it ends. */
  counting: boolean
}) {
  const [failure, setFailure] = useState<string | undefined>(undefined)
  return (
    <>
      <button
        type="button"
        className="btn btn-small"
        data-testid="stats-save-tsv"
        title={
          'Barcode, reads, distinct UMIs and the above-knee flag, one barcode a line (MultiQC-friendly; rad stats --tsv)' +
          (countsFirst
            ? '. These figures were kept, not counted here: every barcode is counted first (reads the whole file).'
            : '')
        }
        data-counts-first={countsFirst}
        disabled={counting}
        onClick={() => {
          setFailure(undefined)
          onSave().catch((e: unknown) => {
            // Cancelled by the user (the count behind a kept report): nothing to say.
            if (e instanceof RadError && e.code === 'CANCELLED') return
            setFailure(`Could not save the TSV: ${e instanceof Error ? e.message : String(e)}`)
          })
        }}
      >
        Save TSV
      </button>
      {failure && <span role="alert">{failure}</span>}
    </>
  )
}

/**
 * The headline figures. Before the first report they are drawn as dashes (and the plots'
 * disclosure as a muted line), hidden from screen readers and without their test ids, so the
 * panel has its final height from the start: when it grew as the first report came, the table
 * below moved under the pointer and a jump to its last row could end hidden
 * (e2e/navigate.spec.ts).
 */
function Figures({ json }: { json: StatsJson | undefined }) {
  const bc = json?.barcodes
  const umis = json?.umis
  const id = (testId: string): string | undefined => (json ? testId : undefined)
  return (
    <dl className="stat-figures" aria-hidden={json ? undefined : true}>
      <StatFigure label="Records" value={json?.records} />
      <StatFigure label="Alignments" value={json?.alignments} />
      <StatFigure
        testId={id('stat-distinct-barcodes')}
        label="Distinct barcodes"
        value={bc?.distinct}
        note={bc && !bc.exact ? `± ${fmtCount(Math.round(bc.distinct_error))} (estimate)` : undefined}
      />
      <StatFigure testId={id('stat-knee')} label="Cells (knee)" value={json?.knee} />
      <StatFigure
        testId={id('stat-umi-pairs')}
        label="Barcode–UMI pairs"
        value={umis?.distinct_pairs}
        note={umis && !umis.exact ? `± ${(umis.relative_error * 100).toFixed(1)}% (estimate)` : undefined}
      />
      <StatFigure
        testId={id('stat-saturation')}
        label="Saturation"
        value={umis?.sequencing_saturation}
        text={umis ? `${(umis.sequencing_saturation * 100).toFixed(1)}%` : undefined}
      />
    </dl>
  )
}

function StatsDetails(props: StatsPanelProps & { json: StatsJson }) {
  const { json, view } = props
  const curve = view.report?.curve
  const [open, setOpen] = useState(false)
  return (
    <details
      className="stats-details"
      open={open}
      onToggle={(e) => {
        setOpen(e.currentTarget.open)
      }}
    >
      <summary>Plots and top lists</summary>
      {props.actionsInside && props.actions}
      <div className="stats-grid">
        {curve && curve.rank.length > 1 && (
          <KneeFigure
            curve={curve}
            json={json}
            view={props.view}
            onCutoff={props.onCutoff}
            onAskCutoffs={props.onAskCutoffs}
          />
        )}
        {/* The knee figure stays mounted (it tells the export its cut-off); the rest is drawn when shown. */}
        {open && <ShownDetails {...props} json={json} />}
      </div>
    </details>
  )
}

/** The histograms and top lists, drawn only while the disclosure is open. */
function ShownDetails(props: StatsPanelProps & { json: StatsJson }) {
  const { json } = props
  return (
    <>
      {json.alignments_per_record.length > 0 && (
        <figure className="stats-figure">
          <figcaption>Alignments per record</figcaption>
          <HistogramPlot
            rows={json.alignments_per_record}
            xLabel="Alignments"
            yLabel="Records"
            label="Histogram of alignments per record"
          />
        </figure>
      )}
      {json.orientation && <Orientation counts={json.orientation} />}
      {json.references && json.references.top.all.length > 0 && (
        <figure className="stats-figure">
          <figcaption>
            Alignments per reference (top {json.references.top.all.length} of{' '}
            {fmtCount(json.references.with_alignments)} with alignments)
          </figcaption>
          <RankedBars
            rows={json.references.top.all}
            total={json.alignments}
            onPick={props.onPickReference}
            pickTitle={(name) => `Show the first record aligned to ${name}`}
            testId="stats-top-references"
            label="References with the most alignments"
          />
        </figure>
      )}
      {json.barcodes && json.barcodes.top.length > 0 && (
        <figure className="stats-figure">
          <figcaption>Barcodes with the most records</figcaption>
          <RankedBars
            rows={json.barcodes.top}
            total={json.records}
            onPick={props.onPickBarcode}
            pickTitle={(seq) => `Show the first record of barcode ${seq}`}
            mono
            testId="stats-top-barcodes"
            label="Barcodes with the most records"
          />
        </figure>
      )}
    </>
  )
}

function Orientation({ counts }: { counts: Record<string, number> }) {
  const rows = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  const total = rows.reduce((s, [, n]) => s + n, 0)
  return (
    <figure className="stats-figure">
      <figcaption>Orientation of alignments</figcaption>
      <RankedBars rows={rows} total={total} testId="stats-orientation" label="Alignments by orientation" />
    </figure>
  )
}
