/** `stats FILE [--json] [--tsv]`: the whole-file statistics (docs/stats.md). */
import { decodeChunk } from '../rad/decode/decodeChunk'
import { fmtInt, plural } from '../rad/errors'
import { makeCheckPlan } from '../rad/checks/valueChecks'
import { integrityStatus } from '../rad/checks/integrity'
import { inferSemantics } from '../rad/prelude/semantics'
import type { Semantics } from '../rad/prelude/semantics'
import { createStatsAccumulator, statsJson, statsTsvText } from '../rad/stats'
import type { StatsJson, StatsState } from '../rad/stats'
import type { Prelude } from '../rad/types'
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import { scanChunks } from '../io/scanChunks'
import { availableParallelism } from 'node:os'
import { exitCodeOf } from './commands'
import { SpillFile, spillFolder } from './spillFile'
import { StatsThreads } from './statsThreads'
import type { PassMemory } from './statsThreads'
import type { Output } from './output'
import { reportLine } from './output'
import { cellFigures, readAnnotations } from './cellStats'
import type { CellArgs } from './cellStats'
import type { CellsJson } from '../rad/cells'
import { summaryOf } from '../rad/report/summary'
import type { StatsSummary } from '../rad/report/summary'
import type { MapInfo } from '../rad/report/mapInfo'

export type StatsFormat = 'summary' | 'json' | 'tsv'

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`
}

const fixed = (x: number | null, digits: number): string => (x === null ? '—' : x.toFixed(digits))
const share = (x: number | null): string => (x === null ? '—' : pct(x))

/** The summary's headline (docs/stats.md, "The summary"): what Cell Ranger's web summary leads with. */
function headline(s: StatsSummary): string[] {
  if (s.cells === null) return s.mapping_rate === null ? [] : [`mapping rate: ${pct(s.mapping_rate)}`]
  const lines = [
    `cells (${s.cutoff ?? '—'}): ${fmtInt(s.cells)}; mean reads per cell ${fixed(s.mean_reads_per_cell, 1)}; fraction of reads in cells ${share(s.fraction_reads_in_cells)}`,
  ]
  const more = [
    s.valid_barcodes !== null ? `valid barcodes ${pct(s.valid_barcodes)}` : '',
    s.sequencing_saturation !== null ? `sequencing saturation ${pct(s.sequencing_saturation)}` : '',
    s.mapping_rate !== null ? `mapping rate ${pct(s.mapping_rate)}` : '',
  ].filter((x) => x !== '')
  if (more.length > 0) lines.push(more.join('; '))
  return lines
}

/** The summary's alerts, one line each on standard error, whatever the output format. */
function writeAlerts(s: StatsSummary): void {
  for (const a of s.alerts) process.stderr.write(`alert ${a.id}: ${a.text}\n`)
}

/** A few lines for people; `--json` has every figure. */
function summary(s: StatsJson): string[] {
  const lines = [
    `${s.assay}: ${plural(s.records, 'record', 'records', fmtInt)}, ${plural(s.alignments, 'alignment', 'alignments', fmtInt)}`,
  ]
  if (s.barcodes) {
    const approx = s.barcodes.exact ? '' : ` (≈, ±${fmtInt(s.barcodes.distinct_error)})`
    lines.push(
      `barcodes: ${fmtInt(s.barcodes.distinct)} distinct${approx}; reads per barcode mean ${s.barcodes.reads_per_barcode.mean.toFixed(1)}, median ${String(s.barcodes.reads_per_barcode.median)}`,
    )
  }
  if (s.knee !== null) {
    lines.push(`knee: ${plural(s.knee, 'cell', 'cells', fmtInt)} (${pct(s.cutoffs?.knee?.readsShare ?? 0)} of reads)`)
  }
  if (s.umis) {
    lines.push(
      `UMIs: ${fmtInt(s.umis.distinct_pairs)} distinct (barcode, UMI) pairs${s.umis.exact ? '' : ' (sampled)'}; saturation ${pct(s.umis.sequencing_saturation)}; ` +
        `≈${fmtInt(s.umis.good_toulmin_2x)} new pairs at 2× depth`,
    )
  }
  if (s.references) lines.push(`references with alignments: ${fmtInt(s.references.with_alignments)}`)
  if (s.orientation) {
    lines.push(
      `orientation: ${Object.entries(s.orientation)
        .map(([k, n]) => `${k} ${fmtInt(n)}`)
        .join(', ')}`,
    )
  }
  if (s.chunks.collated) lines.push(`collated: ${plural(s.chunks.count, 'chunk', 'chunks', fmtInt)}, one cell each`)
  if (!s.exact) lines.push('some figures are estimates: see --json (exact, distinct_error, relative_error)')
  return lines
}

/** The cell and gene lines of the summary (docs/cells.md). */
function cellSummary(c: CellsJson): string[] {
  const lines = [
    `per cell (${c.cells.cutoff}): median UMIs ${String(c.cells.umis.median)}, genes ${String(c.cells.genes.median)}, mito ${pct(c.cells.mito_fraction.median)}`,
    `genes detected: ${fmtInt(c.genes.detected)}; alignments to references without a gene: ${fmtInt(c.genes.unmapped_alignments)}`,
  ]
  const p = c.permit
  if (p) {
    lines.push(
      `permit list (${fmtInt(p.listed)} barcodes): records exact ${fmtInt(p.exact)}, corrected ${fmtInt(p.corrected)}, ambiguous ${fmtInt(p.ambiguous)}, absent ${fmtInt(p.absent)}`,
    )
  }
  return lines
}

/** Files from THREAD_MIN_BYTES on are counted by worker threads, when there are cores for them. */
const THREAD_MIN_BYTES = 32 << 20

/**
 * Bytes the exact pairs' lists may hold, all threads together, before they spill to a temporary
 * file, and the keys that wait before they are sorted into the lists (8 bytes each), all threads
 * together (docs/stats.md, "Exact at any size"; ADR 0015). With each thread's heap and the
 * batches, the pass stays under 512 MiB above idle at any size (bench/results.md).
 * RAD_STATS_BUDGET=bytes and RAD_STATS_PENDING=keys set them (tests spill the small fixtures so).
 */
const LIST_BUDGET = 64 << 20
const PENDING_KEYS = 2 << 20

/** What the pass may use beside the file: the folder of its spill file (`--tmp DIR`). */
export interface PassOptions {
  tmp?: string | undefined
  /**
   * Whether the state must keep a row per barcode (the per-barcode TSV, the cells pass); without
   * it the exact partitions fold their barcodes into distributions as they merge (ADR 0016), and
   * the memory does not grow with the barcodes.
   */
  perBarcode?: boolean
}

function fromEnv(name: string, fallback: number): number {
  const asked = Number(process.env[name])
  return Number.isFinite(asked) && asked > 0 ? asked : fallback
}

function passMemory(opts: PassOptions): PassMemory {
  return {
    folder: spillFolder(opts.tmp),
    budget: fromEnv('RAD_STATS_BUDGET', LIST_BUDGET),
    pendingKeys: fromEnv('RAD_STATS_PENDING', PENDING_KEYS),
  }
}

/**
 * Worker threads for the counting (statsThreads.ts): one a core, for plain chunks of files of
 * THREAD_MIN_BYTES…THREAD_MAX_BYTES. RAD_STATS_THREADS=N asks for N threads whatever the size
 * (0: counted on the main thread), for benchmarks.
 */
async function startThreads(
  source: ByteSource,
  prelude: Prelude,
  memory: PassMemory,
  ending: 'figures' | 'digest',
): Promise<StatsThreads | undefined> {
  const asked = process.env.RAD_STATS_THREADS
  const count = asked === undefined ? availableParallelism() : Number(asked)
  const sized = asked !== undefined || source.size >= THREAD_MIN_BYTES
  if (!(count >= 1) || prelude.codec !== 'none' || !sized) return undefined
  const head = await source.read(0, prelude.firstChunkOffset)
  return new StatsThreads(head, source.size, Math.floor(count), memory, ending)
}

/** The workers' states into `acc`, each dropped once merged (the partitions' lists are taken, not copied). */
function mergeInto(acc: ReturnType<typeof createStatsAccumulator>, states: StatsState[]): void {
  while (states.length > 0) acc.merge(states.shift()!)
}

/**
 * The statistics pass: every chunk checked and counted (on worker threads for mid-sized files).
 * `rad index` runs it too, and builds the sidecar's index from its scan (indexCommand.ts).
 */
export async function firstPass(source: ByteSource, prelude: Prelude, sem: Semantics, opts: PassOptions = {}) {
  const memory = passMemory(opts)
  const ending = opts.perBarcode ? 'figures' : 'digest'
  const threads = await startThreads(source, prelude, memory, ending)
  const store = new SpillFile(memory.folder)
  try {
    // The main thread counts only when there are no threads; with them it merges their figures.
    const own = { spill: { store, budget: memory.budget }, pendingKeys: memory.pendingKeys }
    const acc = createStatsAccumulator(prelude, sem, threads ? {} : own)
    const scan = await scanChunks(source, prelude, {
      check: makeCheckPlan(prelude, sem),
      onChunk: (bytes, offset, chunk, convention) => {
        if (threads) return threads.add(bytes, offset, chunk, convention)
        acc.addChunk(decodeChunk(bytes, offset, chunk, prelude, convention))
        return false
      },
    })
    if (threads) mergeInto(acc, await threads.finish())
    return { state: acc.exportState(ending), scan }
  } finally {
    store.close()
  }
}

/** Runs the pass (records checked on the way); exit codes as validate (exitCodeOf). */
export async function runStats(
  file: ByteSource,
  out: Output,
  format: StatsFormat,
  cellArgs?: CellArgs,
  passOptions: PassOptions = {},
  mapInfo?: MapInfo,
): Promise<number> {
  const { source, prelude } = await openRad(file)
  const sem = inferSemantics(prelude)
  // The annotation files first: a bad one stops the command before the pass.
  const notes = cellArgs ? await readAnnotations(cellArgs, prelude, sem) : undefined
  const perBarcode = format === 'tsv' || cellArgs !== undefined
  const { state, scan } = await firstPass(source, prelude, sem, { ...passOptions, perBarcode })
  for (const issue of scan.issues) {
    if (issue.severity === 'error') {
      process.stderr.write(`${reportLine('error', { ...issue, offset: issue.offset ?? 0 })}\n`)
    }
    if (issue.severity === 'warning') process.stderr.write(`${reportLine('warning', issue)}\n`)
  }
  const json = statsJson(state, prelude, sem)
  const cells =
    cellArgs && notes
      ? await cellFigures(source, prelude, sem, state, notes, cellArgs, { keepPairs: format === 'tsv' })
      : undefined
  const headlines = summaryOf(json, { cells: cells?.json, mapInfo })
  writeAlerts(headlines)
  if (cells && cellArgs?.cellsTsv) out.write(cells.tsv)
  else if (format === 'json') out.write(`${JSON.stringify({ ...json, ...cells?.json, summary: headlines }, null, 2)}\n`)
  else if (format === 'tsv') out.write(statsTsvText(state, sem, json.cutoffs?.knee?.minCount ?? null))
  else {
    const lines = [...headline(headlines), ...summary(json), ...(cells ? cellSummary(cells.json) : [])]
    out.write(`${lines.join('\n')}\n`)
  }
  return exitCodeOf(integrityStatus(scan.issues, true))
}
