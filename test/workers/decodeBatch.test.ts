import { readFileSync } from 'node:fs'
import { MessageChannel } from 'node:worker_threads'
import { expose, transfer } from 'comlink'
import type { Endpoint } from 'comlink'
import { describe, expect, it } from 'vitest'
import { BlobSource } from '../../src/io/blobSource'
import { BytesSource } from '../../src/io/byteSource'
import { chunkSpan } from '../../src/rad/chunk'
import { decodeChunk } from '../../src/rad/decodeChunk'
import { parsePrelude } from '../../src/rad/prelude'
import type { ChunkColumns } from '../../src/rad/types'
import { ChunkCache } from '../../src/workers/chunkCache'
import { decodeBatch, makeDecoder } from '../../src/workers/decodeBatch'
import { readBlobInto } from '../../src/io/blobSource'
import type { Decoder } from '../../src/workers/decodeBatch'
import { BULK_BATCH_BYTES, DecodePool, bulkBatches } from '../../src/workers/decodePool'
import type { ChunkRequest, DecodeApi } from '../../src/workers/protocol'
import { chunkBuffers } from '../../src/workers/transfer'
import { SALMON_V3 } from '../helpers/fixtures'

const file = new Uint8Array(readFileSync(SALMON_V3))
const prelude = parsePrelude(file, file.length)

function requests(): ChunkRequest[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const out: ChunkRequest[] = []
  let offset = prelude.firstChunkOffset
  for (let k = 0; k < prelude.numChunks; k++) {
    const nbytes = view.getUint32(offset, true)
    out.push({ chunk: k, offset, nbytes })
    offset += nbytes
  }
  return out
}

function plain(cols: ChunkColumns): number[][] {
  return [
    Array.from(cols.alnStart),
    ...[...cols.readColumns, ...cols.alnColumns].map((c) => Array.from(c.values as ArrayLike<number>)),
  ]
}

function expected(req: ChunkRequest): number[][] {
  return plain(decodeChunk(file.subarray(req.offset), req.offset, req.chunk, prelude, 'header-inclusive'))
}

describe('decodeBatch', () => {
  it('decodes in place only reads that are its own: a Blob read, or a spare buffer read into', async () => {
    const reqs = requests()
    const blob = new Blob([file])
    const fresh = await decodeBatch(
      makeDecoder(new BlobSource(blob), prelude, { freshReads: true }),
      reqs,
      'header-inclusive',
    )
    expect(fresh.map(plain)).toEqual(reqs.map(expected))
    expect(new Set(fresh.map((c) => c.alnStart.buffer)).size).toBe(1)

    const spare = new ArrayBuffer(file.length)
    const intoSpare = await decodeBatch(
      makeDecoder(new BlobSource(blob), prelude, { freshReads: true, blob }),
      reqs,
      'header-inclusive',
      spare,
    )
    expect(intoSpare.map(plain)).toEqual(reqs.map(expected))
    expect(intoSpare[0]?.alnStart.buffer.byteLength).toBe(file.length)
    expect(spare.byteLength).toBe(0) // detached: its memory now holds the columns

    // A source that may hand out shared bytes is never written to.
    const shared = new BytesSource(file.slice())
    const copied = await decodeBatch(makeDecoder(shared, prelude), reqs, 'header-inclusive')
    expect(copied.map(plain)).toEqual(reqs.map(expected))
    expect(shared.bytes).toEqual(file)
  })

  it('a spare smaller than the batch is not used', async () => {
    const reqs = requests()
    const blob = new Blob([file])
    const small = new ArrayBuffer(16)
    const cols = await decodeBatch(
      makeDecoder(new BlobSource(blob), prelude, { freshReads: true, blob }),
      reqs,
      'header-inclusive',
      small,
    )
    expect(cols.map(plain)).toEqual(reqs.map(expected))
    expect(small.byteLength).toBe(16)
  })

  it('readBlobInto reads a range into the given memory', async () => {
    const blob = new Blob([file])
    const got = await readBlobInto(blob, 100, 5000, new ArrayBuffer(8000))
    expect(got?.length).toBe(5000)
    expect(got?.buffer.byteLength).toBe(8000)
    expect(got).toEqual(file.subarray(100, 5100))
  })

  it('a bad chunk ends the batch; the good ones before it come back decoded', async () => {
    const reqs = requests()
    const broken = file.slice()
    const third = reqs[2]
    if (!third) throw new Error('3 chunks expected')
    const view = new DataView(broken.buffer)
    view.setUint32(third.offset + 4, view.getUint32(third.offset + 4, true) + 1, true)
    const blob = new Blob([broken])
    const decoder = makeDecoder(new BlobSource(blob), prelude, { freshReads: true, blob })
    const cols = await decodeBatch(decoder, reqs, 'header-inclusive', new ArrayBuffer(file.length))
    expect(cols.map(plain)).toEqual(reqs.slice(0, 2).map(expected))
    await expect(decodeBatch(decoder, reqs.slice(2), 'header-inclusive')).rejects.toThrow(/chunk 2/)
  })
})

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

describe('ChunkCache', () => {
  const cols = (buffer: ArrayBuffer, at: number): ChunkColumns => ({
    chunk: 0,
    offset: 0,
    nbytes: 0,
    recordCount: 1,
    alignmentCount: 1,
    alnStart: new Uint32Array(buffer, at, 2),
    readColumns: [{ kind: 'u32', values: new Uint32Array(buffer, at + 8, 1) }],
    alnColumns: [{ kind: 'u32', values: new Uint32Array(buffer, at + 12, 1) }],
  })

  it('counts a buffer shared by chunks once, and frees it with the last of them', () => {
    const cache = new ChunkCache(2500, () => undefined)
    const batch = new ArrayBuffer(1000)
    cache.insert(1, cols(batch, 0))
    cache.insert(2, cols(batch, 16))
    expect(cache.byteLength).toBe(1000)
    const other = new ArrayBuffer(1000)
    cache.insert(3, cols(other, 0))
    expect(cache.byteLength).toBe(2000)
    // A third buffer is over budget: chunk 1 goes, but its buffer stays (chunk 2 holds it), so chunk 2 goes too.
    cache.insert(4, cols(new ArrayBuffer(1000), 0))
    expect(cache.get(1)).toBeUndefined()
    expect(cache.get(2)).toBeUndefined()
    expect(cache.byteLength).toBe(2000)
    cache.clear()
    expect(cache.byteLength).toBe(0)
  })
})

/** A decode worker on a MessageChannel (decode.worker.ts's body), as far as DecodePool can tell. */
function channelWorker(): Worker {
  const { port1, port2 } = new MessageChannel()
  let decoder: Decoder | undefined
  const api: DecodeApi = {
    open(blob, p) {
      decoder = makeDecoder(new BlobSource(blob), p, { freshReads: true, blob })
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
    const broken = file.slice()
    const bad = reqs[1]
    if (!bad) throw new Error('2 chunks expected')
    const view = new DataView(broken.buffer)
    view.setUint32(bad.offset + 4, view.getUint32(bad.offset + 4, true) + 1, true)
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
