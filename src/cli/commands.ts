import { makeCheckPlan } from '../rad/checks/valueChecks'
import { integrityStatus, issueFromError } from '../rad/checks/integrity'
import type { IntegrityStatus } from '../rad/checks/integrity'
import { decodeChunk } from '../rad/decode/decodeChunk'
import { canonicalJson } from '../rad/text/display'
import { RadError, plural } from '../rad/errors'
import { inferSemantics } from '../rad/prelude/semantics'
import { describeType } from '../rad/prelude/tags'
import type { ChunkColumns, Prelude, TagDesc } from '../rad/types'
import { dumpRecordJson } from '../rad/text/dumpLine'
import { viewLines } from '../rad/text/viewLine'
import type { RecordFilter } from '../rad/filter/recordFilter'
import { assessCompatibility } from '../rad/prelude/compatibility'
import { compatibilityJson } from './compatJson'
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import { scanChunks } from '../io/scanChunks'
import type { ScanResult } from '../io/scanChunks'
import { chosenRecords, scanNumberedChunks } from '../io/selectedRecords'
import type { RecordSelection } from '../io/selectedRecords'
import { filteredSelection } from './filterFlags'
import { reportLine } from './output'
import type { Output } from './output'

function tagJson(tag: TagDesc): Record<string, unknown> {
  const out: Record<string, unknown> = { name: tag.name, type: describeType(tag.type), role: tag.role.kind }
  if (tag.role.level !== undefined) out.role_level = tag.role.level
  if (tag.role.len !== undefined) out.role_len = tag.role.len
  return out
}

function fileTagValues(prelude: Prelude): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  prelude.fileTags.forEach((tag, i) => {
    out[tag.name] = canonicalJson(prelude.fileTagValues[i] ?? '')
  })
  return out
}

/** Walks every chunk, checking its records in place; returns the scan (with alignment total). */
export function checkAll(source: ByteSource, prelude: Prelude): Promise<ScanResult> {
  return scanChunks(source, prelude, { check: makeCheckPlan(prelude, inferSemantics(prelude)) })
}

/**
 * The exit code of `validate` and `info`, as `gzip -t` has it: 0 for a clean
 * file (notes about a well-formed file included), 1 for errors, 2 for a file
 * that reads but deviates from what it declares (warnings).
 */
export function exitCodeOf(status: IntegrityStatus): number {
  if (status === 'damaged' || status === 'unreadable') return 1
  return status === 'warnings' ? 2 : 0
}

/** `info` of a file whose prelude cannot be read (not RAD, empty, cut short): the report alone. */
function unreadableInfo(file: ByteSource, e: RadError, out: Output): number {
  const issue = issueFromError(e)
  const info = { file: file.name, integrity: integrityStatus([issue], false), issues: [issue], error: e.toData() }
  out.write(`${JSON.stringify(info, null, 2)}\n`)
  process.stderr.write(`${reportLine('error', { offset: e.offset ?? 0, message: e.message })}\n`)
  return 1
}

export async function runInfo(file: ByteSource, out: Output): Promise<number> {
  let opened
  try {
    opened = await openRad(file)
  } catch (e) {
    if (e instanceof RadError) return unreadableInfo(file, e, out)
    throw e
  }
  const { source, prelude, container } = opened
  const scan = await checkAll(source, prelude)
  const sem = inferSemantics(prelude)
  const info: Record<string, unknown> = {
    file: file.name,
    version: prelude.version,
    container,
    paired: prelude.paired,
    ref_count: prelude.refCount,
    num_chunks: prelude.numChunks,
    file_tags: prelude.fileTags.map(tagJson),
    read_tags: prelude.readTags.map(tagJson),
    aln_tags: prelude.alnTags.map(tagJson),
    file_tag_values: fileTagValues(prelude),
    codec: prelude.codec,
    nbytes_convention: scan.convention,
    chunks: scan.index.count,
    records: scan.records,
    alignments: scan.alignments,
    assay: sem.assay,
    integrity: integrityStatus(scan.issues, true),
    issues: scan.issues,
    warnings: [...sem.warnings, ...scan.warnings],
    ...compatibilityJson(assessCompatibility(prelude, container)),
  }
  if (scan.error) info.error = scan.error
  out.write(`${JSON.stringify(info, null, 2)}\n`)
  return exitCodeOf(integrityStatus(scan.issues, true))
}

/** `validate FILE`: exit 0 clean, 1 errors, 2 readable with warnings (exitCodeOf). */
export async function runValidate(file: ByteSource, out: Output): Promise<number> {
  const { source, prelude } = await openRad(file)
  const scan = await checkAll(source, prelude)
  for (const issue of scan.issues) {
    if (issue.severity === 'info') process.stderr.write(`note: ${issue.message}\n`)
    if (issue.severity === 'warning') process.stderr.write(`${reportLine('warning', issue)}\n`)
  }
  const status = integrityStatus(scan.issues, true)
  if (reportErrors(scan) !== 0) return exitCodeOf(status)
  const verdict = status === 'warnings' ? 'readable, with warnings' : 'ok'
  out.write(
    `${verdict}: ${plural(scan.index.count, 'chunk')}, ${plural(scan.records, 'record')}, ${plural(scan.alignments ?? 0, 'alignment')}\n`,
  )
  return exitCodeOf(status)
}

function dumpChunk(cols: ChunkColumns, prelude: Prelude, out: Output, records: readonly number[]): void {
  for (const r of records) out.write(`${dumpRecordJson(cols, r, prelude)}\n`)
}

/** The records `view` and `dump` print: a range of chunks (`--chunk N`, `--chunks A-B`) and of records (`--records A-B`). */
export type PrintRange = Pick<RecordSelection, 'chunks' | 'records'>

/**
 * Decodes the chunks of `range` in file order (the numbered walk, io/selectedRecords.ts)
 * and hands each to `emit`, with the records in `range` that `filter` keeps (possibly
 * none); a chunk that does not decode is listed and skipped, a damaged structure stops
 * the walk, and every error is printed after what decoded.
 */
async function eachChunk(
  file: ByteSource,
  out: Output,
  range: PrintRange,
  emit: (cols: ChunkColumns, firstRecord: number, prelude: Prelude, records: readonly number[]) => void,
  filter?: RecordFilter,
): Promise<number> {
  const { source, prelude } = await openRad(file)
  const sel = filteredSelection(prelude, range, filter)
  const scan = await scanNumberedChunks(source, prelude, sel, async (c) => {
    const cols = decodeChunk(c.bytes, c.offset, c.chunk, prelude, c.convention)
    emit(cols, c.firstRecord, prelude, chosenRecords(sel, c.firstRecord, cols))
    await out.maybeFlush()
    return false
  })
  if (!scan.error) beyondTheFile(range, scan.index.count, scan.records)
  await out.flush()
  return reportErrors(scan)
}

/** A range that starts past the file's end is an error (nothing would print, silently). */
function beyondTheFile(range: PrintRange, chunks: number, records: number): void {
  if (range.chunks && range.chunks[0] >= chunks) {
    throw new RadError(
      'BAD_VALUE',
      `there is no chunk ${String(range.chunks[0])}: the file has ${plural(chunks, 'chunk')}`,
    )
  }
  if (range.records && range.records[0] >= records) {
    throw new RadError(
      'BAD_VALUE',
      `there is no record ${String(range.records[0])}: the file has ${plural(records, 'record')}`,
    )
  }
}

/** Prints every error of a scan as `error at byte OFFSET (chunk K): MESSAGE`; 1 if any. */
export function reportErrors(scan: ScanResult): number {
  const errors = scan.issues.filter((i) => i.severity === 'error')
  for (const e of errors) {
    process.stderr.write(`${reportLine('error', { ...e, offset: e.offset ?? 0 })}\n`)
  }
  return errors.length > 0 ? 1 : 0
}

export function runDump(file: ByteSource, out: Output, range: PrintRange, filter?: RecordFilter): Promise<number> {
  return eachChunk(
    file,
    out,
    range,
    (cols, _first, prelude, records) => {
      dumpChunk(cols, prelude, out, records)
    },
    filter,
  )
}

export async function runView(
  file: ByteSource,
  out: Output,
  header: boolean,
  range: PrintRange,
  filter?: RecordFilter,
): Promise<number> {
  let sem: ReturnType<typeof inferSemantics> | undefined
  let headerDone = false
  return eachChunk(
    file,
    out,
    range,
    (cols, first, prelude, records) => {
      sem ??= inferSemantics(prelude)
      if (header && !headerDone) {
        prelude.refNames.forEach((name, i) => {
          out.write(`${String(i)}:${name}\n`)
        })
        headerDone = true
      }
      const lines = viewLines(cols, first, prelude, sem, records)
      if (lines.length > 0) out.write(`${lines.join('\n')}\n`)
    },
    filter,
  )
}
