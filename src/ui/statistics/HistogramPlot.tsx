import { useCallback, useMemo } from 'react'
import uPlot from 'uplot'
import { UPlotChart, themeColor } from './UPlotChart'

interface Props {
  /** `[value, count]`, ascending value (StatsJson histograms). */
  rows: readonly (readonly [number, number])[]
  xLabel: string
  yLabel: string
  label: string
}

const HEIGHT = 200

/** A histogram as uPlot bars (the alignments-per-record histogram). */
export function HistogramPlot({ rows, xLabel, yLabel, label }: Props) {
  const data = useMemo<uPlot.AlignedData>(
    () => [Float64Array.from(rows, (r) => r[0]), Float64Array.from(rows, (r) => r[1])],
    [rows],
  )
  const build = useCallback(
    (width: number): uPlot.Options => ({
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { show: false },
      scales: {
        x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] },
        y: { range: (_u, _min, max) => [0, max * 1.05] },
      },
      axes: [
        {
          label: xLabel,
          stroke: () => themeColor('--muted'),
          grid: { show: false },
          ticks: { stroke: () => themeColor('--border') },
        },
        {
          label: yLabel,
          size: 60,
          stroke: () => themeColor('--muted'),
          grid: { stroke: () => themeColor('--border-soft') },
          ticks: { stroke: () => themeColor('--border') },
        },
      ],
      series: [
        {},
        {
          fill: () => themeColor('--accent'),
          stroke: () => themeColor('--accent'),
          paths: uPlot.paths.bars?.({ size: [0.8, 40] }),
          points: { show: false },
        },
      ],
    }),
    [xLabel, yLabel],
  )
  return <UPlotChart data={data} build={build} height={HEIGHT} label={label} />
}
