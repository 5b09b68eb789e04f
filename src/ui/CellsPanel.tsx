import { useMemo } from 'react'
import type { CellRows, CellsJson } from '../rad/cells'
import { CellsPlot } from './CellsPlot'
import { CellsTable } from './CellsTable'
import { HistogramPlot } from './HistogramPlot'
import { fmtCount } from './format'
import './cells.css'

/** What the cells pass gave (docs/cells.md). */
export interface CellsView {
  json: CellsJson
  rows: CellRows
}

/** Records with a listed barcode or one a single substitution from one (Cell Ranger's "valid barcodes"). */
export function validBarcodeFraction(json: CellsJson): number | null {
  const p = json.permit
  if (!p) return null
  const total = p.exact + p.corrected + p.ambiguous + p.absent
  return total === 0 ? 0 : (p.exact + p.corrected) / total
}

const MITO_BINS = 20

/** Cells per 5 % of mito fraction, as histogram rows (percent, cells). */
function mitoHistogram(rows: CellRows): [number, number][] {
  const counts = new Array<number>(MITO_BINS).fill(0)
  for (const m of rows.mito) counts[Math.min(MITO_BINS - 1, Math.floor(m * MITO_BINS))]!++
  return counts.map((n, i) => [(i * 100) / MITO_BINS, n])
}

function Figure({ testId, label, value, text }: { testId: string; label: string; value: number | null; text: string }) {
  return (
    <div className="stat" data-testid={testId} data-value={value === null ? '' : String(value)}>
      <dt>{label}</dt>
      <dd>{value === null ? '—' : text}</dd>
    </div>
  )
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`

/** The cell and gene figures, the QC scatter, the mito distribution and the cells table. */
export function CellsPanel({ view, onPick }: { view: CellsView; onPick: (barcode: string) => void }) {
  const { json, rows } = view
  const histogram = useMemo(() => mitoHistogram(rows), [rows])
  const valid = validBarcodeFraction(json)
  return (
    <div className="cells-panel" data-testid="cells-panel">
      <dl className="stat-figures">
        <Figure
          testId="stat-cells"
          label={`Cells (${json.cells.cutoff.replace('_', ' ')})`}
          value={json.cells.count}
          text={fmtCount(json.cells.count)}
        />
        <Figure
          testId="stat-median-umis"
          label="Median UMIs per cell"
          value={json.cells.umis.median}
          text={fmtCount(json.cells.umis.median)}
        />
        <Figure
          testId="stat-median-genes"
          label="Median genes per cell"
          value={json.cells.genes.median}
          text={fmtCount(json.cells.genes.median)}
        />
        <Figure
          testId="stat-median-mito"
          label="Median mito fraction"
          value={json.cells.mito_fraction.median}
          text={pct(json.cells.mito_fraction.median)}
        />
        <Figure
          testId="stat-valid-barcodes"
          label="Valid barcodes"
          value={valid}
          text={valid === null ? '' : pct(valid)}
        />
        <Figure
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
      </div>
      <CellsTable rows={rows} onPick={onPick} />
    </div>
  )
}
