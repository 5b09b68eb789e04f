/**
 * A URL that fails is explained as what it is (ADR 0005, "When a read fails"): HttpSource against local servers
 * that misbehave on purpose (test/helpers/rangeServer.ts). Each failure is FETCH_FAILED with its
 * own words; FILE_CHANGED only when the size, ETag or Last-Modified differ between two answers.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { confirmUnchanged, takeFingerprint } from '../../src/io/fileFingerprint'
import { HttpSource } from '../../src/io/httpSource'
import type { HttpSourceOptions } from '../../src/io/httpSource'
import type { RadError } from '../../src/rad/errors'
import { radFailure as failure, startRangeServer } from '../helpers/rangeServer'
import type { RangeServer, RangeServerOptions } from '../helpers/rangeServer'

const bytes = Uint8Array.from({ length: 3_000_000 }, (_, i) => (i * 7) & 0xff)
const PATH = '/data/map.rad'

const servers: RangeServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(opts: RangeServerOptions = {}): Promise<RangeServer> {
  const s = await startRangeServer({ [PATH]: bytes }, opts)
  servers.push(s)
  return s
}

const fast: HttpSourceOptions = { retryBaseMs: 5, retries: 2, stallMs: 300 }

async function openFailure(opts: RangeServerOptions, sourceOpts: HttpSourceOptions = fast): Promise<RadError> {
  const s = await serve(opts)
  const e = await failure(HttpSource.open(s.url(PATH), sourceOpts))
  expect(e.code).toBe('FETCH_FAILED')
  expect(e.message).not.toMatch(/chang/i)
  return e
}

describe('a URL that cannot be opened: each failure in its own words, never "changed"', () => {
  it('404 and 410: no such file on that server', async () => {
    for (const status of [404, 410]) {
      const e = await openFailure({ fault: { kind: 'status', status } })
      expect(e.message).toMatch(
        new RegExp(
          `^no such file on that server: 127\\.0\\.0\\.1:\\d+ has nothing at /data/map\\.rad \\(${String(status)}`,
        ),
      )
      // Opening failed as a whole: no byte to name.
      expect(e.offset).toBeUndefined()
    }
  })

  it('401 and 403: access refused', async () => {
    for (const status of [401, 403]) {
      const e = await openFailure({ fault: { kind: 'status', status } })
      expect(e.message).toMatch(new RegExp(`^access refused: 127\\.0\\.0\\.1:\\d+ answered ${String(status)}`))
    }
  })

  it('5xx: server error, after the retries', async () => {
    const s = await serve({ fault: { kind: 'status', status: 500 } })
    const e = await failure(HttpSource.open(s.url(PATH), fast))
    expect(e.code).toBe('FETCH_FAILED')
    expect(e.message).toMatch(/^server error: 127\.0\.0\.1:\d+ answered 500 Internal Server Error, 3 times$/)
    expect(s.requests).toHaveLength(3)
  })

  it('unreachable: nothing listens there', async () => {
    const s = await serve()
    const url = s.url(PATH)
    await s.close()
    servers.splice(0)
    const e = await failure(HttpSource.open(url, fast))
    expect(e.code).toBe('FETCH_FAILED')
    expect(e.message).toMatch(/^could not reach 127\.0\.0\.1:\d+ .*Is the server running/)
  })

  it('416 on the first read: named, with the size the server gives (an empty file opens)', async () => {
    const withSize = await openFailure({
      fault: { kind: 'status', status: 416, headers: { 'Content-Range': 'bytes */3000000' } },
    })
    expect(withSize.message).toBe(
      'the server refused the first byte range, 0–1,310,719 (416 Range Not Satisfiable), although it says the file has 3,000,000 bytes',
    )
    const without = await openFailure({ fault: { kind: 'status', status: 416 } })
    expect(without.message).toMatch(/refused the first byte range.*416.*without saying the file’s size/)
    // `bytes */0`: the file is empty, and opens as such.
    const empty = await startRangeServer({ '/empty.rad': new Uint8Array(0) })
    servers.push(empty)
    expect((await HttpSource.open(empty.url('/empty.rad'), fast)).size).toBe(0)
  })

  it('an answer that starts at another byte than asked', async () => {
    const e = await openFailure({ fault: { kind: 'shift', by: 1000 } })
    expect(e.message).toBe('the server sent other bytes than asked: asked for 0–1,310,719, got 1,000–1,310,719')
  })

  it('after a redirect, the host that answered', async () => {
    const target = await serve()
    const e = await openFailure({ fault: { kind: 'redirect', to: target.url('/elsewhere.rad') } })
    const [from, to] = [servers[1]?.origin, target.origin].map((o) => new URL(o ?? '').host)
    expect(e.message).toBe(
      `no such file on that server: ${to ?? ''} has nothing at /elsewhere.rad (404 Not Found, after a redirect from ${from ?? ''}). Check the address`,
    )
  })
})

describe('timeouts and broken connections', () => {
  it('no answer for stallMs: "the server stopped sending", not retried, not a wait forever', async () => {
    const t0 = Date.now()
    const e = await openFailure({ fault: { kind: 'silent' } })
    expect(e.message).toMatch(/^the server stopped sending: nothing arrived from 127\.0\.0\.1:\d+ for 300 ms$/)
    expect(Date.now() - t0).toBeLessThan(3000)
  })

  it('a body that stops halfway fails the same way', async () => {
    const e = await openFailure({ fault: { kind: 'stall', afterBytes: 100_000 } })
    expect(e.message).toMatch(/^the server stopped sending/)
  })

  it('a later read that stalls names its byte', async () => {
    const s = await serve({ fault: { kind: 'silent' }, faultAfter: 2 })
    const src = await HttpSource.open(s.url(PATH), fast)
    await expect.poll(() => s.requests.length).toBe(2)
    const e = await failure(src.read(2_000_000, 10))
    expect(e).toMatchObject({ code: 'FETCH_FAILED', offset: 1_835_008, message: /stopped sending/ })
  })

  it('a connection cut mid-body is retried like any transient failure', async () => {
    const s = await serve({ fault: { kind: 'cut', afterBytes: 50_000 }, faultTimes: 1 })
    const src = await HttpSource.open(s.url(PATH), fast)
    expect(src.size).toBe(bytes.length)
    expect(await src.read(5, 5)).toEqual(bytes.subarray(5, 10))
  })

  it('cut every time: a network failure after the retries, never a plain error', async () => {
    const s = await serve({ fault: { kind: 'cut', afterBytes: 50_000 } })
    const e = await failure(HttpSource.open(s.url(PATH), fast))
    expect(e.code).toBe('FETCH_FAILED')
    expect(e.message).toMatch(
      /^network failure: the connection to 127\.0\.0\.1:\d+ broke off in the middle of an answer, 3 times/,
    )
    expect(s.requests).toHaveLength(3)
  })

  it('a cancel while waiting for a silent server is a cancel (an AbortError), at once', async () => {
    const s = await serve({ fault: { kind: 'silent' } })
    const controller = new AbortController()
    const opening = HttpSource.open(s.url(PATH), { stallMs: 30_000 }, controller.signal)
    await expect.poll(() => s.requests.length).toBe(1)
    controller.abort()
    await expect(opening).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('"changed" only when a version differs', () => {
  it('a 416 on a later read: changed when the size it gives differs, a failure otherwise', async () => {
    const same = await serve({
      fault: { kind: 'status', status: 416, headers: { 'Content-Range': 'bytes */3000000' } },
      faultAfter: 2,
    })
    const src = await HttpSource.open(same.url(PATH), fast)
    await expect.poll(() => same.requests.length).toBe(2)
    const e = await failure(src.read(2_000_000, 10))
    expect(e.code).toBe('FETCH_FAILED')
    expect(e.message).toMatch(/refused the byte range 1,835,008–2,097,151 \(416 Range Not Satisfiable\)/)

    const shorter = await serve({
      fault: { kind: 'status', status: 416, headers: { 'Content-Range': 'bytes */1000' } },
      faultAfter: 2,
    })
    const src2 = await HttpSource.open(shorter.url(PATH), fast)
    await expect.poll(() => shorter.requests.length).toBe(2)
    expect(await failure(src2.read(2_000_000, 10))).toMatchObject({
      code: 'FILE_CHANGED',
      message: /size is now 1,000/,
    })
  })

  it('a server gone before the verdict: FETCH_FAILED from confirmUnchanged, not FILE_CHANGED', async () => {
    const s = await serve()
    const src = await HttpSource.open(s.url(PATH), fast)
    const fp = await takeFingerprint(src)
    await s.close()
    servers.splice(0)
    expect((await failure(confirmUnchanged(src, fp))).code).toBe('FETCH_FAILED')
  })

  it('a server that stops answering ranges (200, the whole file): named, and changed only if the size differs', async () => {
    const s = await serve()
    let calls = 0
    // After the opening GET and the tail's, the Range header is dropped: the server answers 200.
    const noRangeLater: typeof fetch = (input, init) => {
      calls++
      return fetch(input, calls > 2 ? { ...init, headers: {} } : init)
    }
    const src = await HttpSource.open(s.url(PATH), { ...fast, fetch: noRangeLater })
    await expect.poll(() => s.requests.length).toBe(2)
    expect(await failure(src.read(2_000_000, 10))).toMatchObject({
      code: 'FETCH_FAILED',
      message:
        /^the server stopped answering byte ranges: it sent the whole file \(200\) when asked for bytes 1,835,008–2,097,151$/,
    })
    s.setFile(PATH, bytes.subarray(0, 1000))
    expect(await failure(src.read(2_500_000, 10))).toMatchObject({ code: 'FILE_CHANGED', message: /size is now 1,000/ })
  })

  it('a server that starts failing with 500: FETCH_FAILED, not FILE_CHANGED', async () => {
    const s = await serve({ fault: { kind: 'status', status: 500 }, faultAfter: 2 })
    const src = await HttpSource.open(s.url(PATH), fast)
    await expect.poll(() => s.requests.length).toBe(2)
    expect(await failure(src.read(2_000_000, 10))).toMatchObject({ code: 'FETCH_FAILED', message: /^server error/ })
  })
})
