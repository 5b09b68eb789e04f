import { useCallback, useMemo } from 'react'
import type uPlot from 'uplot'
import type { CellRows } from '../../rad/cells'
import { UPlotChart, themeColor } from './UPlotChart'

const HEIGHT = 280
/** uPlot.Scale.Distr.Logarithmic (a const enum isolatedModules cannot read). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
const LOG = 3 as uPlot.Scale.Distr

interface Band {
  below: number
  label: string
  color: string
}

/** Mito-fraction bands, each drawn in its own colour (upper bounds, exclusive; the last open). */
export const MITO_BANDS: readonly Band[] = [
  { below: 0.05, label: 'mito < 5%', color: '--accent' },
  { below: 0.1, label: '5–10%', color: '--ok' },
  { below: 0.2, label: '10–20%', color: '--warn' },
  { below: Infinity, label: '≥ 20%', color: '--error' },
]

/** Unspliced-fraction bands: nuclei and damaged cells sit high (docs/cells.md, "Splicing"). */
export const UNSPLICED_BANDS: readonly Band[] = [
  { below: 0.1, label: 'unspliced < 10%', color: '--accent' },
  { below: 0.25, label: '10–25%', color: '--ok' },
  { below: 0.5, label: '25–50%', color: '--warn' },
  { below: Infinity, label: '≥ 50%', color: '--error' },
]

/** What colours the cells: the unspliced fraction when the t2g gives statuses, else the mito fraction. */
function colouring(rows: CellRows): { bands: readonly Band[]; of: Float64Array; what: 'unspliced' | 'mito' } {
  return rows.splicing
    ? { bands: UNSPLICED_BANDS, of: rows.splicing.fraction, what: 'unspliced' }
    : { bands: MITO_BANDS, of: rows.mito, what: 'mito' }
}

/** Scatter data: x = UMIs ascending, one y series (genes) per band, null elsewhere. */
function scatterData(rows: CellRows, bands: readonly Band[], of: Float64Array): uPlot.AlignedData {
  const bandOf = (v: number): number => bands.findIndex((b) => v < b.below)
  const order = Array.from(rows.umis.keys())
    .filter((i) => rows.umis[i]! > 0)
    .sort((a, b) => rows.umis[a]! - rows.umis[b]!)
  const x = order.map((i) => rows.umis[i]!)
  const ys = bands.map((_, band) => order.map((i) => (bandOf(of[i]!) === band ? rows.genes[i]! : null)))
  return [x, ...ys]
}

/**
 * UMIs against genes per cell on log–log axes, coloured by unspliced or mito fraction:
 * the scatter every analyst draws first (docs/cells.md). Cells without a
 * gene-unique UMI have no place on log axes and are left out.
 */
export function CellsPlot({ rows }: { rows: CellRows }) {
  const { bands, of, what } = colouring(rows)
  const data = useMemo(() => scatterData(rows, bands, of), [rows, bands, of])
  const build = useCallback(
    (width: number): uPlot.Options => ({
      width,
      height: HEIGHT,
      legend: { show: true, live: false },
      cursor: { show: false },
      scales: { x: { distr: LOG, time: false }, y: { distr: LOG } },
      axes: [axis('UMIs per cell'), { ...axis('Genes per cell'), size: 60 }],
      series: [
        {},
        ...bands.map((b) => ({
          label: b.label,
          stroke: () => themeColor(b.color),
          fill: () => themeColor(b.color),
          paths: () => null,
          points: { show: true, size: 4, fill: () => themeColor(b.color) },
        })),
      ],
    }),
    [bands],
  )
  return (
    <UPlotChart
      data={data}
      build={build}
      height={HEIGHT}
      label={`UMIs against genes per cell, coloured by ${what === 'mito' ? 'mitochondrial' : 'unspliced'} fraction`}
      testId="cells-plot"
    />
  )
}

function axis(label: string): uPlot.Axis {
  return {
    label,
    stroke: () => themeColor('--muted'),
    grid: { stroke: () => themeColor('--border'), width: 1 },
    ticks: { stroke: () => themeColor('--border') },
  }
}
