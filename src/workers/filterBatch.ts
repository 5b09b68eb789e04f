/**
 * A decode worker's side of a filter pass (README "Command line", filters; src/rad/recordFilter.ts): read a run of
 * back-to-back chunks, decode each, match its records against a compiled
 * filter (rad/recordFilter.ts), and return only the record numbers, never
 * the columns.
 */
import { CHUNK_HEADER_BYTES, chunkSpan } from '../rad/chunk'
import { chunkPayload, decodeChunk, decodeChunkInPlace } from '../rad/decodeChunk'
import { InPlaceScratch } from '../rad/decodeInPlace'
import { RadError } from '../rad/errors'
import { barcodeOffsetInRecord, barcodeOnly, firstRecordBarcodeMatches, matchChunk } from '../rad/recordFilter'
import type { ChunkColumns, NbytesConvention } from '../rad/types'
import { readBatch } from './decodeBatch'
import type { Decoder } from './decodeBatch'
import type { ChunkRequest } from './protocol'
import type { FilterBatchResult, FilterJob } from './protocol'

/** The worker's own read buffer, reused batch after batch (only record numbers leave the worker). */
let spare: ArrayBuffer | undefined
const scratch = new InPlaceScratch()

class MatchList {
  chunks: number[] = []
  counts: number[] = []
  whole: number[] = []
  records = new Uint32Array(1024)
  length = 0

  /** Room for `n` more record indices. */
  reserve(n: number): Uint32Array {
    if (this.length + n > this.records.length) {
      const grown = new Uint32Array(Math.max(this.records.length * 2, this.length + n))
      grown.set(this.records.subarray(0, this.length))
      this.records = grown
    }
    return this.records
  }

  add(chunk: number, count: number, whole: boolean): void {
    if (count === 0) return
    this.chunks.push(chunk)
    this.counts.push(count)
    this.whole.push(whole ? 1 : 0)
    if (!whole) this.length += count
  }

  result(bad: number[]): FilterBatchResult {
    return {
      chunks: Uint32Array.from(this.chunks),
      counts: Uint32Array.from(this.counts),
      whole: Uint8Array.from(this.whole),
      records: this.records.slice(0, this.length),
      bad,
    }
  }
}

/** The collated fast path: true/false when the first record's barcode decides the chunk, undefined to decode. */
function collatedAnswer(
  decoder: Decoder,
  bytes: Uint8Array,
  req: ChunkRequest,
  conv: NbytesConvention,
  job: FilterJob,
) {
  const crit = job.filter.barcode
  if (!job.collated || !crit || !barcodeOnly(job.filter)) return undefined
  const at = barcodeOffsetInRecord(decoder.prelude, crit.fields[0]?.tag ?? 0)
  if (at === undefined) return undefined
  const payload = chunkPayload(bytes, req.offset, req.chunk, decoder.prelude.codec, conv)
  if (payload.nrec === 0) return { nrec: 0, match: false }
  const match = firstRecordBarcodeMatches(payload.bytes, at, decoder.prelude, crit)
  return match === undefined ? undefined : { nrec: payload.nrec, match }
}

function decodeOne(decoder: Decoder, bytes: Uint8Array, req: ChunkRequest, conv: NbytesConvention, owned: boolean) {
  const { prelude, layout } = decoder
  return owned
    ? decodeChunkInPlace(bytes, req.offset, req.chunk, prelude, conv, layout, scratch)
    : decodeChunk(bytes, req.offset, req.chunk, prelude, conv, layout)
}

function matchOne(
  decoder: Decoder,
  bytes: Uint8Array,
  req: ChunkRequest,
  conv: NbytesConvention,
  job: FilterJob,
  owned: boolean,
  list: MatchList,
): void {
  const fast = collatedAnswer(decoder, bytes, req, conv, job)
  if (fast) {
    list.add(req.chunk, fast.match ? fast.nrec : 0, true)
    return
  }
  const cols: ChunkColumns = decodeOne(decoder, bytes, req, conv, owned)
  const out = list.reserve(cols.recordCount)
  list.add(req.chunk, matchChunk(cols, job.filter, out, list.length), false)
}

/**
 * Reads a run of back-to-back chunks with one read (as decodeBatch does) and
 * matches each. A chunk that cannot be decoded is listed in `bad` and the
 * batch goes on: a filter answers from every chunk it can read.
 */
export async function filterBatch(
  decoder: Decoder,
  batch: readonly ChunkRequest[],
  convention: NbytesConvention,
  job: FilterJob,
): Promise<FilterBatchResult> {
  const list = new MatchList()
  const bad: number[] = []
  const first = batch[0]
  const last = batch[batch.length - 1]
  if (!first || !last) return list.result(bad)
  const start = first.offset
  const end = last.offset + chunkSpan(last.nbytes, convention)
  const { bytes, owned } = await readBatch(decoder.source, start, end - start, spare)
  if (owned) spare = bytes.buffer as ArrayBuffer
  for (const req of batch) {
    const from = req.offset - start
    const chunkBytes = bytes.subarray(from, Math.min(bytes.length, from + chunkSpan(req.nbytes, convention)))
    if (chunkBytes.length < CHUNK_HEADER_BYTES) {
      bad.push(req.chunk)
      continue
    }
    try {
      matchOne(decoder, chunkBytes, req, convention, job, owned, list)
    } catch (e) {
      if (!(e instanceof RadError)) throw e
      bad.push(req.chunk)
    }
  }
  return list.result(bad)
}
