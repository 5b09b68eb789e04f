import { useMemo } from 'react'
import type { CellRows, CellsJson } from '../../rad/cells'
import { CellsPlot } from './CellsPlot'
import { CellsTable } from './CellsTable'
import { HistogramPlot } from './HistogramPlot'
import { fmtCount } from '../format'
import './cells.css'
import { StatFigure, fmtShare } from './StatFigure'
import { validBarcodeFraction } from '../../rad/report/summary'

/** What the cells pass gave (docs/cells.md). */
export interface CellsView {
  json: CellsJson
  rows: CellRows
}

const MITO_BINS = 20

/** Cells per 5 % of mito fraction, as histogram rows (percent, cells). */
function mitoHistogram(rows: CellRows): [number, number][] {
  const counts = new Array<number>(MITO_BINS).fill(0)
  for (const m of rows.mito) counts[Math.min(MITO_BINS - 1, Math.floor(m * MITO_BINS))]!++
  return counts.map((n, i) => [(i * 100) / MITO_BINS, n])
}

/** The cell and gene figures, the QC scatter, the mito distribution and the cells table. */
export function CellsPanel({
  view,
  source = 'pass',
  onPick,
}: {
  view: CellsView
  /** Counted by this page's pass, or kept by the cache or the sidecar (data-source). */
  source?: 'pass' | 'cache' | 'sidecar'
  onPick: (barcode: string) => void
}) {
  const { json, rows } = view
  const histogram = useMemo(() => mitoHistogram(rows), [rows])
  const valid = validBarcodeFraction(json)
  return (
    <div className="cells-panel" data-testid="cells-panel" data-source={source}>
      <dl className="stat-figures">
        <StatFigure
          testId="stat-cells"
          label={`Cells (${json.cells.cutoff.replace('_', ' ')})`}
          value={json.cells.count}
          text={fmtCount(json.cells.count)}
        />
        <StatFigure
          testId="stat-median-umis"
          label="Median UMIs per cell"
          value={json.cells.umis.median}
          text={fmtCount(json.cells.umis.median)}
        />
        <StatFigure
          testId="stat-median-genes"
          label="Median genes per cell"
          value={json.cells.genes.median}
          text={fmtCount(json.cells.genes.median)}
        />
        <StatFigure
          testId="stat-median-mito"
          label="Median mito fraction"
          value={json.cells.mito_fraction.median}
          text={fmtShare(json.cells.mito_fraction.median)}
        />
        {json.cells.unspliced_fraction && (
          <StatFigure
            testId="stat-unspliced-fraction"
            label="Median unspliced fraction"
            value={json.cells.unspliced_fraction.median}
            text={fmtShare(json.cells.unspliced_fraction.median)}
          />
        )}
        <StatFigure
          testId="stat-valid-barcodes"
          label="Valid barcodes"
          value={valid}
          text={valid === null ? undefined : fmtShare(valid)}
        />
        <StatFigure
          testId="stat-genes-detected"
          label="Genes detected"
          value={json.genes.detected}
          text={fmtCount(json.genes.detected)}
        />
      </dl>
      <div className="cells-plots">
        <CellsPlot rows={rows} />
        <HistogramPlot
          rows={histogram}
          xLabel="Mito fraction (%)"
          yLabel="Cells"
          label="Cells by mitochondrial fraction"
        />
        <UmiDuplicationPlot dup={json.umi_duplication} />
      </div>
      <CellsTable rows={rows} onPick={onPick} />
    </div>
  )
}

/** Reads per (cell, UMI) over the cells' records (docs/cells.md, "UMI duplication"). */
function UmiDuplicationPlot({ dup }: { dup: CellsJson['umi_duplication'] }) {
  const sampled = dup.cells < dup.of_cells ? ` (${fmtCount(dup.cells)} of ${fmtCount(dup.of_cells)} cells)` : ''
  return (
    <figure className="cells-figure" data-testid="cells-umi-duplication" data-median={String(dup.reads_per_umi.median)}>
      <figcaption>
        Reads per UMI: median {dup.reads_per_umi.median}, mean {dup.reads_per_umi.mean.toFixed(2)}
        {sampled}
      </figcaption>
      <HistogramPlot
        rows={dup.histogram}
        xLabel="Reads per (cell, UMI)"
        yLabel="UMIs"
        label="UMIs of the cells by their reads (UMI duplication)"
      />
    </figure>
  )
}
