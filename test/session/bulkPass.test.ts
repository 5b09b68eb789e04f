import { describe, expect, it } from 'vitest'
import { chunkSpan } from '../../src/rad/chunk'
import { RadError } from '../../src/rad/errors'
import type { ChunkColumns } from '../../src/rad/types'
import { bulkBatches, bulkPass } from '../../src/session/bulkPass'
import { BULK_BATCH_BYTES } from '../../src/workers/protocol'
import type { BulkLane } from '../../src/session/bulkPass'
import type { ChunkRequest } from '../../src/workers/protocol'

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

/** Columns of one chunk on `buffer` (a decode in place hands back the batch's buffer). */
function columnsOn(req: ChunkRequest, buffer: ArrayBuffer): ChunkColumns {
  return {
    chunk: req.chunk,
    offset: req.offset,
    nbytes: req.nbytes,
    recordCount: 0,
    alignmentCount: 0,
    alnStart: new Uint32Array(buffer, 0, 1),
    readColumns: [],
    alnColumns: [],
  }
}

/** Far-apart chunks: one batch each. */
const spread: ChunkRequest[] = Array.from({ length: 20 }, (_, k) => ({ chunk: k, offset: k * 1000, nbytes: 100 }))

/**
 * A lane that decodes each batch on the spare it is given (as decodeBatch
 * does in place), failing chunks in `bad` as decodeBatch would: the good
 * ones before a bad one come back, a bad first one rejects.
 */
function lane(spares: (ArrayBuffer | undefined)[], bad = new Set<number>()): BulkLane {
  return async (batch, spare) => {
    await Promise.resolve()
    spares.push(spare)
    const good = batch.findIndex((r) => bad.has(r.chunk))
    const upTo = good < 0 ? batch.length : good
    if (upTo === 0) throw new RadError('CHUNK_OVERRUN', `chunk ${String(batch[0]?.chunk)} is bad`)
    const buffer = spare ?? new ArrayBuffer(8)
    return batch.slice(0, upTo).map((r) => columnsOn(r, buffer))
  }
}

describe('bulkPass', () => {
  it('gives each lane a spare of the largest batch, made at most once per lane and then reused', async () => {
    const given: (ArrayBuffer | undefined)[] = []
    const seen: number[] = []
    await bulkPass([lane(given), lane(given), lane(given)], spread, 'header-inclusive', (c) => seen.push(c.chunk))
    expect(seen.sort((a, b) => a - b)).toEqual(spread.map((r) => r.chunk))
    expect(given).toHaveLength(spread.length)
    expect(given.every((b) => b?.byteLength === 100)).toBe(true)
    expect(new Set(given).size).toBeLessThanOrEqual(3)
  })

  it('reports a bad chunk to onChunkError and goes on after it; without onChunkError the pass rejects', async () => {
    const joined: ChunkRequest[] = Array.from({ length: 5 }, (_, k) => ({ chunk: k, offset: k * 100, nbytes: 100 }))
    const seen: number[] = []
    const errors: number[] = []
    const bad = new Set([2])
    await bulkPass([lane([], bad)], joined, 'header-inclusive', (c) => seen.push(c.chunk), {
      onChunkError: (req) => errors.push(req.chunk),
    })
    expect(seen).toEqual([0, 1, 3, 4])
    expect(errors).toEqual([2])
    await expect(bulkPass([lane([], bad)], joined, 'header-inclusive', () => undefined)).rejects.toThrow(/chunk 2/)
  })

  it('a lane whose worker stopped ends the pass even with onChunkError; an aborted signal rejects with CANCELLED', async () => {
    const stopped: BulkLane = () => Promise.reject(new RadError('WORKER_FAILED', 'a decode worker stopped'))
    const errors: number[] = []
    await expect(
      bulkPass([stopped, lane([])], spread, 'header-inclusive', () => undefined, {
        onChunkError: (req) => errors.push(req.chunk),
      }),
    ).rejects.toThrow(/worker stopped/)
    expect(errors).toEqual([])
    const controller = new AbortController()
    controller.abort()
    await expect(
      bulkPass([lane([])], spread, 'header-inclusive', () => undefined, { signal: controller.signal }),
    ).rejects.toSatisfy((e) => e instanceof RadError && e.code === 'CANCELLED')
  })
})
