import type { ByteSource } from '../io/byteSource'
import { chunkSpan, recordLayout } from '../rad/chunk'
import type { RecordLayout } from '../rad/chunk'
import { decodeChunk, decodeChunkInPlace } from '../rad/decodeChunk'
import { InPlaceScratch } from '../rad/decodeInPlace'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'
import type { ChunkRequest } from './protocol'

export interface Decoder {
  source: ByteSource
  prelude: Prelude
  layout: RecordLayout
}

export function makeDecoder(source: ByteSource, prelude: Prelude): Decoder {
  return { source, prelude, layout: recordLayout(prelude) }
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

/** The in-place decode's scratch: one per worker, reused by every batch (decodes are synchronous). */
const inPlaceScratch = new InPlaceScratch()

/**
 * The decode worker's body: one read covering a run of back-to-back chunks
 * (a Comlink call costs ~0.14 ms and a Blob read ~0.8 ms, so tiny chunks are
 * decoded in batches), then each chunk decoded alone (docs/format.md §4: chunks
 * are self-delimiting). A bad chunk ends the batch: the good ones before it
 * are returned, and if it is the first one its RadError is thrown.
 *
 * When the read buffer is ours, chunks are decoded in place
 * (decodeChunkInPlace): the returned columns are views on that one buffer,
 * which is what the caller transfers (and may hand back as `spare`).
 * `timing`, when given, adds the time spent decoding (the benchmark's split).
 */
export async function decodeBatch(
  decoder: Decoder,
  batch: readonly ChunkRequest[],
  convention: NbytesConvention,
  spare?: ArrayBuffer,
  timing?: { decodeMs: number },
): Promise<ChunkColumns[]> {
  const first = batch[0]
  const last = batch[batch.length - 1]
  if (!first || !last) return []
  const start = first.offset
  const end = last.offset + chunkSpan(last.nbytes, convention)
  const { bytes, owned } = await readBatch(decoder.source, start, end - start, spare)
  const { prelude, layout } = decoder
  const out: ChunkColumns[] = []
  const t0 = timing ? performance.now() : 0
  for (const req of batch) {
    const from = req.offset - start
    const span = chunkSpan(req.nbytes, convention)
    try {
      const chunkBytes = bytes.subarray(from, Math.min(bytes.length, from + span))
      out.push(
        owned
          ? decodeChunkInPlace(chunkBytes, req.offset, req.chunk, prelude, convention, layout, inPlaceScratch)
          : decodeChunk(chunkBytes, req.offset, req.chunk, prelude, convention, layout),
      )
    } catch (e) {
      if (out.length === 0) throw e
      break
    }
  }
  if (timing) timing.decodeMs += performance.now() - t0
  return out
}
