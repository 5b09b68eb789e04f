/**
 * `rad export IN OUT.parquet [filters]` and `rad export A.rad B.rad … --out DIR`
 * (docs/engines.md): Parquet for engines, one file, or one per input in the
 * Hive layout `DIR/sample=<name>/part-0.parquet` so that DuckDB's
 * `read_parquet('DIR/**\/*.parquet', hive_partitioning = true)` and Spark's
 * `spark.read.parquet('DIR')` see one table with a `sample` column. Every
 * file goes through safeOutput.ts: a temporary file renamed when complete,
 * never over an input.
 */
import { mkdirSync, readdirSync, rmdirSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { hiveSafeName, sampleNames } from '../rad/report/sampleNames'
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import { writeParquet } from '../io/parquetExport'
import type { ParquetSummary } from '../io/parquetExport'
import type { RecordSelection } from '../io/selectedRecords'
import { RadError, plural } from '../rad/errors'
import type { RecordFilter } from '../rad/filter/recordFilter'
import { identifyProducer } from '../rad/prelude/producer'
import { filteredSelection } from './filterFlags'
import { NodeFileSource } from './nodeFileSource'
import { BrokenPipe } from './output'
import type { Output } from './output'
import { RefusedOutput, refuseOutputOverInput, writeOutput } from './safeOutput'

/** What a Parquet export takes from the command line (main.ts reads it with subset's flags, takeSubsetFlags). */
export interface ExportArgs {
  /** `--chunks A-B`, `--records A-B`: one file's ranges (refused for a study). */
  selection: RecordSelection
  /** The record filter flags (filterFlags.ts), shared with view, dump and subset. */
  filter?: RecordFilter | undefined
  /** `--per record`: one Parquet row per record, not per alignment. */
  perRecord: boolean
  /** `--sample NAME` with `--out DIR`: the sample name instead of the file's. */
  sample?: string | undefined
}

/** Progress lines on stderr: the first after this long, then at this interval. */
const PROGRESS_MS = 5_000

/** Reports rows written on stderr when a run is long; quiet for short ones. */
function progressReporter(label: string): (rows: number) => void {
  const started = Date.now()
  let next = started + PROGRESS_MS
  return (rows) => {
    const now = Date.now()
    if (now < next) return
    next = now + PROGRESS_MS
    const seconds = ((now - started) / 1000).toFixed(0)
    process.stderr.write(`export ${label}: ${plural(rows, 'row')} written (${seconds} s)\n`)
  }
}

/** Writes one RAD file's chosen records to `outPath` as Parquet. */
async function exportOne(file: ByteSource, outPath: string, args: ExportArgs): Promise<ParquetSummary> {
  const { source, prelude, container } = await openRad(file)
  const selection = filteredSelection(prelude, args.selection, args.filter)
  return writeOutput(outPath, (sink) =>
    writeParquet(source, prelude, selection, sink, {
      perRecord: args.perRecord,
      producer: identifyProducer(prelude, container).name,
      source: basename(file.name),
      onRows: progressReporter(basename(outPath)),
    }),
  )
}

function summaryLine(outPath: string, s: ParquetSummary): string {
  return `wrote ${outPath}: ${plural(s.records, 'record')}, ${plural(s.rows, 'row')} in ${plural(s.rowGroups, 'row group')}, ${plural(s.bytes, 'byte')}\n`
}

/** `export IN OUT.parquet`. */
export async function runParquetExport(
  file: ByteSource,
  outPath: string,
  args: ExportArgs,
  out: Output,
): Promise<number> {
  out.write(summaryLine(outPath, await exportOne(file, outPath, args)))
  return 0
}

/**
 * The output of each input: its sample named by the study rule (rad/report/sampleNames.ts: the
 * file's name, or <sample> of …/<sample>/af_map/map.rad) or by --sample, made safe for DuckDB's
 * Hive reader (said on stderr when changed); refuses an input given twice and any output that is
 * an input.
 */
function studyOutputs(files: readonly string[], outDir: string, named: string | undefined): string[] {
  if (named !== undefined && files.length !== 1) {
    throw new RefusedOutput('--sample names one input; with several, each is named after its file')
  }
  const seen = new Map<string, string>()
  for (const file of files) {
    const real = resolve(file)
    const other = seen.get(real)
    if (other !== undefined) {
      throw new RefusedOutput(`${other} and ${file} are one file; give it once; nothing was written`)
    }
    seen.set(real, file)
  }
  const names = named === undefined ? sampleNames(files) : sampleNames([`${named}.rad`])
  return files.map((file, i) => {
    const name = names[i]!
    const sample = hiveSafeName(name)
    if (sample !== name) {
      process.stderr.write(
        `note: ${file} is sample=${sample}: DuckDB's Hive reader would read "${name}" as a value of another type (docs/engines.md)\n`,
      )
    }
    const outPath = join(outDir, `sample=${sample}`, 'part-0.parquet')
    refuseOutputOverInput(outPath, files)
    return outPath
  })
}

/** `sample=` folders in DIR that this export did not write (an earlier study's): DuckDB reads them too. */
function staleSamples(outDir: string, outputs: readonly string[]): string[] {
  const written = new Set(outputs.map((o) => basename(join(o, '..'))))
  try {
    return readdirSync(outDir).filter((d) => d.startsWith('sample=') && !written.has(d))
  } catch {
    return []
  }
}

/** `export A.rad B.rad … --out DIR`: one Parquet file per input, Hive-partitioned by sample. */
export async function runStudyExport(
  files: readonly string[],
  outDir: string,
  args: ExportArgs,
  out: Output,
): Promise<number> {
  if (args.selection.chunks || args.selection.records) {
    throw new RadError('BAD_VALUE', '--chunks and --records apply to one file, not to a study (--out)')
  }
  const outputs = studyOutputs(files, outDir, args.sample)
  const failed: string[] = []
  for (const [i, file] of files.entries()) {
    const outPath = outputs[i] ?? ''
    try {
      out.write(summaryLine(outPath, await exportStudyInput(file, outPath, args)))
    } catch (e) {
      // One bad input does not stop the study: the others are written, and it is named.
      if (e instanceof BrokenPipe) throw e
      failed.push(file)
      process.stderr.write(`${file}: not exported (${failureText(e)}); nothing was written for it\n`)
    }
  }
  const written = files.length - failed.length
  out.write(`${plural(written, 'sample')} in ${outDir} (Hive layout: sample=<name>/part-0.parquet)\n`)
  const stale = staleSamples(outDir, outputs)
  if (stale.length > 0) {
    process.stderr.write(
      `note: ${outDir} also holds ${stale.join(', ')} from an earlier export: DuckDB reads them too\n`,
    )
  }
  if (failed.length === 0) return 0
  process.stderr.write(`${plural(failed.length, 'input')} not exported: ${failed.join(', ')}\n`)
  return 1
}

/** One input of a study into its sample's folder; the folder is removed again when the export fails and it is empty. */
async function exportStudyInput(file: string, outPath: string, args: ExportArgs): Promise<ParquetSummary> {
  const folder = join(outPath, '..')
  const made = mkdirSync(folder, { recursive: true }) !== undefined
  try {
    const source = await NodeFileSource.open(file)
    try {
      return await exportOne(source, outPath, args)
    } finally {
      await source.close()
    }
  } catch (e) {
    if (made) removeEmptyFolder(folder)
    throw e
  }
}

function removeEmptyFolder(folder: string): void {
  try {
    rmdirSync(folder)
  } catch {
    // Not empty, or gone already: left as it is.
  }
}

/** What stopped an input, in words (a RadError with its offset when it has one). */
function failureText(e: unknown): string {
  if (e instanceof RadError && e.offset !== undefined) return `${e.message} at byte ${String(e.offset)}`
  return e instanceof Error ? e.message : String(e)
}
