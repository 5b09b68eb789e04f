/**
 * `rad serve` against what a cluster's file system and network do (docs/sidecar.md, ADR 0005 "When a read fails"): a file
 * edited in place with its mtime put back gets a new ETag (ctime), a FIFO named like a served
 * file (FILE.rdx) is never opened, and a connection silent for the idle timeout is closed.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, constants, mkdirSync, openSync, statSync, utimesSync, writeFileSync, writeSync } from 'node:fs'
import { connect } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startRadServer } from '../../src/server/radServer'
import type { RunningServer } from '../../src/server/radServer'
import { tempDir } from '../helpers/cli'

let tmp: ReturnType<typeof tempDir>
let server: RunningServer | undefined
const fifos: string[] = []

beforeEach(() => {
  tmp = tempDir()
  mkdirSync(tmp.path('dist'))
  writeFileSync(
    tmp.path('dist/index.html'),
    '<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src \'self\'">',
  )
  writeFileSync(tmp.path('map.rad'), new Uint8Array(4096).fill(7))
})

afterEach(async () => {
  // A reader still blocked on a FIFO (the bug) is let go: a writer opens it and closes at once.
  for (const fifo of fifos.splice(0)) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK))
    } catch {
      // No reader waiting: nothing to release.
    }
  }
  await server?.close()
  server = undefined
  tmp.cleanup()
})

async function serve(idleTimeoutMs?: number): Promise<RunningServer> {
  server = await startRadServer({
    files: [tmp.path('map.rad')],
    dist: tmp.path('dist'),
    host: '127.0.0.1',
    port: 0,
    ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMs }),
  })
  return server
}

function get(s: RunningServer, path: string, ms = 3000): Promise<Response> {
  return fetch(`http://127.0.0.1:${String(s.port)}${path}`, { signal: AbortSignal.timeout(ms) })
}

describe('rad serve: ETag', () => {
  it('changes when the file is edited in place and its mtime restored (ctime)', async () => {
    // A whole second, so that putting it back is exact.
    const when = Math.floor(Date.now() / 1000) - 60
    utimesSync(tmp.path('map.rad'), when, when)
    const s = await serve()
    const url = s.files[0]?.urlPath ?? ''
    const before = statSync(tmp.path('map.rad'))
    const etag = (await get(s, url)).headers.get('etag')
    await new Promise((resolve) => setTimeout(resolve, 20))
    // Same size, other bytes, the modification time put back as `touch -r` or `rsync -t` would.
    const fd = openSync(tmp.path('map.rad'), 'r+')
    writeSync(fd, new Uint8Array(16).fill(9), 0, 16, 100)
    closeSync(fd)
    utimesSync(tmp.path('map.rad'), when, when)
    expect(statSync(tmp.path('map.rad')).mtimeMs).toBe(before.mtimeMs)
    const after = await get(s, url)
    expect(after.headers.get('last-modified')).toBe(before.mtime.toUTCString())
    expect(after.headers.get('etag')).not.toBe(etag)
  })
})

describe('rad serve: regular files only', () => {
  it('a FIFO named FILE.rdx is a 404 at once, and the server goes on serving', async () => {
    const fifo = `${tmp.path('map.rad')}.rdx`
    execFileSync('mkfifo', [fifo])
    fifos.push(fifo)
    const s = await serve()
    const url = s.files[0]?.urlPath ?? ''
    // Twice: before the fix each request held one of libuv's four threads in open(2) for ever.
    for (let i = 0; i < 2; i++) expect((await get(s, `${url}.rdx`)).status).toBe(404)
    expect((await get(s, url)).status).toBe(200)
  })
})

describe('rad serve: idle connections', () => {
  /** Milliseconds until the server closes a connection that sends `request` and then nothing; undefined if it stays open `waitMs`. */
  function closedAfter(port: number, request: string, waitMs: number): Promise<number | undefined> {
    return new Promise((resolve) => {
      const t0 = Date.now()
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(request)
      })
      const timer = setTimeout(() => {
        socket.destroy()
        resolve(undefined)
      }, waitMs)
      socket.on('data', () => undefined)
      socket.on('error', () => undefined)
      socket.on('close', () => {
        clearTimeout(timer)
        resolve(Date.now() - t0)
      })
    })
  }

  it('closes a connection that sends nothing, or half a request, after the idle timeout', async () => {
    const s = await serve(300)
    const silent = await closedAfter(s.port, '', 3000)
    expect(silent).toBeDefined()
    expect(silent).toBeGreaterThanOrEqual(250)
    const half = await closedAfter(s.port, 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n', 3000)
    expect(half).toBeDefined()
  })

  it('serves a request that keeps moving', async () => {
    const s = await serve(300)
    expect((await get(s, s.files[0]?.urlPath ?? '')).status).toBe(200)
  })
})
