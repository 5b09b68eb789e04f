import { MessageChannel } from 'node:worker_threads'
import { expose, transfer } from 'comlink'
import type { Endpoint } from 'comlink'
import { describe, expect, it } from 'vitest'
import { openByteSource } from '../../src/io/sourceSpec'
import { RadError } from '../../src/rad/errors'
import { decodeBatch } from '../../src/workers/decodeBatch'
import { filterBatch } from '../../src/workers/filterBatch'
import { makeDecoder } from '../../src/workers/walkBatch'
import type { Decoder } from '../../src/workers/walkBatch'
import { DecodePool } from '../../src/session/rows/decodePool'
import { lanesOf, runLanes } from '../../src/session/rows/lanes'
import { confirmUnchanged } from '../../src/io/fileFingerprint'
import type { ChunkRequest, DecodeApi } from '../../src/workers/protocol'
import { chunkBuffers } from '../../src/workers/transfer'
import { breakChunk, expected, file, plain, prelude, requests } from '../helpers/salmonChunks'

/**
 * A decode worker on a MessageChannel (decode.worker.ts's body), as far as
 * DecodePool can tell. A `hung` one never answers a decode call.
 */
function channelWorker(hung = false): Worker {
  const { port1, port2 } = new MessageChannel()
  let decoder: Decoder | undefined
  const api: DecodeApi = {
    async open(spec, p) {
      decoder = makeDecoder(await openByteSource(spec), p)
    },
    async decode(batch, convention, spare) {
      if (!decoder) throw new Error('open first')
      if (hung) await new Promise(() => undefined)
      const decoded = await decodeBatch(decoder, batch, convention, spare)
      return transfer(decoded, chunkBuffers(decoded.columns))
    },
    recheck(fingerprint) {
      if (!decoder) throw new Error('open first')
      return confirmUnchanged(decoder.source, fingerprint)
    },
    filter(batch, convention, job) {
      if (!decoder) throw new Error('open first')
      return filterBatch(decoder, batch, convention, job)
    },
  }
  expose(api, port2 as unknown as Endpoint)
  const worker = port1 as unknown as Worker & { terminate(): void }
  worker.terminate = () => {
    port1.close()
  }
  return worker
}

describe('DecodePool: the one bad-chunk rule', () => {
  it('a bad chunk rejects its own request with its error; the batch around it decodes', async () => {
    const reqs = requests()
    const { bytes: broken } = breakChunk(1)
    const pool = new DecodePool(
      { kind: 'file', file: new Blob([broken]) },
      { size: 1, createWorker: () => channelWorker(), onWorkerFailed: () => undefined },
    )
    try {
      pool.open(prelude, 'none')
      pool.setConvention('header-inclusive')
      const asked = reqs.slice(0, 3).map((r) => pool.request(r, 0))
      const [first, second, third] = await Promise.allSettled(asked)
      expect(first?.status === 'fulfilled' && plain(first.value)).toEqual(expected(reqs[0] as ChunkRequest))
      expect(second?.status === 'rejected' && String(second.reason)).toMatch(/chunk 1/)
      expect(third?.status === 'fulfilled' && plain(third.value)).toEqual(expected(reqs[2] as ChunkRequest))
    } finally {
      pool.dispose()
    }
  })

  it('a whole-file pass over the workers (lanes.ts) decodes every chunk once and lists the bad one', async () => {
    const reqs = requests()
    const { bytes: broken } = breakChunk(1)
    const pool = new DecodePool(
      { kind: 'file', file: new Blob([broken]) },
      { size: 2, createWorker: () => channelWorker(), onWorkerFailed: () => undefined },
    )
    try {
      pool.open(prelude, 'none')
      pool.setConvention('header-inclusive')
      const { calls, convention } = pool.workers()
      const lanes = lanesOf(calls, (api, batch) => api.decode(batch, convention))
      const seen: number[] = []
      const bad: number[] = []
      await runLanes(
        lanes,
        reqs.map((r) => [r]),
        (decoded) => {
          for (const c of decoded.columns) {
            expect(plain(c)).toEqual(expected(reqs[c.chunk] as ChunkRequest))
            seen.push(c.chunk)
          }
        },
        { what: 'the test', onBadChunk: (b) => bad.push(b.chunk) },
      )
      expect(bad).toEqual([1])
      expect(seen.sort((a, b) => a - b)).toEqual(reqs.filter((r) => r.chunk !== 1).map((r) => r.chunk))
    } finally {
      pool.dispose()
    }
  })
})

function openPool(createWorker: () => Worker, onWorkerFailed: (message: string) => void, callTimeoutMs?: number) {
  const pool = new DecodePool(
    { kind: 'file', file: new Blob([file]) },
    {
      size: 1,
      createWorker,
      onWorkerFailed,
      ...(callTimeoutMs !== undefined ? { callTimeoutMs } : {}),
    },
  )
  pool.open(prelude, 'none')
  return pool
}

function code(e: unknown): string | undefined {
  return e instanceof RadError ? e.code : undefined
}

describe('DecodePool.request', () => {
  it('decodes a queued run of chunks; asking twice for a queued chunk answers both; dropped ones reject with CANCELLED', async () => {
    const reqs = requests()
    const pool = openPool(
      () => channelWorker(),
      () => undefined,
    )
    try {
      // Nothing is decoded before the convention is known: these wait in the queue.
      const first = reqs.map((r) => pool.request(r, 1))
      const again = pool.request(reqs[1] as ChunkRequest, 0)
      const gone = pool.request({ chunk: 99, offset: 0, nbytes: 8 }, 5)
      expect(pool.queued).toBe(reqs.length + 1)
      pool.drop((chunk) => chunk !== 99)
      await expect(gone).rejects.toSatisfy((e) => code(e) === 'CANCELLED')
      pool.setConvention('header-inclusive')
      const cols = await Promise.all(first)
      expect(cols.map(plain)).toEqual(reqs.map(expected))
      expect(plain(await again)).toEqual(expected(reqs[1] as ChunkRequest))
      expect(pool.queued).toBe(0)
    } finally {
      pool.dispose()
    }
  })

  it('a worker that stops answering is replaced: its requests fail with WORKER_FAILED, and the new one decodes', async () => {
    const reqs = requests()
    const reports: string[] = []
    let made = 0
    const pool = openPool(
      () => channelWorker(made++ === 0),
      (message) => reports.push(message),
      50,
    )
    try {
      pool.setConvention('header-inclusive')
      const req = reqs[2] as ChunkRequest
      const failed = await pool.request(req, 0).catch((e: unknown) => e)
      expect(code(failed)).toBe('WORKER_FAILED')
      expect(failed).toMatchObject({ chunk: 2, offset: req.offset })
      expect(String(failed)).toMatch(/no answer after 0\.05 s\) while decoding chunk 2/)
      expect(reports).toEqual([
        'A decode worker stopped (no answer after 0.05 s) while decoding chunk 2; it was replaced.',
      ])
      expect(plain(await pool.request(req, 0))).toEqual(expected(req))
      expect(made).toBe(2)
    } finally {
      pool.dispose()
    }
  })

  it('dispose rejects queued and running requests with CANCELLED', async () => {
    const reqs = requests()
    const pool = openPool(
      () => channelWorker(true),
      () => undefined,
    )
    pool.setConvention('header-inclusive')
    const running = pool.request(reqs[0] as ChunkRequest, 0)
    const queued = pool.request(reqs[2] as ChunkRequest, 1)
    pool.dispose()
    for (const p of [running, queued]) await expect(p).rejects.toSatisfy((e) => code(e) === 'CANCELLED')
    await expect(pool.request(reqs[0] as ChunkRequest, 0)).rejects.toSatisfy((e) => code(e) === 'CANCELLED')
  })
})
