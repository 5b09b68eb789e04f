import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import type uPlot from 'uplot'
import type { RankCurve } from '../../rad/stats/logDownsample'
import { pointAtRank } from '../../rad/stats/logDownsample'
import { placeLabels } from './kneeLabels'
import type { RankMark } from './kneeLabels'
import { UPlotChart, themeColor } from './UPlotChart'

export type { RankMark } from './kneeLabels'

/** What the plot ranks barcodes by: their reads, or their distinct UMIs. */
export type RankBy = 'reads' | 'umis'

interface Props {
  /** Reads per barcode: the cut-off's points are this curve's. */
  curve: RankCurve
  /** Distinct UMIs per barcode, drawn instead when given (the UMIs view); the cut-off stays a rank. */
  umiCurve?: RankCurve | undefined
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
 * The barcode-rank plot on log–log axes (reads per barcode against rank, or distinct UMIs per
 * barcode against their rank by UMIs), drawn from the thinned curve (logDownsample), with the knee
 * and the other cut-offs as lines and a cut-off the mouse drags (the slider beside it is the
 * keyboard's way). By UMIs, the ranks up to the cut-off's (as many barcodes as the cells) are
 * coloured: the cells are chosen by reads, so near the cut-off a few may differ.
 */
export function KneePlot({ curve, umiCurve, cutoff, onCutoff, marks }: Props) {
  const by: RankBy = umiCurve ? 'umis' : 'reads'
  // Two series that meet at the cut-off: the cells (ranks up to it) and the background after it.
  const data = useMemo<uPlot.AlignedData>(
    () =>
      umiCurve ? splitAtCutoff(umiCurve, pointAtRank(umiCurve, curve.rank[cutoff] ?? 1)) : splitAtCutoff(curve, cutoff),
    [curve, umiCurve, cutoff],
  )
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
      axes: [axis('Barcode rank'), { ...axis(by === 'umis' ? 'UMIs' : 'Reads'), size: 60 }],
      series: [
        {},
        { label: 'cells', stroke: () => themeColor('--accent'), width: 2, points: { show: false } },
        { label: 'background', stroke: () => themeColor('--muted'), width: 2, points: { show: false } },
      ],
      hooks: {
        draw: [
          (u) => {
            const s = state.current
            const at = s.curve.rank[s.cutoff]
            const lines = [
              ...(at === undefined ? [] : [{ rank: at, label: 'cut-off', color: '--text', dash: [] }]),
              ...s.marks.map((m) => ({ ...m, dash: [4, 4] })),
            ]
            drawRankLines(u, lines)
          },
        ],
      },
    }),
    [by],
  )
  const dragging = useRef(false)
  const ready = useCallback((u: uPlot) => {
    chartRef.current = u
    const over = u.over
    const set = (ev: MouseEvent): void => {
      const rect = over.getBoundingClientRect()
      state.current.onCutoff(point(u, ev.clientX - rect.left))
    }
    over.addEventListener('mousedown', (ev) => {
      dragging.current = true
      set(ev)
    })
    over.addEventListener('mousemove', (ev) => {
      if (dragging.current) set(ev)
    })
  }, [])
  // A drag ends wherever the button is let go. Removed with the plot: a listener left on the
  // window kept every closed file's chart, and the page's tree with it (issue 40, renderer memory).
  useEffect(() => {
    const release = (): void => {
      dragging.current = false
    }
    window.addEventListener('mouseup', release)
    return () => {
      window.removeEventListener('mouseup', release)
    }
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
      label={
        by === 'umis'
          ? 'Barcode-rank plot by distinct UMIs: as many barcodes as the cells in colour, the background after them in grey'
          : 'Barcode-rank plot by reads: the cells up to the cut-off in colour, the background after it in grey'
      }
      testId="knee-plot"
    />
  )
}

/** The curve as [rank, cells' counts (up to the cut-off), background's (from it)], null elsewhere. */
function splitAtCutoff(curve: RankCurve, cutoff: number): uPlot.AlignedData {
  const cells = Array.from(curve.count, (c, i) => (i <= cutoff ? c : null))
  const background = Array.from(curve.count, (c, i) => (i >= cutoff ? c : null))
  return [curve.rank, cells, background]
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

/** Label text (CSS px): the font's size, and a row's height. */
const LABEL_PX = 11
const LABEL_ROW_PX = 13

/**
 * The cut-off and the markers as vertical lines, each labelled beside it; the labels are placed
 * so none overlaps another or leaves the plot, however narrow it is (kneeLabels.ts). Their boxes
 * (CSS px, relative to the plot) go to the chart's data-labels, for the browser tests.
 */
function drawRankLines(
  u: uPlot,
  lines: readonly { rank: number; label: string; color: string; dash: number[] }[],
): void {
  const { ctx } = u
  const dpr = devicePixelRatio
  const { left, top, width, height } = u.bbox
  ctx.save()
  ctx.font = `${String(LABEL_PX * dpr)}px system-ui, sans-serif`
  // uPlot leaves the axes' text alignment set (right, middle): the placement assumes left, alphabetic.
  ctx.textAlign = 'left'
  ctx.textBaseline = 'alphabetic'
  const xs = lines.map((l) => u.valToPos(l.rank, 'x', true))
  const placed = placeLabels(
    lines.map((l, i) => ({ x: (xs[i] ?? 0) / dpr, width: ctx.measureText(l.label).width / dpr })),
    left / dpr,
    (left + width) / dpr,
  )
  const boxes: { label: string; left: number; top: number; width: number; height: number }[] = []
  const backdrop = themeColor('--panel')
  const colors = lines.map((l) => themeColor(l.color))
  // The lines first, then every label over them.
  lines.forEach((l, i) => {
    const x = xs[i] ?? 0
    ctx.strokeStyle = colors[i] ?? ''
    ctx.lineWidth = 1.5 * dpr
    ctx.setLineDash(l.dash.map((d) => d * dpr))
    ctx.beginPath()
    ctx.moveTo(x, top)
    ctx.lineTo(x, top + height)
    ctx.stroke()
  })
  lines.forEach((l, i) => {
    const at = placed[i] ?? { left: 0, row: 0 }
    const baseline = top / dpr + LABEL_PX + 1 + LABEL_ROW_PX * at.row
    const box = {
      label: l.label,
      left: at.left,
      top: baseline - LABEL_PX,
      width: ctx.measureText(l.label).width / dpr,
      height: LABEL_PX + 2,
    }
    // A backdrop keeps the label readable over the other lines and the curve.
    ctx.fillStyle = backdrop
    ctx.globalAlpha = 0.85
    ctx.fillRect((box.left - 1) * dpr, box.top * dpr, (box.width + 2) * dpr, box.height * dpr)
    ctx.globalAlpha = 1
    ctx.fillStyle = colors[i] ?? ''
    ctx.fillText(l.label, at.left * dpr, baseline * dpr)
    boxes.push(box)
  })
  ctx.restore()
  u.root.parentElement?.setAttribute('data-labels', JSON.stringify(boxes))
}
