import type { ByteSource } from '../io/byteSource'
import { chunkSpan, recordLayout } from '../rad/chunk'
import type { RecordLayout } from '../rad/chunk'
import { decodeChunk } from '../rad/decodeChunk'
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
 * The decode worker's body: one read covering a run of back-to-back chunks
 * (a Comlink call costs ~0.14 ms and a Blob read ~0.8 ms, so tiny chunks are
 * decoded in batches), then each chunk decoded alone (RAD-FORMAT.md §4: chunks
 * are self-delimiting). A bad chunk ends the batch: the good ones before it
 * are returned, and if it is the first one its RadError is thrown.
 */
export async function decodeBatch(
  decoder: Decoder,
  batch: readonly ChunkRequest[],
  convention: NbytesConvention,
): Promise<ChunkColumns[]> {
  const first = batch[0]
  const last = batch[batch.length - 1]
  if (!first || !last) return []
  const start = first.offset
  const end = last.offset + chunkSpan(last.nbytes, convention)
  const bytes = await decoder.source.read(start, end - start)
  const out: ChunkColumns[] = []
  for (const req of batch) {
    const from = req.offset - start
    const span = chunkSpan(req.nbytes, convention)
    try {
      const chunkBytes = bytes.subarray(from, Math.min(bytes.length, from + span))
      out.push(decodeChunk(chunkBytes, req.offset, req.chunk, decoder.prelude, convention, decoder.layout))
    } catch (e) {
      if (out.length === 0) throw e
      break
    }
  }
  return out
}
