/**
 * The statistics section of a `.rdx` sidecar (docs/sidecar.md, "Sections" and "The statistics
 * section"): a finished statistics report — the JSON `rad stats FILE --json` prints, the knee
 * plot's thinned rank curve — as JSON, with the name of its writer. `rad index` writes it from
 * the pass that builds the index (src/cli/indexCommand.ts), the page from its own pass into its
 * index cache (ADR 0007); both are read back here and checked before a panel shows them.
 * Pure: no DOM, no Node.
 */
import { fmtInt } from '../errors'
import type { Prelude } from '../types'
import type { Semantics } from '../prelude/semantics'
import { barcodeRuns, statsJson } from './json'
import { umiRuns } from './umiJson'
import { depthProblem } from '../jsonShape'
import { statsJsonProblem } from './statsJsonShape'
import { runsOf } from './countRuns'
import type { Descending } from './countRuns'
import { RANK_CURVE_POINTS, logDownsample } from './logDownsample'
import type { RankCurve } from './logDownsample'
import type { StatsJson, StatsState } from './statsTypes'

/** A statistics report: what the panel shows and `Save JSON` saves. */
export interface StatsReport {
  json: StatsJson
  /** The barcode-rank curve, thinned in log space; undefined for files without a cell barcode. */
  curve: RankCurve | undefined
  /**
   * The same by distinct UMIs per barcode (the knee plot's UMIs view): undefined for files without
   * a UMI, and in reports kept before it was stored.
   */
  umiCurve?: RankCurve | undefined
  /** Who counted it, when not this page ("rad index 0.1.0"): read from a sidecar's section. */
  writer?: string
  /** Bytes this page's pass spilled to the browser's private storage to count exactly (ADR 0015); not stored. */
  spilledBytes?: number
}

/** The rank curve of reads per barcode, descending, thinned for the plot with the JSON's cut-offs kept exactly. */
export function rankCurveOf(descending: Descending, json: StatsJson): RankCurve | undefined {
  const runs = runsOf(descending)
  if (runs.barcodes === 0) return undefined
  const c = json.cutoffs
  const exact = [c?.knee?.cells, c?.expect_cells?.cells, c?.force_cells?.cells].filter((n) => n !== undefined)
  return logDownsample(runs, RANK_CURVE_POINTS, exact)
}

/**
 * The rank curve of distinct UMIs per barcode (umiRuns), thinned as the reads' curve with the same
 * ranks kept exactly; undefined without UMIs or barcodes.
 */
export function umiRankCurveOf(state: StatsState, json: StatsJson): RankCurve | undefined {
  return json.umis && json.barcodes ? rankCurveOf(umiRuns(state), json) : undefined
}

/** The finished report of an accumulator's state: the same JSON and curves the page's pass shows (statsWorker.ts). */
export function statsReportOf(state: StatsState, prelude: Prelude, sem: Semantics): StatsReport {
  const json = statsJson(state, prelude, sem)
  return { json, curve: rankCurveOf(barcodeRuns(state), json), umiCurve: umiRankCurveOf(state, json) }
}

function curveJson(curve: RankCurve | undefined): unknown {
  return (
    curve && {
      rank: Array.from(curve.rank),
      count: Array.from(curve.count),
      cumulative: Array.from(curve.cumulative),
      barcodes: curve.barcodes,
      total: curve.total,
    }
  )
}

/** A report as the section holds it: JSON, the curve's typed arrays as lists, and `writer` when given. */
export function statsToJson(report: StatsReport, writer?: string): unknown {
  const { curve } = report
  return {
    ...(writer === undefined ? {} : { writer }),
    json: report.json,
    curve: curveJson(curve),
    ...(report.umiCurve ? { umi_curve: curveJson(report.umiCurve) } : {}),
  }
}

/** Levels of objects and arrays a written section has (json.orientation_by_type.type.ori is 4), with room. */
const MAX_SECTION_DEPTH = 8

/** A list of numbers of at most `max` (its length looked at first), as a typed array. */
function numbers(value: unknown, max: number): Float64Array | undefined {
  if (!Array.isArray(value) || value.length > max) return undefined
  return value.every((v) => typeof v === 'number') ? Float64Array.from(value) : undefined
}

function curveOf(value: unknown): RankCurve | undefined {
  if (typeof value !== 'object' || value === null) return undefined
  const c = value as Record<string, unknown>
  // logDownsample's points, the last rank and three cut-offs at most: a longer curve was not thinned.
  const max = RANK_CURVE_POINTS + 4
  const rank = numbers(c.rank, max)
  const count = numbers(c.count, max)
  const cumulative = numbers(c.cumulative, max)
  if (!rank || !count || !cumulative || typeof c.barcodes !== 'number' || typeof c.total !== 'number') return undefined
  if (count.length !== rank.length || cumulative.length !== rank.length) return undefined
  return { rank, count, cumulative, barcodes: c.barcodes, total: c.total }
}

/**
 * Why `value` is not a report statsToJson wrote (an older or foreign sidecar, or a crafted one
 * with a valid checksum: docs/sidecar.md, "A sidecar is a claim"), in words; undefined when it is
 * one. Every field the statistics panel reads is checked, so a kept report never throws when shown.
 */
export function statsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'it is not an object'
  // First, before any field is read: a value nested too deep (an extra key a writer never writes).
  const deep = depthProblem(value, MAX_SECTION_DEPTH, 'the section')
  if (deep !== undefined) return deep
  const v = value as Record<string, unknown>
  const problem = statsJsonProblem(v.json, 'json')
  if (problem !== undefined) return problem
  if (v.curve !== undefined && v.curve !== null && !curveOf(v.curve)) {
    return `its knee curve is not one thinned for the plot (at most ${String(RANK_CURVE_POINTS + 4)} points)`
  }
  if (v.umi_curve !== undefined && v.umi_curve !== null && !curveOf(v.umi_curve)) {
    return `its UMI rank curve is not one thinned for the plot (at most ${String(RANK_CURVE_POINTS + 4)} points)`
  }
  if (v.writer !== undefined && typeof v.writer !== 'string') return 'writer is not a string'
  return undefined
}

/** The report statsToJson wrote, or undefined when `value` is not one (statsProblem says why). */
export function statsFromJson(value: unknown): StatsReport | undefined {
  if (statsProblem(value) !== undefined) return undefined
  const v = value as Record<string, unknown>
  const curve = v.curve === undefined || v.curve === null ? undefined : curveOf(v.curve)
  const umiCurve = v.umi_curve === undefined || v.umi_curve === null ? undefined : curveOf(v.umi_curve)
  const writer = typeof v.writer === 'string' ? v.writer.slice(0, 200) : undefined
  return {
    json: v.json as StatsJson,
    curve,
    ...(umiCurve ? { umiCurve } : {}),
    ...(writer === undefined ? {} : { writer }),
  }
}

/** What the rest of a sidecar says about its file, for statsClaimProblem. */
export interface IndexFacts {
  /** Records in the chunk table. */
  records: number
  /** Chunks in the chunk table. */
  chunks: number
  /**
   * Every chunk of the table was counted: the recorded verdict lists no damaged chunk (a pass
   * skips those, so with some its counts may be lower; false too when there is no verdict).
   */
  complete: boolean
}

/**
 * Whether statistics of the right shape describe the file the rest of the sidecar describes
 * (docs/sidecar.md, "A sidecar is a claim"): the records and chunks they counted are the chunk
 * table's (fewer only by damaged chunks), and the knee curve's reads and barcodes are the
 * figures'. Statistics copied from another file's sidecar into this one, checksum recomputed,
 * disagree here. In words; undefined when they agree.
 */
export function statsClaimProblem(report: StatsReport, facts: IndexFacts): string | undefined {
  const { json, curve } = report
  const off = (n: number, of: number) => (facts.complete ? n !== of : n > of)
  if (off(json.records, facts.records) || off(json.chunks.count, facts.chunks)) {
    return (
      `they count ${fmtInt(json.records)} records in ${fmtInt(json.chunks.count)} chunks, ` +
      `its chunk table ${fmtInt(facts.records)} in ${fmtInt(facts.chunks)}`
    )
  }
  if (curve && curve.total > json.records) {
    return `their knee curve counts ${fmtInt(curve.total)} reads, more than their ${fmtInt(json.records)} records`
  }
  const bc = json.barcodes
  if (curve && bc && typeof bc.distinct === 'number' && bc.exact && curve.barcodes !== bc.distinct) {
    return `their knee curve has ${fmtInt(curve.barcodes)} barcodes, their figures ${fmtInt(bc.distinct)}`
  }
  return undefined
}
