import { MessageChannel } from 'node:worker_threads'
import { expose, transfer } from 'comlink'
import type { Endpoint } from 'comlink'
import { describe, expect, it } from 'vitest'
import { BlobSource } from '../../src/io/blobSource'
import { chunkSpan } from '../../src/rad/chunk'
import { decodeBatch, makeDecoder } from '../../src/workers/decodeBatch'
import type { Decoder } from '../../src/workers/decodeBatch'
import { BULK_BATCH_BYTES, DecodePool, bulkBatches } from '../../src/workers/decodePool'
import type { ChunkRequest, DecodeApi } from '../../src/workers/protocol'
import { chunkBuffers } from '../../src/workers/transfer'
import { breakChunk, expected, plain, prelude, requests } from '../helpers/salmonChunks'

describe('bulkBatches', () => {
  it('groups back-to-back chunks up to BULK_BATCH_BYTES and breaks at gaps', () => {
    const size = 10 << 20
    const reqs: ChunkRequest[] = [0, 1, 2, 3, 5].map((k) => ({ chunk: k, offset: 100 + k * size, nbytes: size }))
    const batches = bulkBatches(reqs, 'header-inclusive')
    expect(batches.map((b) => b.map((r) => r.chunk))).toEqual([[0, 1, 2], [3], [5]])
    for (const b of batches) {
      const last = b[b.length - 1]
      if (last && b[0]) {
        expect(last.offset + chunkSpan(last.nbytes, 'header-inclusive') - b[0].offset).toBeLessThanOrEqual(
          BULK_BATCH_BYTES,
        )
      }
    }
    expect(bulkBatches([{ chunk: 0, offset: 0, nbytes: BULK_BATCH_BYTES * 2 }], 'header-inclusive')).toHaveLength(1)
  })
})

/** A decode worker on a MessageChannel (decode.worker.ts's body), as far as DecodePool can tell. */
function channelWorker(): Worker {
  const { port1, port2 } = new MessageChannel()
  let decoder: Decoder | undefined
  const api: DecodeApi = {
    open(blob, p) {
      decoder = makeDecoder(new BlobSource(blob), p)
      return Promise.resolve()
    },
    async decode(batch, convention, spare) {
      if (!decoder) throw new Error('open first')
      const chunks = await decodeBatch(decoder, batch, convention, spare)
      return transfer(chunks, chunkBuffers(chunks))
    },
  }
  expose(api, port2 as unknown as Endpoint)
  const worker = port1 as unknown as Worker & { terminate(): void }
  worker.terminate = () => {
    port1.close()
  }
  return worker
}

describe('DecodePool.bulk', () => {
  it('hands every chunk to onChunk once, reports a bad one and goes on, and reads into buffers it gave back', async () => {
    const reqs = requests()
    const { bytes: broken } = breakChunk(1)
    const pool = new DecodePool(new Blob([broken]), {
      size: 2,
      createWorker: channelWorker,
      onWorkerFailed: () => undefined,
    })
    try {
      pool.open(prelude, 'none')
      pool.setConvention('header-inclusive')
      // Chunks 0 and 2 over and over: each its own batch, so buffers are handed back and reused.
      const spread = Array.from({ length: 12 }, (_, i) => reqs[(i % 2) * 2] as ChunkRequest)
      const seen: number[] = []
      const sizes = new Set<number>()
      await pool.bulk(spread, (c) => {
        expect(plain(c)).toEqual(expected(reqs[c.chunk] as ChunkRequest))
        seen.push(c.chunk)
        sizes.add(c.alnStart.buffer.byteLength)
      })
      expect(seen.sort((a, b) => a - b)).toEqual(spread.map((r) => r.chunk).sort((a, b) => a - b))
      // Every batch was read into a spare of the largest batch's size, none into a fresh buffer of its own.
      expect([...sizes]).toEqual([Math.max(...spread.map((r) => r.nbytes))])
      const errors: number[] = []
      const all: number[] = []
      await pool.bulk(reqs, (c) => all.push(c.chunk), { onChunkError: (req) => errors.push(req.chunk) })
      expect(errors).toEqual([1])
      expect(all.sort((a, b) => a - b)).toEqual(reqs.filter((r) => r.chunk !== 1).map((r) => r.chunk))
      await expect(pool.bulk(reqs, () => undefined)).rejects.toThrow(/chunk 1/)
    } finally {
      pool.dispose()
    }
  })
})
