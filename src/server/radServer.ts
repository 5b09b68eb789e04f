/**
 * `rad serve`'s HTTP server (Node's `http`, no framework): the built viewer and the named files,
 * nothing else. Routing is two exact look-ups — the viewer's fixed table (viewerFiles.ts) and
 * the files' token paths (servedFiles.ts) — and everything else is 404: no listing, no
 * normalisation of `..`, `%2e`, `\` or `//`, so no request can name a path of its own.
 */
import { createServer } from 'node:http'
import type { IncomingMessage, OutgoingHttpHeaders, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lookUpFile, serveFiles } from './servedFiles'
import type { ServedFile } from './servedFiles'
import { sendFile } from './sendFile'
import { loadViewer } from './viewerFiles'
import type { Viewer } from './viewerFiles'

export interface ServeOptions {
  files: readonly string[]
  /** The built viewer's folder (`dist/`). */
  dist: string
  host: string
  /** 0 for any free port. */
  port: number
  /** A connection with no traffic either way for this long is closed (default IDLE_TIMEOUT_MS). */
  idleTimeoutMs?: number
}

/**
 * Connections silent for a minute are closed (ADR 0005): one that never sends a request, or
 * whose reader stopped taking the body, would otherwise hold a socket and a file open for ever.
 * The viewer's reads never pause that long mid-request (its own stall limit is 30 s).
 */
export const IDLE_TIMEOUT_MS = 60_000

export interface RunningServer {
  host: string
  port: number
  files: ServedFile[]
  /** Stops listening and drops open connections. */
  close: () => Promise<void>
}

/** Every answer: no type sniffing, no referrer (the page address may hold a file URL). */
const BASE_HEADERS: OutgoingHttpHeaders = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
}

/** A served file's bytes may never run as a page, should someone open one in a tab. */
const FILE_CSP = "default-src 'none'; sandbox"

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]'])

/** The `Host` header's name part (`127.0.0.1`, `[::1]`, `localhost`), lower case. */
function hostName(req: IncomingMessage): string {
  const host = (req.headers.host ?? '').toLowerCase()
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '')
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host
}

/** Bound to loopback, only loopback names are answered: a DNS-rebound name gets nothing. */
function hostAllowed(req: IncomingMessage, host: string): boolean {
  const bound = urlHost(host).toLowerCase()
  if (!LOOPBACK_NAMES.has(bound)) return true
  return LOOPBACK_NAMES.has(hostName(req))
}

/** CORS for the viewer's own origins (any loopback name, this port) and nobody else. */
function corsHeaders(req: IncomingMessage, host: string, port: number): OutgoingHttpHeaders {
  const origin = req.headers.origin
  if (origin === undefined) return {}
  const own = [...LOOPBACK_NAMES, urlHost(host)].map((h) => `http://${h}:${port}`)
  if (!own.includes(origin)) return { Vary: 'Origin' }
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified',
    Vary: 'Origin',
  }
}

function notFound(res: ServerResponse, status = 404, text = 'not found'): void {
  const body = `${text}\n`
  res
    .writeHead(status, {
      ...BASE_HEADERS,
      'Content-Security-Policy': "default-src 'none'",
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    })
    .end(body)
}

/** The request's path, exactly as sent (no decoding, no normalisation); undefined for other forms. */
function rawPath(req: IncomingMessage): string | undefined {
  const target = req.url ?? ''
  if (!target.startsWith('/')) return undefined
  const cut = target.search(/[?#]/)
  return cut < 0 ? target : target.slice(0, cut)
}

/** Vite's `assets/` names carry a content hash: they never change under the same name. */
function viewerCache(path: string): string {
  return path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache'
}

async function answerFile(req: IncomingMessage, res: ServerResponse, file: string, host: string, port: number) {
  const cors = corsHeaders(req, host, port)
  if (req.method === 'OPTIONS') {
    const preflight = cors['Access-Control-Allow-Origin']
      ? {
          'Access-Control-Allow-Methods': 'GET, HEAD',
          'Access-Control-Allow-Headers': 'Range, If-Range, If-Match, If-None-Match, If-Modified-Since',
          'Access-Control-Max-Age': '600',
        }
      : {}
    res.writeHead(204, { ...BASE_HEADERS, ...cors, ...preflight, Allow: 'GET, HEAD, OPTIONS' }).end()
    return
  }
  const headers = {
    ...BASE_HEADERS,
    ...cors,
    'Content-Security-Policy': FILE_CSP,
    'Content-Type': 'application/octet-stream',
    'Cache-Control': 'no-cache',
  }
  if (!(await sendFile(req, res, file, headers))) notFound(res)
}

async function answerViewer(req: IncomingMessage, res: ServerResponse, viewer: Viewer, path: string) {
  const file = viewer.files.get(path)
  if (!file) {
    notFound(res)
    return
  }
  const headers = {
    ...BASE_HEADERS,
    // The build's own policy, plus what only a header can say.
    'Content-Security-Policy': `${viewer.csp}; frame-ancestors 'none'`,
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Content-Type': file.contentType,
    'Cache-Control': viewerCache(path),
  }
  if (!(await sendFile(req, res, file.path, headers))) notFound(res)
}

function handler(viewer: Viewer, files: ServedFile[], host: string, port: () => number) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = rawPath(req)
    if (path === undefined || !hostAllowed(req, host)) {
      notFound(res)
      return
    }
    const file = lookUpFile(files, path)
    const known = file !== undefined || viewer.files.has(path)
    const allowed = req.method === 'GET' || req.method === 'HEAD' || (file !== undefined && req.method === 'OPTIONS')
    if (known && !allowed) {
      res.setHeader('Allow', file ? 'GET, HEAD, OPTIONS' : 'GET, HEAD')
      notFound(res, 405, 'method not allowed')
    } else if (file !== undefined) {
      await answerFile(req, res, file, host, port())
    } else {
      await answerViewer(req, res, viewer, path)
    }
  }
}

/** Starts serving; rejects with the `listen` error (EADDRINUSE…) or `ViewerNotBuilt`. */
export async function startRadServer(options: ServeOptions): Promise<RunningServer> {
  const viewer = loadViewer(options.dist)
  const files = serveFiles(options.files)
  let port = options.port
  const handle = handler(viewer, files, options.host, () => port)
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  // Without a 'timeout' listener, Node destroys a socket idle this long.
  server.setTimeout(options.idleTimeoutMs ?? IDLE_TIMEOUT_MS)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, options.host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  port = (server.address() as AddressInfo).port
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => {
        resolve()
      })
      server.closeAllConnections()
    })
  return { host: options.host, port, files, close }
}
