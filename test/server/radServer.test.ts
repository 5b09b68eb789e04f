import { copyFileSync, mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startRadServer } from '../../src/server/radServer'
import type { RunningServer } from '../../src/server/radServer'
import { SALMON_V3 } from '../helpers/fixtures'
import { tempDir } from '../helpers/cli'
import { rawRequest } from '../helpers/rawHttp'

/**
 * `rad serve`'s server on a random port, over a real salmon file and a stand-in build:
 * ranges read the file's own bytes, and nothing but the build and the named file is reachable.
 */
const CSP = "default-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'"
const INDEX = `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${CSP}" /></head><body></body></html>`

let tmp: ReturnType<typeof tempDir>
let server: RunningServer
let fileUrl: string
const bytes = readFileSync(SALMON_V3)

beforeAll(async () => {
  tmp = tempDir()
  mkdirSync(tmp.path('dist/assets'), { recursive: true })
  writeFileSync(tmp.path('dist/index.html'), INDEX)
  writeFileSync(tmp.path('dist/assets/index-abc123.js'), 'export {}\n')
  writeFileSync(tmp.path('dist/assets/app.css'), 'body{}\n')
  writeFileSync(tmp.path('dist/.secret'), 'dot-file\n')
  writeFileSync(tmp.path('package.json'), '{"secret": true}\n')
  mkdirSync(tmp.path('data'))
  copyFileSync(SALMON_V3, tmp.path('data/map.rad'))
  writeFileSync(tmp.path('data/notes.txt'), 'beside the file, not named\n')
  server = await startRadServer({
    files: [tmp.path('data/map.rad')],
    dist: tmp.path('dist'),
    host: '127.0.0.1',
    port: 0,
  })
  fileUrl = server.files[0]?.urlPath ?? ''
})

afterAll(async () => {
  await server.close()
  tmp.cleanup()
})

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`http://127.0.0.1:${server.port}${path}`, { headers })
}

describe('rad serve: the named file, by Range', () => {
  it('is served under /f/<random token>/<name>, a different token each start', async () => {
    expect(fileUrl).toMatch(/^\/f\/[\w-]{22}\/map\.rad$/)
    const again = await startRadServer({
      files: [tmp.path('data/map.rad')],
      dist: tmp.path('dist'),
      host: '127.0.0.1',
      port: 0,
    })
    await again.close()
    expect(again.files[0]?.urlPath).not.toBe(fileUrl)
  })

  it('answers the whole file with 200, and any single range with 206 and the file’s own bytes', async () => {
    const whole = await get(fileUrl)
    expect(whole.status).toBe(200)
    expect(whole.headers.get('accept-ranges')).toBe('bytes')
    expect(whole.headers.get('content-length')).toBe(String(bytes.length))
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)

    const size = bytes.length
    for (const [header, start, end] of [
      ['bytes=0-0', 0, 0],
      ['bytes=0-99', 0, 99],
      ['bytes=1000-70000', 1000, 70000],
      [`bytes=${size - 10}-`, size - 10, size - 1],
      ['bytes=-37', size - 37, size - 1],
      [`bytes=100-${size + 5000}`, 100, size - 1],
    ] as const) {
      const r = await get(fileUrl, { Range: header })
      expect(r.status, header).toBe(206)
      expect(r.headers.get('content-range'), header).toBe(`bytes ${start}-${end}/${size}`)
      expect(r.headers.get('content-length'), header).toBe(String(end - start + 1))
      expect(Buffer.from(await r.arrayBuffer()).equals(bytes.subarray(start, end + 1)), header).toBe(true)
    }
  })

  it('answers HEAD with the headers of GET and no body', async () => {
    const r = await rawRequest(server.port, fileUrl, { method: 'HEAD', headers: { Range: 'bytes=10-19' } })
    expect(r.status).toBe(206)
    expect(r.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`)
    expect(r.headers.get('content-length')).toBe('10')
    expect(r.body.length).toBe(0)
    const whole = await fetch(`http://127.0.0.1:${server.port}${fileUrl}`, { method: 'HEAD' })
    expect(whole.status).toBe(200)
    expect(whole.headers.get('content-length')).toBe(String(bytes.length))
  })

  it('answers 416 with the size for a range it cannot serve', async () => {
    for (const header of [`bytes=${bytes.length}-`, 'bytes=50-10', 'bytes=0-1,5-6', 'bytes=-0', 'bytes=x-y']) {
      const r = await get(fileUrl, { Range: header })
      expect(r.status, header).toBe(416)
      expect(r.headers.get('content-range'), header).toBe(`bytes */${bytes.length}`)
      expect((await r.arrayBuffer()).byteLength).toBe(0)
    }
  })

  it('gives an ETag from size, mtime and ctime that changes with the file, and honours the conditional headers', async () => {
    const first = await get(fileUrl, { Range: 'bytes=0-3' })
    const etag = first.headers.get('etag') ?? ''
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+-[0-9a-f]+"$/)
    expect(first.headers.get('last-modified')).toMatch(/GMT$/)
    expect((await get(fileUrl, { 'If-None-Match': etag })).status).toBe(304)
    expect((await get(fileUrl, { 'If-Match': '"other"' })).status).toBe(412)
    expect((await get(fileUrl, { 'If-Match': etag, Range: 'bytes=0-3' })).status).toBe(206)
    expect((await get(fileUrl, { 'If-Range': etag, Range: 'bytes=0-3' })).status).toBe(206)
    // A stale If-Range: the whole (current) file, never a range of a different version.
    expect((await get(fileUrl, { 'If-Range': '"stale"', Range: 'bytes=0-3' })).status).toBe(200)

    const later = new Date(Date.now() + 60_000)
    utimesSync(tmp.path('data/map.rad'), later, later)
    const changed = await get(fileUrl, { Range: 'bytes=0-3' })
    expect(changed.headers.get('etag')).not.toBe(etag)
    expect((await get(fileUrl, { 'If-Match': etag, Range: 'bytes=0-3' })).status).toBe(412)
  })

  it('allows CORS for the viewer’s own origins and no other', async () => {
    const own = await get(fileUrl, { Origin: `http://localhost:${server.port}`, Range: 'bytes=0-0' })
    expect(own.headers.get('access-control-allow-origin')).toBe(`http://localhost:${server.port}`)
    expect(own.headers.get('access-control-expose-headers')).toContain('Content-Range')
    const other = await get(fileUrl, { Origin: 'https://evil.example', Range: 'bytes=0-0' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(`http://127.0.0.1:${server.port}${fileUrl}`, {
      method: 'OPTIONS',
      headers: { Origin: `http://127.0.0.1:${server.port}`, 'Access-Control-Request-Headers': 'range' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Range')
  })

  it('serves FILE.rdx beside the file under the same token, once it exists', async () => {
    const sidecar = `${fileUrl}.rdx`
    expect((await get(sidecar)).status).toBe(404)
    writeFileSync(tmp.path('data/map.rad.rdx'), 'sidecar bytes')
    const r = await get(sidecar)
    expect(r.status).toBe(200)
    expect(await r.text()).toBe('sidecar bytes')
    rmSync(tmp.path('data/map.rad.rdx'))
  })

  it('serves bytes that can never run as a page', async () => {
    const r = await get(fileUrl, { Range: 'bytes=0-0' })
    expect(r.headers.get('content-type')).toBe('application/octet-stream')
    expect(r.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox")
    expect(r.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

describe('rad serve: the viewer', () => {
  it('serves the build with its MIME types and the page’s own Content-Security-Policy as a header', async () => {
    const page = await get('/?url=/f/x/map.rad')
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(`${CSP}; frame-ancestors 'none'`)
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await page.text()).toBe(INDEX)
    expect((await get('/index.html')).status).toBe(200)
    const script = await get('/assets/index-abc123.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(script.headers.get('cache-control')).toContain('immutable')
    expect((await get('/assets/app.css')).headers.get('content-type')).toBe('text/css; charset=utf-8')
  })

  it('answers a method other than GET and HEAD with 405', async () => {
    const r = await fetch(`http://127.0.0.1:${server.port}${fileUrl}`, { method: 'POST', body: 'x' })
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })

  it('refuses a Host that is not a loopback name (DNS rebinding)', async () => {
    const r = await rawRequest(server.port, '/', { headers: { Host: `evil.example:${server.port}` } })
    expect(r.status).toBe(404)
    expect((await rawRequest(server.port, '/', { headers: { Host: `localhost:${server.port}` } })).status).toBe(200)
  })
})

describe('rad serve: nothing else', () => {
  it('answers 404 to unknown paths, folders (no listing) and dot-files', async () => {
    for (const path of [
      '/package.json',
      '/dist/index.html',
      '/src/cli/main.ts',
      '/.git/config',
      '/assets',
      '/assets/',
      '/f',
      '/f/',
      `${fileUrl}/`,
      fileUrl.slice(0, fileUrl.lastIndexOf('/')),
      `${fileUrl.slice(0, fileUrl.lastIndexOf('/'))}/`,
      `${fileUrl.slice(0, fileUrl.lastIndexOf('/'))}/notes.txt`,
      fileUrl.replace('map.rad', 'MAP.RAD'),
      '/f/AAAAAAAAAAAAAAAAAAAAAA/map.rad',
      '/.secret',
      '/index.html/',
    ]) {
      const r = await rawRequest(server.port, path)
      expect(r.status, path).toBe(404)
      expect(r.body.toString(), path).toBe('not found\n')
    }
  })

  it('answers 404 to every path-traversal attempt', async () => {
    const dir = fileUrl.slice(0, fileUrl.lastIndexOf('/'))
    const nasty = [
      '/../package.json',
      '/..%2fpackage.json',
      '/%2e%2e/package.json',
      '/%2E%2E%2Fpackage.json',
      '/%252e%252e%252fpackage.json',
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2fpackage.json',
      '/assets/../index.html',
      '/./index.html',
      '/..\\package.json',
      '/assets\\..\\..\\package.json',
      '/%5c..%5cpackage.json',
      '//package.json',
      '//etc/passwd',
      '/etc/passwd',
      '/%2e%2e%2f%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '/..%c0%af..%c0%afpackage.json',
      '/index.html%00',
      '/index.html%00.js',
      `${fileUrl}%00`,
      `${fileUrl}%00.html`,
      `${dir}/../../package.json`,
      `${dir}/..%2f..%2fpackage.json`,
      `${dir}/..%2fnotes.txt`,
      `${dir}/%2e%2e%2fdata%2fnotes.txt`,
      `${dir}//map.rad`,
      `${dir}/./map.rad`,
      `/f/../package.json`,
      `http://127.0.0.1:${server.port}/../package.json`,
      `http://127.0.0.1:${server.port}${fileUrl}`,
      '*',
    ]
    expect(nasty.length).toBeGreaterThanOrEqual(10)
    for (const path of nasty) {
      const r = await rawRequest(server.port, path)
      expect(r.status, path).toBe(404)
      expect(r.body.toString(), path).not.toContain('secret')
    }
  })
})
