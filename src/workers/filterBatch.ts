/**
 * A decode worker's side of a filter pass (README "Command line", filters; src/rad/filter/recordFilter.ts): read a run of
 * back-to-back chunks, decode each, match its records against a compiled
 * filter (rad/filter/recordFilter.ts), and return only the record numbers, never
 * the columns.
 */
import { chunkPayload } from '../rad/decode/decodeChunk'
import { barcodeOffsetInRecord, barcodeOnly, firstRecordBarcodeMatches, matchChunk } from '../rad/filter/recordFilter'
import type { NbytesConvention } from '../rad/types'
import type { BadChunk, ChunkRequest, FilterBatchResult, FilterJob } from './protocol'
import { ReadBuffers, walkBatch } from './walkBatch'
import type { ChunkVisit, Decoder } from './walkBatch'

/** This worker's read buffers, reused batch after batch (only record numbers leave the worker). */
const buffers = new ReadBuffers()

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

  result(bad: BadChunk[]): FilterBatchResult {
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
function collatedAnswer(decoder: Decoder, chunk: ChunkVisit, conv: NbytesConvention, job: FilterJob) {
  const crit = job.filter.barcode
  if (!job.collated || !crit || !barcodeOnly(job.filter)) return undefined
  const at = barcodeOffsetInRecord(decoder.prelude, crit.fields[0]?.tag ?? 0)
  if (at === undefined) return undefined
  const { req } = chunk
  const payload = chunkPayload(chunk.bytes, req.offset, req.chunk, decoder.prelude.codec, conv)
  if (payload.nrec === 0) return { nrec: 0, match: false }
  const match = firstRecordBarcodeMatches(payload.bytes, at, decoder.prelude, crit)
  return match === undefined ? undefined : { nrec: payload.nrec, match }
}

function matchOne(decoder: Decoder, chunk: ChunkVisit, conv: NbytesConvention, job: FilterJob, list: MatchList): void {
  const fast = collatedAnswer(decoder, chunk, conv, job)
  if (fast) {
    list.add(chunk.req.chunk, fast.match ? fast.nrec : 0, true)
    return
  }
  const cols = chunk.decode()
  const out = list.reserve(cols.recordCount)
  list.add(chunk.req.chunk, matchChunk(cols, job.filter, out, list.length), false)
}

/**
 * Walks a run of back-to-back chunks (walkBatch.ts) and matches each; bad chunks are listed and
 * the batch goes on: a filter answers from every chunk it can read.
 */
export async function filterBatch(
  decoder: Decoder,
  batch: readonly ChunkRequest[],
  convention: NbytesConvention,
  job: FilterJob,
): Promise<FilterBatchResult> {
  const list = new MatchList()
  const walk = await walkBatch(decoder, batch, convention, buffers.take(), (chunk) => {
    matchOne(decoder, chunk, convention, job, list)
  })
  buffers.giveBack(walk.buffer)
  return list.result(walk.bad)
}
