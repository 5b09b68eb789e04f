/**
 * A URL whose server fails is never "the file changed" (ADR 0005, "When a read fails"): the index worker's scan
 * (scanFile) ends without a verdict and without an issue in the report, and the session shows
 * the failure (state.error, FETCH_FAILED) with nothing marked changed. In Node, with the
 * workers on MessageChannels and a local server that fails on purpose.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { HttpSource } from '../../src/io/httpSource'
import { RadError } from '../../src/rad/errors'
import { RadSession } from '../../src/session'
import type { DecodeApi, IndexApi } from '../../src/workers/protocol'
import { scanFile, unreadable } from '../../src/workers/scanFile'
import type { ScanSink } from '../../src/workers/scanFile'
import { channelWorker, closeChannelWorkers } from '../helpers/channelWorker'
import { startRangeServer } from '../helpers/rangeServer'
import type { RangeServer } from '../helpers/rangeServer'
import { repeatedFixture } from '../helpers/repeatedFixture'

/** Large enough that the scan reads past the opening GET and the last block. */
const big = repeatedFixture(400)
const servers: RangeServer[] = []
const sessions: RadSession[] = []

afterEach(async () => {
  for (const session of sessions.splice(0)) session.dispose()
  closeChannelWorkers()
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

const sink: ScanSink = {
  opened: () => undefined,
  first: () => undefined,
  index: () => undefined,
  progress: () => undefined,
}

describe('scanFile over a URL whose server fails', () => {
  it('a server error mid-scan: no verdict, no issue, the failure kept as the error', async () => {
    expect(big.length).toBeGreaterThan(4 << 20)
    // The opening GET and the last block are served; every later request answers 500.
    const s = await startRangeServer({ '/big.rad': big }, { fault: { kind: 'status', status: 500 }, faultAfter: 2 })
    servers.push(s)
    const source = await HttpSource.open(s.url('/big.rad'), { retryBaseMs: 5, retries: 1 })
    const summary = await scanFile(source, sink)
    expect(summary.error?.code).toBe('FETCH_FAILED')
    expect(summary.error?.message).toMatch(/^server error: .*answered 500/)
    expect(summary).toMatchObject({ status: 'incomplete', issues: [], salvage: undefined })
  })

  it('a URL that could not be opened: no verdict and no issue (not "unreadable as RAD")', () => {
    const summary = unreadable(new RadError('FETCH_FAILED', 'no such file on that server: …'), Date.now())
    expect(summary).toMatchObject({ status: 'incomplete', issues: [], preludeRead: false })
    expect(summary.error?.code).toBe('FETCH_FAILED')
  })
})

describe('RadSession on a URL that cannot be fetched', () => {
  it('shows the failure as an error, never as a changed file', async () => {
    const failed = new RadError('FETCH_FAILED', 'could not reach 127.0.0.1:9 (fetch failed)')
    const index: IndexApi = {
      scan: () => Promise.resolve(unreadable(failed, Date.now())),
      cancel: () => undefined,
      holdFor: () => undefined,
      stopFeed: () => undefined,
      ping: () => 0,
    }
    const decode = {} as DecodeApi
    const session = new RadSession(
      { kind: 'url', url: 'http://127.0.0.1:9/map.rad' },
      { decodeWorkers: 1, workers: { index: () => channelWorker(index), decode: () => channelWorker(decode) } },
    )
    sessions.push(session)
    const deadline = Date.now() + 10_000
    while (session.getState().phase !== 'error' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5))
    const state = session.getState()
    expect(state.phase).toBe('error')
    expect(state.changed).toBeUndefined()
    expect(state.error).toMatchObject({ code: 'FETCH_FAILED', message: /could not reach/ })
    expect(session.stats.getState().phase).toBe('idle')
  })
})
