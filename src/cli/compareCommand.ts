/**
 * `rad compare A.rad B.rad [--json]` (docs/subsets.md, "Joining files"):
 * whether `rad cat A.rad B.rad OUT` would join them (rad/prelude/joinable.ts:
 * the first difference, or none), and how their statistics differ: records,
 * distinct barcodes, knee cells, (barcode, UMI) pairs, each counted by the
 * statistics pass of `rad stats` (firstPass, statsJson).
 *
 * Exit 0 whether or not they can be joined; 1 when either cannot be read (its
 * prelude, or a damaged chunk, said on stderr).
 */
import { fmtInt } from '../rad/errors'
import { differenceText, joinDifference } from '../rad/prelude/joinable'
import { inferSemantics } from '../rad/prelude/semantics'
import { statsJson } from '../rad/stats'
import { closeInputs, openInputs } from './catCommand'
import type { OpenedInput } from './catCommand'
import { reportLine } from './output'
import type { Output } from './output'
import { firstPass } from './stats'

/** One file's figures, as `--json` prints them under `a` and `b`. */
export interface CompareFigures {
  file: string
  chunks: number
  records: number
  /** Distinct barcodes (of the combined cell identity); null for a file without barcodes. */
  barcodes: number | null
  /** Barcodes above the knee (docs/stats.md); null without barcodes or with fewer than 2. */
  knee_cells: number | null
  /** Distinct (barcode, UMI) pairs; null without a barcode and a UMI. */
  barcode_umi_pairs: number | null
  /** True when no figure is an estimate (docs/stats.md). */
  exact: boolean
}

export interface CompareJson {
  joinable: boolean
  /** The first difference keeping B from being joined to A, or null. */
  difference: string | null
  a: CompareFigures
  b: CompareFigures
}

/** The statistics pass over one file; its errors on stderr, named by the file. */
async function figuresOf(input: OpenedInput): Promise<{ figures: CompareFigures; failed: boolean }> {
  const { source, prelude, name } = input
  const sem = inferSemantics(prelude)
  const { state, scan } = await firstPass(source, prelude, sem)
  let failed = false
  for (const issue of scan.issues) {
    if (issue.severity !== 'error') continue
    failed = true
    process.stderr.write(`${name}: ${reportLine('error', { ...issue, offset: issue.offset ?? 0 })}\n`)
  }
  const json = statsJson(state, prelude, sem)
  const figures: CompareFigures = {
    file: name,
    chunks: scan.index.count,
    records: json.records,
    barcodes: json.barcodes?.distinct ?? null,
    knee_cells: json.knee,
    barcode_umi_pairs: json.umis?.distinct_pairs ?? null,
    exact: json.exact,
  }
  return { figures, failed }
}

const ROWS: [label: string, key: 'chunks' | 'records' | 'barcodes' | 'knee_cells' | 'barcode_umi_pairs'][] = [
  ['chunks', 'chunks'],
  ['records', 'records'],
  ['distinct barcodes', 'barcodes'],
  ['knee cells', 'knee_cells'],
  ['barcode–UMI pairs', 'barcode_umi_pairs'],
]

function signed(n: number): string {
  return n > 0 ? `+${fmtInt(n)}` : n < 0 ? `−${fmtInt(-n)}` : '0'
}

/** The verdict line, then a table: one row per figure, A, B and B − A. */
export function compareText(c: CompareJson): string {
  const verdict = c.joinable
    ? `${c.a.file} and ${c.b.file} can be joined`
    : `${c.a.file} and ${c.b.file} cannot be joined: ${c.difference ?? ''}`
  const cell = (n: number | null): string => (n === null ? '—' : fmtInt(n))
  const rows = ROWS.map(([label, key]) => {
    const a = c.a[key]
    const b = c.b[key]
    return [label, cell(a), cell(b), a === null || b === null ? '—' : signed(b - a)]
  })
  const table = [['', c.a.file, c.b.file, 'B − A'], ...rows]
  const widths = [0, 1, 2, 3].map((i) => Math.max(...table.map((r) => (r[i] ?? '').length)))
  const lines = table.map((r) =>
    r
      .map((text, i) => (i === 0 ? text.padEnd(widths[0] ?? 0) : text.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  )
  const estimates = c.a.exact && c.b.exact ? [] : ['some figures are estimates (rad stats FILE --json says which)']
  return `${[verdict, ...lines, ...estimates].join('\n')}\n`
}

/** What keeps `rad cat A B OUT` from joining them (catCommand.ts, joinRefusal), or null. */
function compareDifference(a: OpenedInput, b: OpenedInput): string | null {
  const unknown = [a, b].find((i) => i.prelude.codec === 'unknown')
  if (unknown) return `the chunks of ${unknown.name} use a codec this reader does not know (chunk_codec, §6)`
  const d = joinDifference(a.prelude, b.prelude)
  return d ? differenceText(d, a.name, b.name) : null
}

/** Exit 0 when both were read (joinable or not); 1 when either has an error. */
export async function runCompare(paths: readonly string[], out: Output, json: boolean): Promise<number> {
  const inputs: OpenedInput[] = []
  try {
    await openInputs(paths, inputs)
    const [a, b] = inputs
    if (!a || !b || inputs.length !== 2) throw new Error('internal: compare takes two files')
    const difference = compareDifference(a, b)
    const fa = await figuresOf(a)
    const fb = await figuresOf(b)
    const result: CompareJson = {
      joinable: difference === null,
      difference,
      a: fa.figures,
      b: fb.figures,
    }
    out.write(json ? `${JSON.stringify(result, null, 2)}\n` : compareText(result))
    return fa.failed || fb.failed ? 1 : 0
  } finally {
    await closeInputs(inputs)
  }
}
