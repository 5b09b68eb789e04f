import type { Cutoff } from '../../rad/stats/statsTypes'
import { fmtCount } from '../format'

/** A vertical marker on the knee plot's rank axis. */
export interface RankMark {
  rank: number
  label: string
  /** app.css colour variable. */
  color: string
}

/** The cut-offs the user asked for (CutoffControls): only the ones given, each undefined when not. */
export interface AskedCutoffs {
  expect: Cutoff | undefined
  force: Cutoff | undefined
}

/**
 * The knee plot's markers: the knee, and alevin-fry's --expect-cells / --force-cells cut-offs
 * only once the user has set them (the statistics' defaults are not what anyone asked for).
 */
export function kneeMarks(kneeRank: number | undefined, asked: AskedCutoffs | undefined): RankMark[] {
  const out: RankMark[] = []
  if (kneeRank) out.push({ rank: kneeRank, label: `knee ${fmtCount(kneeRank)}`, color: '--ok' })
  if (asked?.expect) {
    out.push({ rank: asked.expect.cells, label: `expect-cells ${fmtCount(asked.expect.cells)}`, color: '--warn' })
  }
  if (asked?.force) {
    out.push({ rank: asked.force.cells, label: `force-cells ${fmtCount(asked.force.cells)}`, color: '--rc' })
  }
  return out
}

/** A label to draw beside its vertical line at `x`, `width` wide (px). */
export interface LineLabel {
  x: number
  width: number
}

/** Where a label goes: its left edge, and its row (0 at the top of the plot, one label height each). */
export interface PlacedLabel {
  left: number
  row: number
}

/** Space between a label and its line, and between two labels on one row (px). */
const GAP = 4

/**
 * Places the labels of vertical lines in a plot spanning `plotLeft`…`plotRight` so none leaves
 * the plot and none overlaps another: right of its line, or left of it when it would leave the
 * plot, on the first row (from the top) where it meets no label placed before it.
 */
export function placeLabels(labels: readonly LineLabel[], plotLeft: number, plotRight: number): PlacedLabel[] {
  const rows: [number, number][][] = []
  return labels.map(({ x, width }) => {
    let left = x + GAP
    if (left + width > plotRight) left = x - GAP - width
    left = Math.max(plotLeft, Math.min(left, plotRight - width))
    const right = left + width
    let row = rows.findIndex((spans) => spans.every(([a, b]) => right + GAP <= a || left >= b + GAP))
    if (row < 0) row = rows.push([]) - 1
    rows[row]?.push([left, right])
    return { left, row }
  })
}
