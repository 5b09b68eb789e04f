// The decode worker's two halves timed apart (its reads vs decoding), as in a bulk pass: each batch
// read into one of this worker's own buffers (bulkDecode.ts hands them back), decoded in place,
// and only counts returned.
import { expose } from 'comlink'
import { BlobSource } from '../../src/io/blobSource'
import type { NbytesConvention, Prelude } from '../../src/rad/types'
import { decodeBatch } from '../../src/workers/decodeBatch'
import { makeDecoder } from '../../src/workers/walkBatch'
import type { Decoder } from '../../src/workers/walkBatch'
import { BULK_BATCH_BYTES } from '../../src/workers/protocol'
import type { ChunkRequest } from '../../src/workers/protocol'

let decoder: Decoder | undefined
let decodeMs = 0
const spares: ArrayBuffer[] = []

expose({
  spent() {
    return decodeMs
  },
  open(file: Blob, prelude: Prelude) {
    decoder = makeDecoder(new BlobSource(file), prelude)
  },
  async decode(batch: ChunkRequest[], convention: NbytesConvention) {
    if (!decoder) throw new Error('open first')
    const timing = { decodeMs: 0 }
    const { columns: chunks } = await decodeBatch(
      decoder,
      batch,
      convention,
      spares.pop() ?? new ArrayBuffer(BULK_BATCH_BYTES),
      timing,
    )
    decodeMs += timing.decodeMs
    let records = 0
    let bytes = 0
    for (const c of chunks) {
      records += c.recordCount
      bytes += c.nbytes
    }
    const buffer = chunks[0]?.alnStart.buffer
    if (buffer instanceof ArrayBuffer && buffer.byteLength >= BULK_BATCH_BYTES) spares.push(buffer)
    return { records, bytes }
  },
})
