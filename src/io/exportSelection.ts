/**
 * Exports of a selection of records (docs/subsets.md), streamed to a ByteSink:
 * - `rad`: a valid RAD subset (rad/subsetWriter.ts; `rad subset` writes the same bytes);
 * - `tsv`: the `view` lines (rad/text/viewLine.ts), one per alignment;
 * - `jsonl`: the `dump` JSON Lines (rad/text/dumpLine.ts), one per record;
 * - `parquet`: the table of docs/engines.md (parquetExport.ts, ADR 0012).
 * The CLI and the page's export worker both call exportSelection.
 */
import { dumpRecordJson } from '../rad/text/dumpLine'
import { inferSemantics } from '../rad/prelude/semantics'
import { SubsetWriter } from '../rad/subsetWriter'
import type { ByteSink, SubsetOptions } from '../rad/subsetWriter'
import type { Prelude } from '../rad/types'
import { viewRecordLines } from '../rad/text/viewLine'
import type { ByteSource } from './byteSource'
import { writeParquet } from './parquetExport'
import type { ParquetOptions } from './parquetExport'
import { eachSelectedChunk } from './selectedRecords'
import type { RecordSelection, SelectedChunk, WalkOptions } from './selectedRecords'

export type ExportFormat = 'rad' | 'tsv' | 'jsonl' | 'parquet'

export interface ExportSummary {
  /** Chunks written (RAD only; 0 for text). */
  chunks: number
  records: number
  bytes: number
}

export type ExportOptions = WalkOptions & SubsetOptions & ParquetOptions

/** Writes the chosen records as a RAD subset (see subsetWriter.ts for what it writes). */
export async function writeSubset(
  source: ByteSource,
  prelude: Prelude,
  sel: RecordSelection,
  sink: ByteSink,
  opts: ExportOptions = {},
): Promise<ExportSummary> {
  const writer = new SubsetWriter(prelude, sink, opts)
  await writer.begin(await source.read(0, prelude.firstChunkOffset, opts.signal))
  await eachSelectedChunk(
    source,
    prelude,
    sel,
    (c) => writer.addRecords(c.payload.bytes, c.bounds, c.records, c.chunk),
    opts,
  )
  return writer.finish()
}

/** The text of one chunk's chosen records in a text format. */
function chunkText(
  format: 'tsv' | 'jsonl',
  c: SelectedChunk,
  prelude: Prelude,
  sem: ReturnType<typeof inferSemantics>,
): string {
  const cols = c.columns()
  const lines: string[] = []
  for (const r of c.records) {
    if (format === 'jsonl') lines.push(dumpRecordJson(cols, r, prelude))
    else lines.push(...viewRecordLines(cols, r, c.firstRecord + r, prelude, sem))
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : ''
}

/** Writes the chosen records as `view` TSV or `dump` JSON Lines, one chunk's text at a time. */
export async function writeText(
  format: 'tsv' | 'jsonl',
  source: ByteSource,
  prelude: Prelude,
  sel: RecordSelection,
  sink: ByteSink,
  opts: WalkOptions = {},
): Promise<ExportSummary> {
  const sem = inferSemantics(prelude)
  const encoder = new TextEncoder()
  let records = 0
  let bytes = 0
  await eachSelectedChunk(
    source,
    prelude,
    sel,
    async (c) => {
      const text = encoder.encode(chunkText(format, c, prelude, sem))
      records += c.records.length
      bytes += text.length
      await sink.write(text)
    },
    opts,
  )
  return { chunks: 0, records, bytes }
}

/** Parquet, summed up as the other formats are (chunks: 0). */
async function writeParquetSummary(
  source: ByteSource,
  prelude: Prelude,
  sel: RecordSelection,
  sink: ByteSink,
  opts: ExportOptions,
): Promise<ExportSummary> {
  const s = await writeParquet(source, prelude, sel, sink, { source: source.name, ...opts })
  return { chunks: 0, records: s.records, bytes: s.bytes }
}

export function exportSelection(
  format: ExportFormat,
  source: ByteSource,
  prelude: Prelude,
  sel: RecordSelection,
  sink: ByteSink,
  opts: ExportOptions = {},
): Promise<ExportSummary> {
  if (format === 'parquet') return writeParquetSummary(source, prelude, sel, sink, opts)
  return format === 'rad'
    ? writeSubset(source, prelude, sel, sink, opts)
    : writeText(format, source, prelude, sel, sink, opts)
}
