/** HttpSource against a local node:http server (test/helpers/rangeServer.ts): Range, retries, changes. */
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { confirmUnchanged, takeFingerprint } from '../../src/io/fileFingerprint'
import { HttpSource, parseContentRange, urlFileName } from '../../src/io/httpSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { SALMON_V3 } from '../helpers/fixtures'
import { radFailure as failure, startRangeServer } from '../helpers/rangeServer'
import type { RangeServer, RangeServerOptions } from '../helpers/rangeServer'

const bytes = Uint8Array.from({ length: 3_000_000 }, (_, i) => (i * 7) & 0xff)
const salmon = new Uint8Array(readFileSync(SALMON_V3))

let server: RangeServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function serve(opts: RangeServerOptions = {}, files: Record<string, Uint8Array> = { '/data/map.rad': bytes }) {
  server = await startRangeServer(files, opts)
  return server
}

const fast = { retryBaseMs: 5 }

/** Large arrays: vitest's toEqual compares them element by element (seconds per MB). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length))
}

describe('HttpSource', () => {
  it('learns the size from Content-Range with one ranged GET and reads any range', async () => {
    const s = await serve()
    const src = await HttpSource.open(s.url('/data/map.rad'))
    expect([src.size, src.name]).toEqual([bytes.length, 'map.rad'])
    // The first 1.25 MiB, then the last block (the fingerprint's tail) at once.
    await expect.poll(() => s.requests.length).toBe(2)
    expect(s.requests.map((r) => r.range)).toEqual(['bytes=0-1310719', 'bytes=2883584-2999999'])
    // Inside what came: no request.
    expect(same(await src.read(100, 1_000_000), bytes.subarray(100, 1_000_100))).toBe(true)
    expect(s.requests).toHaveLength(2)
    expect(await src.read(2_999_990, 100)).toEqual(bytes.subarray(2_999_990))
    expect(await src.read(bytes.length, 10)).toHaveLength(0)
    expect(await src.read(5, 0)).toHaveLength(0)
  })

  it('splits a large read into several requests in flight at once', async () => {
    const s = await serve({ delayMs: 200 })
    const src = await HttpSource.open(s.url('/data/map.rad'), { maxRequestBytes: 1 << 20 })
    const got = await src.read(1000, 2_900_000)
    expect(same(got, bytes.subarray(1000, 2_901_000))).toBe(true)
    // Three requests of ≤ 1 MiB, all sent before the first answer (each is held 200 ms).
    const arrived = s.requests.slice(2).map((r) => r.at)
    expect(Math.max(...arrived) - Math.min(...arrived)).toBeLessThan(200)
    expect(s.requests.slice(2).map((r) => r.range)).toEqual([
      'bytes=1000-1049575',
      'bytes=1049576-2098151',
      'bytes=2098152-2900999',
    ])
  })

  it('sends no referrer and no cookies', async () => {
    const s = await serve()
    const src = await HttpSource.open(s.url('/data/map.rad'))
    await src.read(1_000_000, 10)
    expect(s.requests.every((r) => r.referer === undefined)).toBe(true)
  })

  it('reads and scans a real salmon file by Range', async () => {
    const s = await serve({}, { '/map.rad': salmon })
    const { source, prelude } = await openRad(await HttpSource.open(s.url('/map.rad')))
    const scan = await scanChunks(source, prelude)
    expect(scan.index.count).toBeGreaterThan(0)
    expect(scan.issues.filter((i) => i.severity === 'error')).toEqual([])
  })

  it('reads a small file whole from a server that ignores Range', async () => {
    const s = await serve({ noRange: true })
    const src = await HttpSource.open(s.url('/data/map.rad'))
    expect(src.size).toBe(bytes.length)
    expect(await src.read(2_000_000, 10)).toEqual(bytes.subarray(2_000_000, 2_000_010))
    expect(s.requests).toHaveLength(1)
    // A decode worker given this version reads the whole body too, and checks it is the same file.
    const again = await HttpSource.open(s.url('/data/map.rad'), { version: src.version })
    expect(await again.read(5, 5)).toEqual(bytes.subarray(5, 10))
    s.setFile('/data/map.rad', bytes.slice())
    expect((await failure(HttpSource.open(s.url('/data/map.rad'), { version: src.version }))).code).toBe('FILE_CHANGED')
  })

  it('says plainly that a server without Range cannot serve a large file', async () => {
    const s = await serve({ noRange: true })
    const e = await failure(HttpSource.open(s.url('/data/map.rad'), { wholeBodyLimit: 1_000_000 }))
    expect(e.code).toBe('FETCH_FAILED')
    expect(e.message).toMatch(/does not serve byte ranges.*files over 1,000,000 bytes/)
  })

  it('retries 503s with backoff, then reads', async () => {
    const s = await serve({ failFirst: 2 })
    const src = await HttpSource.open(s.url('/data/map.rad'), fast)
    expect(src.size).toBe(bytes.length)
    expect(s.requests.filter((r) => r.range === 'bytes=0-1310719')).toHaveLength(3)
  })

  it('gives up on a server that keeps failing, saying what it answered', async () => {
    const s = await serve({ failFirst: 100 })
    const e = await failure(HttpSource.open(s.url('/data/map.rad'), { ...fast, retries: 2 }))
    expect(e.message).toMatch(/answered 503/)
    expect(s.requests).toHaveLength(3)
  })

  it('explains an unreachable server and a missing file', async () => {
    const s = await serve()
    const gone = s.url('/data/map.rad')
    expect((await failure(HttpSource.open(s.url('/nope.rad')))).message).toMatch(
      /no such file on that server: 127\.0\.0\.1:\d+ has nothing at \/nope\.rad \(404/,
    )
    await s.close()
    server = undefined
    const e = await failure(HttpSource.open(gone, { ...fast, retries: 1 }))
    expect(e.message).toMatch(/could not reach 127\.0\.0\.1:\d+ .*Is the server running/)
  })

  it('stops with FILE_CHANGED when the file changes mid-read, never mixing versions', async () => {
    const other = bytes.map((b) => b ^ 0xff)
    // The opening GET and the tail's see version 1; the next one version 2.
    const s = await serve({ changeAfter: 2, changedTo: other })
    const src = await HttpSource.open(s.url('/data/map.rad'))
    await src.read(bytes.length - 10, 10)
    const e = await failure(src.read(2_000_000, 10))
    expect(e.code).toBe('FILE_CHANGED')
    expect(e.message).toMatch(/changed on the server.*ETag/)
    // Every later read fails too, even one the cache could answer.
    expect((await failure(src.read(0, 10))).code).toBe('FILE_CHANGED')
  })

  it('notices a new size too (an append)', async () => {
    const s = await serve()
    const src = await HttpSource.open(s.url('/data/map.rad'))
    s.setFile('/data/map.rad', new Uint8Array(bytes.length + 10))
    expect((await failure(src.read(2_000_000, 10))).message).toMatch(/size is now 3,000,010 bytes/)
  })

  it('confirmUnchanged asks the server (ETag and size), not its cache', async () => {
    const s = await serve()
    const src = await HttpSource.open(s.url('/data/map.rad'))
    const fp = await takeFingerprint(src)
    await confirmUnchanged(src, fp)
    s.setFile('/data/map.rad', bytes.slice())
    expect((await failure(confirmUnchanged(src, fp))).code).toBe('FILE_CHANGED')
  })

  it('a source opened with a known version sends nothing until read, and checks against it', async () => {
    const s = await serve()
    const first = await HttpSource.open(s.url('/data/map.rad'))
    await first.read(0, 1)
    const before = s.requests.length
    const second = await HttpSource.open(s.url('/data/map.rad'), { version: first.version })
    expect(s.requests).toHaveLength(before)
    expect(await second.read(5, 5)).toEqual(bytes.subarray(5, 10))
    s.setFile('/data/map.rad', bytes.slice())
    expect((await failure(second.read(2_000_000, 5))).code).toBe('FILE_CHANGED')
  })

  it('refuses to read once aborted', async () => {
    const s = await serve()
    const src = await HttpSource.open(s.url('/data/map.rad'))
    const controller = new AbortController()
    controller.abort()
    await expect(src.read(0, 10, controller.signal)).rejects.toThrow()
  })
})

describe('URL helpers', () => {
  it('names a URL by its last path segment, decoded', () => {
    expect(urlFileName('https://x.org/runs/a%20b/map.rad?sig=1#x')).toBe('map.rad')
    expect(urlFileName('https://x.org/runs/my%20map.rad')).toBe('my map.rad')
    expect(urlFileName('https://x.org/')).toBe('file')
  })

  it('parses Content-Range', () => {
    expect(parseContentRange('bytes 0-99/1234')).toEqual({ start: 0, end: 99, total: 1234 })
    expect(parseContentRange('bytes 5-9/*')).toEqual({ start: 5, end: 9, total: undefined })
    expect(parseContentRange('bytes */1234')?.total).toBe(1234)
    expect(parseContentRange(null)).toBeUndefined()
  })
})
