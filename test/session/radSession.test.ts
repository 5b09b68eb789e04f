/**
 * RadSession's scheduling, end to end in Node: the real session and the real
 * index and decode worker APIs (the entries' factories), on MessageChannels. What is
 * checked is the order in which chunks reach the one decode worker.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { RadSession } from '../../src/session'
import type { SessionState } from '../../src/session'
import { STALE_WANTS } from '../../src/session/rows/chunkSchedule'
import { makeDecodeApi } from '../../src/workers/decodeApi'
import { makeIndexApi } from '../../src/workers/indexApi'
import { SC_READS, salmonScRna } from '../helpers/assays'
import { channelWorker, closeChannelWorkers } from '../helpers/channelWorker'
import { radBytes } from '../helpers/radWriter'

/** 200 chunks of 2 records: the index worker's first screen (256 records) covers chunks 0–127. */
const CHUNKS = 200
const bytes = radBytes(
  salmonScRna(
    Array.from({ length: 2 * CHUNKS }, (_, i) => SC_READS[i % SC_READS.length]!),
    2,
  ),
)

/** The index worker's real API (index.worker.ts's), over the test file. */
function indexWorker(): Worker {
  return channelWorker(makeIndexApi())
}

/** A decode worker's real API (decode.worker.ts's); `batches` records each decode call's chunks, in order. */
function decodeWorker(batches: number[][]): Worker {
  const api = makeDecodeApi()
  const decode = api.decode.bind(api)
  api.decode = (batch, convention, spare) => {
    batches.push(batch.map((r) => r.chunk))
    return decode(batch, convention, spare)
  }
  return channelWorker(api)
}

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

const sessions: RadSession[] = []

/** A session on the test file with one decode worker, once its index is complete. */
async function indexedSession(): Promise<{ session: RadSession; batches: number[][] }> {
  const batches: number[][] = []
  const session = new RadSession(
    { kind: 'file', file: new File([bytes as Uint8Array<ArrayBuffer>], 'sc.rad') },
    {
      decodeWorkers: 1,
      workers: { index: indexWorker, decode: () => decodeWorker(batches) },
    },
  )
  sessions.push(session)
  const state = (): SessionState => session.getState()
  await until('the index', () => state().phase !== 'opening' && state().phase !== 'indexing')
  expect(state()).toMatchObject({ phase: 'done', chunks: CHUNKS })
  return { session, batches }
}

function decoded(session: RadSession, chunks: readonly number[]): () => boolean {
  return () => chunks.every((k) => session.getChunk(k) !== undefined)
}

afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose()
  closeChannelWorkers()
})

describe('RadSession.want', () => {
  it('decodes the visible chunks first, in their order, then the prefetch; chunks at hand are not asked for', async () => {
    const { session, batches } = await indexedSession()
    expect(session.getChunk(0)).toBeDefined() // from the index worker's first screen
    session.want([0, 1], [2])
    session.want([150, 151, 152], [153, 149, 154])
    await until('the chunks', decoded(session, [149, 150, 151, 152, 153, 154]))
    // The first ask goes out alone (the worker was idle); then the queue, with back-to-back chunks batched.
    expect(batches).toEqual([[150], [151, 152, 153, 154], [149]])
  })

  it('serves the prefetch in the order given', async () => {
    const { session, batches } = await indexedSession()
    session.want([150], [160, 140, 170])
    await until('the chunks', decoded(session, [140, 150, 160, 170]))
    expect(batches).toEqual([[150], [160], [140], [170]])
  })

  it("serves a newer call's chunks before those still queued from older calls", async () => {
    const { session, batches } = await indexedSession()
    session.want([150], [])
    session.want([160, 161], [])
    session.want([170], [180])
    await until('the chunks', decoded(session, [150, 160, 161, 170, 180]))
    expect(batches).toEqual([[150], [170], [180], [160, 161]])
  })

  it(`drops what none of the last ${String(STALE_WANTS)} calls asked for, and decodes it when asked again`, async () => {
    const { session, batches } = await indexedSession()
    session.want([150], [])
    session.want([160], [])
    const later = Array.from({ length: STALE_WANTS }, (_, i) => 170 + i)
    for (const k of later) session.want([k], [])
    await until('the chunks', decoded(session, [150, ...later]))
    expect(batches.flat()).toEqual([150, ...later.reverse()])
    expect(session.getChunk(160)).toBeUndefined()
    expect(session.chunkError(160)).toBeUndefined() // dropped, not failed
    session.want([160], [])
    await until('chunk 160', decoded(session, [160]))
    expect(batches.flat().slice(-1)).toEqual([160])
  })
})

describe('RadSession.startFilter', () => {
  it('streams a barcode filter through the decode worker: every matching record number, in file order', async () => {
    const { session } = await indexedSession()
    const run = session.passes.startFilter({ barcode: 'GATTACAGATTACAGA' })
    if (!run) throw new Error('no filter run')
    await until('the filter', () => run.getState().phase !== 'running')
    // SC_READS[3] is that barcode; the file repeats the five reads 80 times.
    const want = Array.from({ length: (2 * CHUNKS) / SC_READS.length }, (_, i) => 3 + i * SC_READS.length)
    expect(run.getState()).toMatchObject({ phase: 'done', matches: want.length, kept: want.length, chunksDone: CHUNKS })
    expect(Array.from({ length: run.matches.kept }, (_, i) => run.matches.at(i))).toEqual(want)
  })

  it('ends at once with a sentence when the file cannot answer the filter', async () => {
    const { session } = await indexedSession()
    const run = session.passes.startFilter({ barcode: 'ACGT' })
    expect(run?.getState().phase).toBe('error')
    expect(run?.getState().error?.message).toMatch(/has 4 bases/)
  })
})
