import { useCallback, useMemo } from 'react'
import type uPlot from 'uplot'
import type { RankCurve } from '../../rad/stats/logDownsample'
import { UPlotChart, themeColor } from '../statistics/UPlotChart'

const HEIGHT = 280
/** uPlot.Scale.Distr.Logarithmic (a const enum isolatedModules cannot read). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
const LOG = 3 as uPlot.Scale.Distr

/** Sample colours, told apart in light and dark (the theme's four, then four more). */
export const SAMPLE_COLOURS = ['--accent', '--ok', '--warn', '--error', '#8250df', '#1b7c83', '#bf3989', '#6e7781']

export function sampleColour(i: number): string {
  const c = SAMPLE_COLOURS[i % SAMPLE_COLOURS.length]!
  return c.startsWith('--') ? themeColor(c) : c
}

export interface StudyCurve {
  sample: string
  curve: RankCurve | undefined
  /** The knee's cells: its rank on the curve. */
  knee: number | null
}

/** One x axis for every curve (their ranks, merged), each curve's counts at its own ranks, null elsewhere. */
function overlaid(curves: readonly StudyCurve[]): uPlot.AlignedData {
  const ranks = [...new Set(curves.flatMap((c) => (c.curve ? [...c.curve.rank] : [])))].sort((a, b) => a - b)
  const at = new Map(ranks.map((r, i) => [r, i]))
  const series = curves.flatMap((c) => {
    const line: (number | null)[] = new Array<number | null>(ranks.length).fill(null)
    const knee: (number | null)[] = new Array<number | null>(ranks.length).fill(null)
    c.curve?.rank.forEach((r, i) => {
      line[at.get(r)!] = c.curve!.count[i]!
      if (r === c.knee) knee[at.get(r)!] = c.curve!.count[i]!
    })
    return [line, knee]
  })
  return [ranks, ...series]
}

/** The samples' barcode rank curves overlaid (log–log), each in its colour with its knee marked. */
export function StudyKneePlot({ curves }: { curves: readonly StudyCurve[] }) {
  const data = useMemo(() => overlaid(curves), [curves])
  const names = curves.map((c) => c.sample).join('\u0000')
  const build = useCallback(
    (width: number): uPlot.Options => ({
      width,
      height: HEIGHT,
      // The table's swatches are the legend: one line per sample here would repeat it.
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { distr: LOG, time: false }, y: { distr: LOG } },
      axes: [axis('Barcode rank'), { ...axis('Reads'), size: 60 }],
      series: [
        {},
        ...names.split('\u0000').flatMap((sample, i) => [
          { label: sample, stroke: () => sampleColour(i), width: 2, spanGaps: true, points: { show: false } },
          {
            label: `${sample} knee`,
            stroke: () => sampleColour(i),
            paths: () => null,
            points: { show: true, size: 9, width: 2, fill: () => themeColor('--panel') },
          },
        ]),
      ],
    }),
    [names],
  )
  return (
    <UPlotChart
      data={data}
      build={build}
      height={HEIGHT}
      label={`Barcode rank curves of ${String(curves.length)} samples, each with its knee`}
      testId="study-knee-plot"
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
