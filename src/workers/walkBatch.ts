/**
 * The one walk over chunks inside a decode worker (ADR 0011, "One pass runner"): the table's
 * decode, a filter, and the statistics pass are each a visitor of it.
 *
 * One read covers a run of back-to-back chunks (a Comlink call costs ~0.14 ms and a Blob read
 * ~0.8 ms, so tiny chunks go in batches); each chunk is then visited alone (docs/format.md §4:
 * chunks are self-delimiting). The one bad-chunk rule: a chunk that cannot be decoded (its
 * visitor throws a RadError) is listed in `bad` with its error and the walk goes on with the
 * next chunk; the bytes are already read. A failed read, or any other error, ends the call.
 */
import type { ByteSource } from '../io/byteSource'
import { CHUNK_HEADER_BYTES, chunkSpan, recordLayout, u32le } from '../rad/decode/chunk'
import type { RecordLayout } from '../rad/decode/chunk'
import { decodeChunk, decodeChunkInPlace } from '../rad/decode/decodeChunk'
import { InPlaceScratch } from '../rad/decode/decodeInPlace'
import { RadError, fmtInt, truncatedError } from '../rad/errors'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'
import { BULK_BATCH_BYTES, BULK_DEPTH } from './protocol'
import type { BadChunk, ChunkRequest } from './protocol'

export interface Decoder {
  source: ByteSource
  prelude: Prelude
  layout: RecordLayout
}

export function makeDecoder(source: ByteSource, prelude: Prelude): Decoder {
  return { source, prelude, layout: recordLayout(prelude) }
}

/** One chunk of a walk: its request, its bytes (header included), and its columns on demand. */
export interface ChunkVisit {
  req: ChunkRequest
  bytes: Uint8Array
  /**
   * Decodes the chunk: in place when the read buffer is ours (the columns are then views on
   * that buffer), else into fresh arrays. Throws the chunk's RadError.
   */
  decode(): ChunkColumns
}

export interface BatchWalk {
  /** The chunks that could not be decoded, in order, with why. */
  bad: BadChunk[]
  /** The buffer the batch was read into when it is ours to read into again (see readBatch). */
  buffer: ArrayBuffer | undefined
}

/**
 * The bytes of one batch, and whether they are ours to overwrite: read into
 * `spare` when the source can (no fresh memory: in Chromium, faulting in a
 * fresh buffer costs the worker as much as the read itself), else a plain
 * read, ours when the source says its reads are (ByteSource.ownedReads).
 */
export async function readBatch(
  source: ByteSource,
  start: number,
  length: number,
  spare: ArrayBuffer | undefined,
): Promise<{ bytes: Uint8Array; owned: boolean }> {
  if (spare && source.readInto) {
    const bytes = await source.readInto(start, length, spare)
    if (bytes) return { bytes, owned: true }
  }
  return { bytes: await source.read(start, length), owned: source.ownedReads === true }
}

/**
 * Read buffers a worker reuses for its passes (filter, statistics), one per call in flight: a
 * walk's columns are views on its buffer, free again once visited, and fresh memory costs
 * Chromium's worker about as much as decoding.
 */
export class ReadBuffers {
  private readonly free: ArrayBuffer[] = []

  /** A free buffer, or a fresh one of BULK_BATCH_BYTES. */
  take(): ArrayBuffer {
    return this.free.pop() ?? new ArrayBuffer(BULK_BATCH_BYTES)
  }

  /** Keeps a walk's buffer for the next call when it can hold any batch. */
  giveBack(buffer: ArrayBuffer | undefined): void {
    if (buffer && buffer.byteLength >= BULK_BATCH_BYTES && this.free.length < BULK_DEPTH) this.free.push(buffer)
  }
}

/** The in-place decode's scratch: one per worker, reused by every chunk (decodes are synchronous). */
const inPlaceScratch = new InPlaceScratch()

/** Reads `batch` with one read (into `spare` when given) and visits each chunk in order. */
export async function walkBatch(
  decoder: Decoder,
  batch: readonly ChunkRequest[],
  convention: NbytesConvention,
  spare: ArrayBuffer | undefined,
  visit: (chunk: ChunkVisit) => void,
): Promise<BatchWalk> {
  const bad: BadChunk[] = []
  const first = batch[0]
  const last = batch[batch.length - 1]
  if (!first || !last) return { bad, buffer: undefined }
  const start = first.offset
  const end = last.offset + chunkSpan(last.nbytes, convention)
  const { bytes, owned } = await readBatch(decoder.source, start, end - start, spare)
  bad.push(...visitChunks(decoder, bytes, start, batch, convention, owned, visit))
  return { bad, buffer: owned ? (bytes.buffer as ArrayBuffer) : undefined }
}

/**
 * Visits each of `reqs`, chunks lying in `bytes` (the file from byte `start`), in order: the one
 * bad-chunk rule (a visitor's RadError lists the chunk and the walk goes on). `owned`: the bytes
 * are ours to decode in place.
 */
export function visitChunks(
  decoder: Decoder,
  bytes: Uint8Array,
  start: number,
  reqs: readonly ChunkRequest[],
  convention: NbytesConvention,
  owned: boolean,
  visit: (chunk: ChunkVisit) => void,
): BadChunk[] {
  const bad: BadChunk[] = []
  const { prelude, layout } = decoder
  for (const req of reqs) {
    const from = req.offset - start
    const chunkBytes = bytes.subarray(from, Math.min(bytes.length, from + chunkSpan(req.nbytes, convention)))
    if (chunkBytes.length < CHUNK_HEADER_BYTES) {
      const cut = truncatedError(
        `the header of chunk ${fmtInt(req.chunk)}`,
        CHUNK_HEADER_BYTES,
        req.offset,
        start + bytes.length,
      )
      bad.push({ chunk: req.chunk, error: cut.inChunk(req.chunk).toData() })
      continue
    }
    const decode = (): ChunkColumns =>
      owned
        ? decodeChunkInPlace(chunkBytes, req.offset, req.chunk, prelude, convention, layout, inPlaceScratch)
        : decodeChunk(chunkBytes, req.offset, req.chunk, prelude, convention, layout)
    try {
      visit({ req, bytes: chunkBytes, decode })
    } catch (e) {
      if (!(e instanceof RadError)) throw e
      bad.push({ chunk: req.chunk, error: e.inChunk(req.chunk).toData() })
    }
  }
  return bad
}

/**
 * The chunks back to back in `bytes` (the file from byte `start`, chunk `firstChunk` first), as
 * requests, read from their headers (§4.1); a header cut short ends the list.
 */
export function chunksIn(
  bytes: Uint8Array,
  start: number,
  firstChunk: number,
  convention: NbytesConvention,
): ChunkRequest[] {
  const reqs: ChunkRequest[] = []
  for (let at = 0, chunk = firstChunk; at + CHUNK_HEADER_BYTES <= bytes.length; chunk++) {
    const nbytes = u32le(bytes, at)
    reqs.push({ chunk, offset: start + at, nbytes })
    at += Math.max(CHUNK_HEADER_BYTES, chunkSpan(nbytes, convention))
  }
  return reqs
}
