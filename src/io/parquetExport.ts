/**
 * A selection of records as a Parquet file (docs/engines.md, ADR 0012): the
 * table of rad/parquet/parquetSchema.ts, filled chunk by chunk (rad/parquet/parquetRows.ts)
 * and written one row group at a time (io/parquetRowGroup.ts: the pages this
 * project encodes, the other columns by hyparquet-writer, in its file). After
 * each row group the bytes go to the sink and the buffers start again, so
 * memory holds one row group whatever the file's size.
 */
import { ByteWriter, ParquetWriter } from 'hyparquet-writer'
import { ParquetRows } from '../rad/parquet/parquetRows'
import { parquetMetadata, parquetPlan } from '../rad/parquet/parquetSchema'
import { inferSemantics } from '../rad/prelude/semantics'
import type { ByteSink } from '../rad/subsetWriter'
import type { Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'
import { writeRowGroup } from './parquetRowGroup'
import { eachSelectedChunk } from './selectedRecords'
import type { RecordSelection, WalkOptions } from './selectedRecords'

export interface ParquetOptions {
  /** One row per record, its alignments a list column (`--per record`). */
  perRecord?: boolean
  /** The producer's name for the metadata (rad/prelude/producer.ts). */
  producer?: string
  /** The source file's name for the metadata. */
  source?: string
  /** Rows per row group (at most 1M; default ROW_GROUP_ROWS, RECORD_GROUP_ROWS with `perRecord`). */
  rowGroupRows?: number
  /** Rows written so far, after each row group. */
  onRows?: (rows: number) => void
}

export interface ParquetSummary {
  records: number
  rows: number
  rowGroups: number
  bytes: number
}

/**
 * Rows per row group, well under the 1M cap. The columns this project encodes
 * (rad/parquet/parquetDictionary.ts) reuse their buffers, so a row group's memory is
 * about its rows' bytes: on the 24M-alignment 10x file 2^16 rows peak near
 * 165 MiB, 2^18 near 195, 2^19 near 215; larger groups share the reference
 * dictionary more (362, 288, 273 MB out) and run faster (bench/results.md).
 */
export const ROW_GROUP_ROWS = 1 << 18

/**
 * Rows per row group with `perRecord`: each row holds its alignments as
 * objects the writer walks (their garbage sets the peak), so far fewer: on
 * the 10x file 2^14 records peak at 328 MiB, 2^13 at 264 (bench/results.md).
 */
export const RECORD_GROUP_ROWS = 1 << 13

/** Reads of 4 MiB, not the scan's 16: the writer, not the disk, sets the pace, and memory counts. */
const READ_BLOCK = 4 << 20

/** The most rows in a row group (engines split work by row group; a large one costs memory). */
const MAX_ROW_GROUP_ROWS = 1_000_000

const CREATED_BY = 'rad-viewer (hyparquet-writer 0.17.0)'

/** hyparquet-writer's ByteWriter whose bytes go to a sink after each row group. */
class SinkWriter extends ByteWriter {
  private readonly sink: ByteSink

  constructor(sink: ByteSink) {
    super(1 << 20)
    this.sink = sink
  }

  /** Called by ParquetWriter after each row group; the next one waits for it. */
  async flush(): Promise<void> {
    if (this.index === 0) return
    const bytes = new Uint8Array(this.buffer, 0, this.index).slice()
    this.index = 0
    await this.sink.write(bytes)
  }

  // ByteWriter's finish returns nothing; ParquetWriter.finish returns and awaits whatever this returns.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  override finish(): Promise<void> {
    return this.flush()
  }
}

/** Writes the chosen records as Parquet; the sink gets the file front to back. */
export async function writeParquet(
  source: ByteSource,
  prelude: Prelude,
  sel: RecordSelection,
  sink: ByteSink,
  opts: WalkOptions & ParquetOptions = {},
): Promise<ParquetSummary> {
  const sem = inferSemantics(prelude)
  const plan = parquetPlan(prelude, sem, opts.perRecord ?? false)
  const defaultRows = plan.perRecord ? RECORD_GROUP_ROWS : ROW_GROUP_ROWS
  const groupRows = Math.min(opts.rowGroupRows ?? defaultRows, MAX_ROW_GROUP_ROWS)
  const rows = new ParquetRows(plan, prelude, sem, groupRows)
  const writer = new SinkWriter(sink)
  const parquet = new ParquetWriter({
    writer,
    schema: plan.schema,
    codec: 'SNAPPY',
    statistics: false,
    kvMetadata: parquetMetadata(prelude, sem, opts.producer ?? 'unknown', opts.source ?? ''),
    createdBy: CREATED_BY,
  })
  const summary: ParquetSummary = { records: 0, rows: 0, rowGroups: 0, bytes: 0 }
  const writeGroup = async (): Promise<void> => {
    const n = rows.rows
    const columns = rows.take().map((c, i) => ({ ...c, encoding: plan.columns[i]?.encoding }))
    await writeRowGroup(parquet, columns, n)
    summary.rows += n
    summary.rowGroups++
    opts.onRows?.(summary.rows)
  }
  await eachSelectedChunk(
    source,
    prelude,
    sel,
    async (c) => {
      const cols = c.columns()
      const all = c.records
      summary.records += all.length
      // A chunk's records go in pieces when it would take a row group past the cap.
      for (let from = 0; from < all.length;) {
        const to = rows.fitEnd(cols, all, from, MAX_ROW_GROUP_ROWS - rows.rows)
        rows.addChunk(cols, c.firstRecord, from === 0 && to === all.length ? all : all.slice(from, to))
        from = to
        if (rows.rows >= groupRows || to < all.length) await writeGroup()
      }
    },
    { blockSize: READ_BLOCK, ...opts },
  )
  if (rows.rows > 0) await writeGroup()
  await parquet.finish()
  summary.bytes = writer.offset
  return summary
}
