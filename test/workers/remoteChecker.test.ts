import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { CheckBatcher, makeBatchChecker, makeCheckerApi } from '../../src/workers/recordChecks'
import type { CheckBatch, CheckerApi } from '../../src/workers/recordChecks'
import { remoteChecker } from '../../src/workers/remoteChecker'
import { channelWorker, closeChannelWorkers } from '../helpers/channelWorker'
import type { ChannelWorker } from '../helpers/channelWorker'
import { SALMON_V3 } from '../helpers/fixtures'

const fixture = new Uint8Array(readFileSync(SALMON_V3))
const prelude = parsePrelude(fixture, fixture.length)

/** Every chunk of `bytes` (the fixture's layout) in one batch, as the index worker sends it. */
function batchOf(bytes: Uint8Array): CheckBatch {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let sent: CheckBatch | undefined
  const batcher = new CheckBatcher((batch) => {
    sent = batch
    return Promise.resolve()
  })
  let offset = prelude.firstChunkOffset
  for (let k = 0; k < prelude.numChunks; k++) {
    const nbytes = view.getUint32(offset, true)
    void batcher.add(bytes.subarray(offset, offset + nbytes), offset, k, 'header-inclusive')
    offset += nbytes
  }
  void batcher.flush('header-inclusive')
  if (!sent) throw new Error('no batch')
  return sent
}

/** The fixture with a reference id out of range in chunk 2's first alignment (docs/format.md §4.3). */
function damaged(): Uint8Array {
  const bytes = fixture.slice()
  const view = new DataView(bytes.buffer)
  let at = prelude.firstChunkOffset
  for (let k = 0; k < 2; k++) at += view.getUint32(at, true)
  view.setUint32(at + 8 + 12, 0x80000000 + 244, true)
  return bytes
}

/** A checker worker running check.worker.ts's body, or `api`. */
function checkerWorker(api: CheckerApi = makeCheckerApi()): ChannelWorker {
  return channelWorker(api)
}

/** A checker that opens, then never answers a batch (Comlink waits for a returned promise). */
function silentApi(): CheckerApi {
  return {
    open: () => undefined,
    check: () => new Promise<never>(() => undefined) as never,
    counted: () => undefined,
  }
}

afterEach(closeChannelWorkers)

describe('remoteChecker', () => {
  it('answers as the in-thread checker does, and takes the batch buffers', async () => {
    for (const bytes of [fixture, damaged()]) {
      const inline = makeBatchChecker(prelude)(batchOf(bytes))
      const checker = remoteChecker(prelude, checkerWorker())
      const batch = batchOf(bytes)
      expect(await checker.check(batch)).toEqual(inline)
      expect(batch.bytes.byteLength).toBe(0) // transferred: ChecksBeside counts such a batch as lost if the checker dies
      checker.close()
    }
    expect(makeBatchChecker(prelude)(batchOf(damaged())).damagedChunks).toEqual([2])
  })

  it('fails the pending and every later call when the checker stops answering, and terminates it', async () => {
    const worker = checkerWorker(silentApi())
    const checker = remoteChecker(prelude, worker, 50)
    const pending = checker.check(batchOf(fixture))
    await expect(pending).rejects.toMatchObject({ code: 'WORKER_FAILED', message: /no answer for 0.05 s/ })
    expect(worker.terminated).toBe(true)
    await expect(checker.check(batchOf(fixture))).rejects.toThrow(/the record checker stopped: no answer/)
  })

  it('fails every pending call when the checker crashes', async () => {
    const worker = checkerWorker(silentApi())
    const checker = remoteChecker(prelude, worker)
    const calls = [checker.check(batchOf(fixture)), checker.check(batchOf(fixture))]
    worker.dispatchEvent(new Event('error'))
    for (const call of calls) await expect(call).rejects.toThrow(/the record checker stopped: it crashed/)
    expect(worker.terminated).toBe(true)
  })

  it('fails its calls when the checker cannot open the file', async () => {
    const api: CheckerApi = {
      open() {
        throw new Error('no such codec')
      },
      check: () => new Promise<never>(() => undefined) as never,
      counted: () => undefined,
    }
    const checker = remoteChecker(prelude, checkerWorker(api))
    await expect(checker.check(batchOf(fixture))).rejects.toThrow(/the record checker stopped: no such codec/)
  })
})
