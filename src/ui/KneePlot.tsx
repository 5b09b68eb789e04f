import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import type uPlot from 'uplot'
import type { RankCurve } from '../rad/stats/logDownsample'
import { pointAtRank } from '../rad/stats/logDownsample'
import { UPlotChart, themeColor } from './UPlotChart'

/** A vertical marker on the rank axis. */
export interface RankMark {
  rank: number
  label: string
  /** app.css colour variable. */
  color: string
}

interface Props {
  curve: RankCurve
  /** Index into the curve's points of the draggable cut-off. */
  cutoff: number
  onCutoff: (point: number) => void
  marks: readonly RankMark[]
}

const HEIGHT = 260
/** uPlot.Scale.Distr.Logarithmic: a const enum, which isolatedModules cannot read, so its value. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment
const LOG = 3 as uPlot.Scale.Distr

/**
 * The barcode-rank plot on log–log axes (reads per barcode against rank),
 * drawn from the thinned curve (logDownsample), with the knee and the other
 * cut-offs as lines and a cut-off the mouse drags (the slider beside it is
 * the keyboard's way).
 */
export function KneePlot({ curve, cutoff, onCutoff, marks }: Props) {
  const data = useMemo<uPlot.AlignedData>(() => [curve.rank, curve.count], [curve])
  const state = useRef({ cutoff, marks, curve, onCutoff })
  useLayoutEffect(() => {
    state.current = { cutoff, marks, curve, onCutoff }
  })
  const chartRef = useRef<uPlot | undefined>(undefined)
  const point = (u: uPlot, left: number): number => pointAtRank(state.current.curve, u.posToVal(left, 'x'))

  const build = useCallback(
    (width: number): uPlot.Options => ({
      width,
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false, setScale: false }, points: { show: false } },
      scales: { x: { distr: LOG, time: false }, y: { distr: LOG } },
      axes: [axis('Barcode rank'), { ...axis('Reads'), size: 60 }],
      series: [{}, { stroke: () => themeColor('--accent'), width: 2, points: { show: false } }],
      hooks: {
        draw: [
          (u) => {
            const { ctx } = u
            const s = state.current
            s.marks.forEach((m, i) => {
              drawRankLine(u, ctx, m.rank, themeColor(m.color), [4, 4], m.label, i + 1)
            })
            const at = s.curve.rank[s.cutoff]
            if (at !== undefined) drawRankLine(u, ctx, at, themeColor('--text'), [], 'cut-off', 0)
          },
        ],
      },
    }),
    [],
  )
  const ready = useCallback((u: uPlot) => {
    chartRef.current = u
    let dragging = false
    const over = u.over
    const set = (ev: MouseEvent): void => {
      const rect = over.getBoundingClientRect()
      state.current.onCutoff(point(u, ev.clientX - rect.left))
    }
    over.addEventListener('mousedown', (ev) => {
      dragging = true
      set(ev)
    })
    over.addEventListener('mousemove', (ev) => {
      if (dragging) set(ev)
    })
    window.addEventListener('mouseup', () => {
      dragging = false
    })
  }, [])
  // A new cut-off or marks: redraw the lines over the same curve.
  useEffect(() => {
    chartRef.current?.redraw(false, false)
  }, [cutoff, marks])
  return (
    <UPlotChart
      data={data}
      build={build}
      height={HEIGHT}
      onReady={ready}
      label="Barcode-rank plot"
      testId="knee-plot"
    />
  )
}

function axis(label: string): uPlot.Axis {
  const color = (): string => themeColor('--muted')
  return {
    label,
    stroke: color,
    grid: { stroke: () => themeColor('--border-soft'), width: 1 },
    ticks: { stroke: () => themeColor('--border'), width: 1 },
  }
}

function drawRankLine(
  u: uPlot,
  ctx: CanvasRenderingContext2D,
  rank: number,
  color: string,
  dash: number[],
  label: string,
  row: number,
): void {
  const x = u.valToPos(rank, 'x', true)
  const { top, height } = u.bbox
  ctx.save()
  ctx.strokeStyle = color
  ctx.fillStyle = color
  ctx.lineWidth = 1.5 * devicePixelRatio
  ctx.setLineDash(dash.map((d) => d * devicePixelRatio))
  ctx.beginPath()
  ctx.moveTo(x, top)
  ctx.lineTo(x, top + height)
  ctx.stroke()
  ctx.font = `${String(11 * devicePixelRatio)}px system-ui, sans-serif`
  ctx.fillText(label, x + 4 * devicePixelRatio, top + (12 + 13 * row) * devicePixelRatio)
  ctx.restore()
}
