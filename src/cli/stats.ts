/** `stats FILE [--json] [--tsv]`: the whole-file statistics (docs/stats.md). */
import { decodeChunk } from '../rad/decode/decodeChunk'
import { makeCheckPlan } from '../rad/checks/valueChecks'
import { integrityStatus } from '../rad/checks/integrity'
import { inferSemantics } from '../rad/prelude/semantics'
import type { Semantics } from '../rad/prelude/semantics'
import { createStatsAccumulator, statsJson, statsTsvText } from '../rad/stats'
import type { StatsState } from '../rad/stats'
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
import type { CellArgs, CellFigures } from './cellStats'
import { cellSummary, headline, summary, writeAlerts } from './statsText'
import { summaryOf } from '../rad/report/summary'
import type { SampleJson } from '../rad/report/summary'
import type { MapInfo } from '../rad/report/mapInfo'

export type StatsFormat = 'summary' | 'json' | 'tsv'

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
        acc.addChunkOrDecode(bytes, chunk, convention, () => decodeChunk(bytes, offset, chunk, prelude, convention))
        return false
      },
    })
    if (threads) mergeInto(acc, await threads.finish())
    return { state: acc.exportState(ending), scan }
  } finally {
    store.close()
  }
}

export interface SampleStats {
  json: SampleJson
  state: StatsState
  sem: Semantics
  cells: CellFigures | undefined
  /** As validate's (exitCodeOf). */
  exit: number
}

export interface SampleOptions {
  cells?: CellArgs | undefined
  pass: PassOptions
  mapInfo?: MapInfo | undefined
  /** Keep the exact pairs through the cells pass (the per-barcode TSV needs them). */
  keepPairs: boolean
  /** Before each line said on stderr (a study names its sample). */
  prefix?: string
}

/** One file's pass (records checked on the way), then its cells pass with annotation files; issues on stderr. */
export async function countSample(file: ByteSource, o: SampleOptions): Promise<SampleStats> {
  const { source, prelude } = await openRad(file)
  const sem = inferSemantics(prelude)
  // The annotation files first: a bad one stops the command before the pass.
  const notes = o.cells ? await readAnnotations(o.cells, prelude, sem) : undefined
  const { state, scan } = await firstPass(source, prelude, sem, o.pass)
  const prefix = o.prefix ?? ''
  for (const issue of scan.issues) {
    if (issue.severity === 'error') {
      process.stderr.write(`${prefix}${reportLine('error', { ...issue, offset: issue.offset ?? 0 })}\n`)
    }
    if (issue.severity === 'warning') process.stderr.write(`${prefix}${reportLine('warning', issue)}\n`)
  }
  const json = statsJson(state, prelude, sem)
  const cells =
    o.cells && notes
      ? await cellFigures(source, prelude, sem, state, notes, o.cells, { keepPairs: o.keepPairs })
      : undefined
  const summary = summaryOf(json, { cells: cells?.json, mapInfo: o.mapInfo })
  writeAlerts(summary, prefix)
  const exit = exitCodeOf(integrityStatus(scan.issues, true))
  return { json: { ...json, ...cells?.json, summary }, state, sem, cells, exit }
}

/** `rad stats FILE`: the summary, `--json`, `--tsv` (a row per barcode) or `--cells-tsv`. */
export async function runStats(
  file: ByteSource,
  out: Output,
  format: StatsFormat,
  cellArgs?: CellArgs,
  passOptions: PassOptions = {},
  mapInfo?: MapInfo,
): Promise<number> {
  const perBarcode = format === 'tsv' || cellArgs !== undefined
  const pass = { ...passOptions, perBarcode }
  const s = await countSample(file, { cells: cellArgs, pass, mapInfo, keepPairs: format === 'tsv' })
  const { json, cells } = s
  if (cells && cellArgs?.cellsTsv) out.write(cells.tsv)
  else if (format === 'json') out.write(`${JSON.stringify(json, null, 2)}\n`)
  else if (format === 'tsv') out.write(statsTsvText(s.state, s.sem, json.cutoffs?.knee?.minCount ?? null))
  else {
    const lines = [...headline(json.summary), ...summary(json), ...(cells ? cellSummary(cells.json) : [])]
    out.write(`${lines.join('\n')}\n`)
  }
  return s.exit
}
