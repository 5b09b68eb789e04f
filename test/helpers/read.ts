/** Reads whole (small) RAD files through the real reader, for round-trip tests. */
import { expect } from 'vitest'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { RadError } from '../../src/rad/errors'
import type { RadErrorCode, RadErrorData } from '../../src/rad/errors'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import type { Semantics } from '../../src/rad/prelude/semantics'
import type { ChunkColumns, Prelude } from '../../src/rad/types'
import { alignmentView, recordView } from '../../src/rad/text/display'
import type { AlignmentView, RecordView } from '../../src/rad/text/display'
import { BytesSource } from '../../src/io/byteSource'
import type { ByteSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import type { ScanResult } from '../../src/io/scanChunks'

export interface ReadResult {
  source: ByteSource
  container: 'none' | 'snappy-framed'
  prelude: Prelude
  scan: ScanResult
  chunks: ChunkColumns[]
  sem: Semantics
}

export function toSource(file: Uint8Array | ByteSource): ByteSource {
  return file instanceof Uint8Array ? new BytesSource(file, 'test.rad') : file
}

/**
 * Opens a file, indexes every chunk with scanChunks, then decodes each indexed
 * chunk on its own (as a decode worker would, from offset + nbytes only).
 * Throws the scan's error, if any, unless `allowError`.
 */
export async function readRad(file: Uint8Array | ByteSource, allowError = false): Promise<ReadResult> {
  const opened = await openRad(toSource(file))
  const { source, prelude } = opened
  const scan = await scanChunks(source, prelude)
  if (scan.error && !allowError) throw RadError.fromData(scan.error)
  const chunks: ChunkColumns[] = []
  for (let k = 0; k < scan.index.count; k++) {
    const offset = scan.index.offset[k] ?? 0
    const span = chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention)
    const bytes = await source.read(offset, span)
    chunks.push(decodeChunk(bytes, offset, k, prelude, scan.convention))
  }
  return { source, container: opened.container, prelude, scan, chunks, sem: inferSemantics(prelude) }
}

export interface FlatRecord {
  chunk: number
  record: RecordView
  alns: AlignmentView[]
}

/** Every record of a read file, decoded for people (display helpers). */
export function flatRecords(r: ReadResult): FlatRecord[] {
  const out: FlatRecord[] = []
  for (const cols of r.chunks) {
    for (let i = 0; i < cols.recordCount; i++) {
      const record = recordView(cols, i, r.prelude, r.sem)
      const alns: AlignmentView[] = []
      for (let k = cols.alnStart[i] ?? 0; k < (cols.alnStart[i + 1] ?? 0); k++) {
        alns.push(alignmentView(cols, k, r.prelude, r.sem, record.mappingType))
      }
      out.push({ chunk: cols.chunk, record, alns })
    }
  }
  return out
}

export interface ErrorExpectation {
  code: RadErrorCode
  offset?: number
  chunk?: number
  message?: RegExp
}

function check(e: unknown, want: ErrorExpectation): RadError {
  expect(e).toBeInstanceOf(RadError)
  const err = e as RadError
  expect({ code: err.code, message: err.message }).toMatchObject({ code: want.code })
  if ('offset' in want) expect(err.offset, `offset of ${err.code}: ${err.message}`).toBe(want.offset)
  if ('chunk' in want) expect(err.chunk, `chunk of ${err.code}: ${err.message}`).toBe(want.chunk)
  if (want.message) expect(err.message).toMatch(want.message)
  return err
}

/** Asserts `fn` throws a RadError with this code (and offset/chunk when given). */
export function expectRadError(fn: () => unknown, want: ErrorExpectation): RadError {
  try {
    fn()
  } catch (e) {
    return check(e, want)
  }
  throw new Error(`expected RadError ${want.code}, but nothing was thrown`)
}

export async function expectRadErrorAsync(p: Promise<unknown>, want: ErrorExpectation): Promise<RadError> {
  try {
    await p
  } catch (e) {
    return check(e, want)
  }
  throw new Error(`expected RadError ${want.code}, but the promise resolved`)
}

/** Asserts a scan stopped with this error. */
export function expectScanError(scan: ScanResult, want: ErrorExpectation): RadErrorData {
  expect(scan.error, 'the scan should report an error').toBeDefined()
  check(RadError.fromData(scan.error as RadErrorData), want)
  return scan.error as RadErrorData
}

/**
 * Opens and validates a whole file the way `rad validate` does: prelude,
 * chunk walk, and the exact-fill check of every chunk. Returns the first
 * RadError, or undefined when the file is sound. Anything else propagates.
 */
export async function firstError(file: Uint8Array | ByteSource): Promise<RadError | undefined> {
  try {
    const r = await readRad(file, true)
    return r.scan.error ? RadError.fromData(r.scan.error) : undefined
  } catch (e) {
    if (e instanceof RadError) return e
    throw e
  }
}
