/**
 * `rad subset IN OUT [--chunks A-B] [--records A-B] [--keep-chunks] [filters]`
 * (docs/subsets.md): writes the chosen records of IN as a valid RAD file
 * (rad/subsetWriter.ts; docs/subsets.md). Ranges are 0-based and inclusive;
 * record numbers are `view`'s `ID`s; the filters are view's and dump's
 * (filterFlags.ts, rad/filter/recordFilter.ts). Everything given combines with AND.
 */
import type { ByteSource } from '../io/byteSource'
import { exportSelection } from '../io/exportSelection'
import type { ExportFormat } from '../io/exportSelection'
import { openRad } from '../io/openRad'
import type { RecordSelection } from '../io/selectedRecords'
import { plural } from '../rad/errors'
import { identifyProducer } from '../rad/prelude/producer'
import type { RecordFilter } from '../rad/filter/recordFilter'
import { filteredSelection } from './filterFlags'
import type { Output } from './output'
import { writeOutput } from './safeOutput'

export interface SubsetArgs {
  selection: RecordSelection
  /** One output chunk per source chunk; on by itself for files alevin-fry collate wrote. */
  keepChunks: boolean
  /** The record filter flags (filterFlags.ts), shared with view and dump. */
  filter?: RecordFilter | undefined
  /** `export --format`; undefined: from OUT's extension (exportFormatOf). */
  format?: CliExportFormat | undefined
  /** `export --per record`: one Parquet row per record, not per alignment. */
  perRecord: boolean
  /** `export A.rad B.rad … --out DIR`: the Hive-partitioned folder. */
  outDir?: string | undefined
  /** `export A.rad --out DIR --sample NAME`: the sample name instead of the file's. */
  sample?: string | undefined
}

/** What `export` writes (io/exportSelection.ts); Parquet goes through exportCommand.ts (its metadata, the Hive study). */
export type CliExportFormat = ExportFormat

const FORMATS: readonly CliExportFormat[] = ['rad', 'tsv', 'jsonl', 'parquet']

/** `export`'s format when --format is not given: `.tsv`, `.jsonl`/`.json`, `.parquet`/`.pq`, else rad. */
export function exportFormatOf(outPath: string): CliExportFormat {
  if (/\.tsv$/i.test(outPath)) return 'tsv'
  if (/\.(parquet|pq)$/i.test(outPath)) return 'parquet'
  return /\.jsonl?$/i.test(outPath) ? 'jsonl' : 'rad'
}

/** `A-B` (or `A` alone) as an inclusive range, or undefined when malformed. */
function parseRange(text: string | undefined): [number, number] | undefined {
  const m = /^(\d+)(?:-(\d+))?$/.exec(text ?? '')
  if (!m) return undefined
  const from = Number(m[1])
  const to = Number(m[2] ?? m[1])
  return Number.isSafeInteger(from) && Number.isSafeInteger(to) && from <= to ? [from, to] : undefined
}

/**
 * Takes subset's own flags out of `argv` (the rest is left for main's parser);
 * returns what is wrong with them as a string.
 */
export function takeSubsetFlags(argv: string[]): SubsetArgs | string {
  const selection: RecordSelection = {}
  let keepChunks = false
  let perRecord = false
  let outDir: string | undefined
  let sample: string | undefined
  let format: CliExportFormat | undefined
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]
    if (flag === '--per') {
      const per = argv[i + 1]
      if (per !== 'record' && per !== 'alignment') return '--per needs record or alignment'
      perRecord = per === 'record'
      argv.splice(i, 2)
      i--
    } else if (flag === '--out' || flag === '--sample') {
      const value = argv[i + 1]
      if (value === undefined || value === '') return `${flag} needs ${flag === '--out' ? 'a folder' : 'a name'}`
      if (flag === '--out') outDir = value
      else sample = value
      argv.splice(i, 2)
      i--
    } else if (flag === '--format') {
      format = FORMATS.find((f) => f === argv[i + 1])
      if (!format) return `--format needs one of ${FORMATS.join(', ')}`
      argv.splice(i, 2)
      i--
    } else if (flag === '--chunks' || flag === '--records') {
      const range = parseRange(argv[i + 1])
      if (!range) return `${flag} needs a range A-B (0-based, inclusive, A ≤ B)`
      if (flag === '--chunks') selection.chunks = range
      else selection.records = range
      argv.splice(i, 2)
      i--
    } else if (flag === '--keep-chunks') {
      keepChunks = true
      argv.splice(i, 1)
      i--
    }
  }
  return { selection, keepChunks, format, perRecord, outDir, sample }
}

/**
 * `subset IN OUT` (format rad) and `export IN OUT` (rad, view TSV or dump
 * JSON Lines): the chosen records, written through safeOutput.ts.
 */
export async function runSubset(
  file: ByteSource,
  outPath: string,
  args: SubsetArgs,
  out: Output,
  format: ExportFormat = 'rad',
): Promise<number> {
  const { source, prelude, container } = await openRad(file)
  const collated = identifyProducer(prelude, container).name === 'alevin-fry collate'
  const selection = filteredSelection(prelude, args.selection, args.filter)
  const summary = await writeOutput(
    outPath,
    (sink) =>
      exportSelection(format, source, prelude, selection, sink, { keepSourceChunks: args.keepChunks || collated }),
    { patches: format === 'rad' },
  )
  const chunks = format === 'rad' ? `${plural(summary.chunks, 'chunk')}, ` : ''
  out.write(`wrote ${outPath}: ${chunks}${plural(summary.records, 'record')}, ${plural(summary.bytes, 'byte')}\n`)
  return 0
}
