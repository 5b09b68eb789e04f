/**
 * A small node:http server for HttpSource's tests and the browser tests
 * (e2e/url.spec.ts): it serves byte arrays under paths with Range (206,
 * Content-Range, Accept-Ranges, ETag) and can misbehave on purpose.
 */
import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { RadError } from '../../src/rad/errors'

export interface RangeServerOptions {
  /** Answer every GET with 200 and the whole body, as a server that ignores Range does. */
  noRange?: boolean
  /** Milliseconds added before each answer (a round trip's latency). */
  delayMs?: number
  /** Send CORS headers for any origin (default true); false: none, as most static servers. */
  cors?: boolean
  /** The first N requests for a file answer 503, then it is served (a transient failure). */
  failFirst?: number
  /** After this many requests for a file, its bytes are replaced by `changedTo` (a new ETag and size). */
  changeAfter?: number
  changedTo?: Uint8Array
  /** A way to misbehave (ADR 0005, "When a read fails"), on every GET of `faultPath` (default: every path) or its first `faultTimes`. */
  fault?: Fault
  faultPath?: string
  faultTimes?: number
  /** The first N GETs of `faultPath` are answered well; the fault begins after them. */
  faultAfter?: number
  /**
   * GETs whose range starts in [from, to) wait until `release()` (a walk held in the middle of a
   * file, for as long as a test needs, whatever the machine's speed).
   */
  hold?: { from: number; to: number }
}

/**
 * status: answer with this HTTP status. silent: never answer. stall: send the headers and
 * `afterBytes` bytes of the body, then nothing (the connection stays open). cut: the same, then
 * break the connection. shift: a 206 whose bytes start `by` bytes later than asked (Content-Range
 * says so). redirect: 302 to `to`.
 */
export type Fault =
  | { kind: 'status'; status: number; headers?: Record<string, string> }
  | { kind: 'silent' }
  | { kind: 'stall'; afterBytes: number }
  | { kind: 'cut'; afterBytes: number }
  | { kind: 'shift'; by: number }
  | { kind: 'redirect'; to: string }

export interface RequestLog {
  method: string
  path: string
  range: string | undefined
  origin: string | undefined
  referer: string | undefined
  /** performance.now() when the request arrived. */
  at: number
}

export interface RangeServer {
  /** http://127.0.0.1:PORT */
  origin: string
  url(path: string): string
  requests: RequestLog[]
  /** Replace a file's bytes now (its ETag changes, unless `sameEtag`: a server that gets it wrong). */
  setFile(path: string, bytes: Uint8Array, opts?: { sameEtag?: boolean }): void
  /** Answers the requests `hold` keeps waiting, and holds no more. */
  release(): void
  close(): Promise<void>
}

interface Served {
  bytes: Uint8Array
  version: number
  hits: number
}

/** The fault this request meets, if any (RangeServerOptions.fault). */
function faultFor(path: string, opts: RangeServerOptions, faulted: Map<string, number>): Fault | undefined {
  if (!opts.fault || (opts.faultPath !== undefined && opts.faultPath !== path)) return undefined
  const seen = (faulted.get(path) ?? 0) + 1
  faulted.set(path, seen)
  const n = seen - (opts.faultAfter ?? 0)
  return n >= 1 && (opts.faultTimes === undefined || n <= opts.faultTimes) ? opts.fault : undefined
}

/** Answers `req` as `fault` says; false when the fault leaves the answer to `respond`. */
function misbehave(req: IncomingMessage, res: ServerResponse, fault: Fault, file: Served | undefined): boolean {
  if (fault.kind === 'silent') return true
  if (fault.kind === 'status') {
    res.writeHead(fault.status, { 'Content-Type': 'text/plain', ...fault.headers }).end('fault')
    return true
  }
  if (fault.kind === 'redirect') {
    res.writeHead(302, { Location: fault.to }).end()
    return true
  }
  if (fault.kind === 'shift' || !file) return false
  const range = parseRange(req.headers.range, file.bytes.length)
  const [start, end] = Array.isArray(range) ? range : [0, file.bytes.length]
  res.writeHead(Array.isArray(range) ? 206 : 200, {
    'Content-Length': String(end - start),
    'Content-Range': `bytes ${String(start)}-${String(end - 1)}/${String(file.bytes.length)}`,
    ETag: `"v${String(file.version)}-${String(file.bytes.length)}"`,
  })
  res.write(file.bytes.subarray(start, Math.min(end, start + fault.afterBytes)))
  if (fault.kind === 'cut') setTimeout(() => res.destroy(), 20)
  return true
}

/** Starts the server on a random loopback port; `files` maps paths (`/map.rad`) to bytes. */
export async function startRangeServer(
  files: Record<string, Uint8Array>,
  opts: RangeServerOptions = {},
): Promise<RangeServer> {
  const served = new Map<string, Served>()
  for (const [path, bytes] of Object.entries(files)) served.set(path, { bytes, version: 1, hits: 0 })
  const requests: RequestLog[] = []
  const faulted = new Map<string, number>()
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
    requests.push({
      method: req.method ?? '',
      path,
      range: req.headers.range,
      origin: req.headers.origin,
      referer: req.headers.referer,
      at: performance.now(),
    })
    const fault = req.method === 'GET' ? faultFor(path, opts, faulted) : undefined
    const answer = () => {
      corsHeaders(req, res, opts)
      if (fault && misbehave(req, res, fault, served.get(path))) return
      respond(req, res, served.get(path), opts, fault?.kind === 'shift' ? fault.by : 0)
    }
    const start = Number(/^bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? NaN)
    if (holding && req.method === 'GET' && start >= holding.from && start < holding.to) held.push(answer)
    else if (opts.delayMs) setTimeout(answer, opts.delayMs)
    else answer()
  })
  let holding = opts.hold
  const held: (() => void)[] = []
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
  return {
    origin,
    url: (path) => origin + path,
    requests,
    setFile(path, bytes, o = {}) {
      const was = served.get(path)
      const version = (was?.version ?? 0) + (o.sameEtag === true ? 0 : 1)
      served.set(path, { bytes, version, hits: was?.hits ?? 0 })
    },
    release() {
      holding = undefined
      for (const answer of held.splice(0)) answer()
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => {
          resolve()
        })
      }),
  }
}

function corsHeaders(req: IncomingMessage, res: ServerResponse, opts: RangeServerOptions): void {
  if (opts.cors === false) return
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*')
  res.setHeader('Access-Control-Allow-Headers', 'Range')
  res.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length, ETag, Last-Modified, Accept-Ranges')
  res.setHeader('Vary', 'Origin')
}

function respond(
  req: IncomingMessage,
  res: ServerResponse,
  file: Served | undefined,
  opts: RangeServerOptions,
  shift = 0,
): void {
  if (req.method === 'OPTIONS') {
    res.writeHead(204).end()
    return
  }
  if (!file || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found')
    return
  }
  file.hits++
  if (opts.failFirst !== undefined && file.hits <= opts.failFirst) {
    res.writeHead(503, { 'Retry-After': '0' }).end('busy')
    return
  }
  if (opts.changeAfter !== undefined && opts.changedTo && file.hits > opts.changeAfter && file.version === 1) {
    file.bytes = opts.changedTo
    file.version++
  }
  const { bytes } = file
  res.setHeader('ETag', `"v${String(file.version)}-${String(bytes.length)}"`)
  res.setHeader('Content-Type', 'application/octet-stream')
  const range = opts.noRange ? undefined : parseRange(req.headers.range, bytes.length)
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'Content-Range': `bytes */${String(bytes.length)}` }).end()
    return
  }
  if (!opts.noRange) res.setHeader('Accept-Ranges', 'bytes')
  const [start, end] = range ? [Math.min(range[0] + shift, bytes.length - 1), range[1]] : [0, bytes.length]
  if (range) res.setHeader('Content-Range', `bytes ${String(start)}-${String(end - 1)}/${String(bytes.length)}`)
  res.writeHead(range ? 206 : 200, { 'Content-Length': String(end - start) })
  res.end(req.method === 'HEAD' ? undefined : bytes.subarray(start, end))
}

/** `bytes=a-b` / `bytes=a-` / `bytes=-n` → [start, end); undefined without one. */
function parseRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header) : null
  if (!m) return undefined
  let start: number
  let end: number
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]))
    end = size
  } else {
    start = Number(m[1])
    end = m[2] === '' ? size : Math.min(size, Number(m[2]) + 1)
  }
  return start >= size || end <= start ? 'unsatisfiable' : [start, end]
}

/** The error `p` rejects with; fails the test unless it is a RadError (never a plain TypeError: "a bug"). */
export async function radFailure(p: Promise<unknown>): Promise<RadError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  )
  if (!(e instanceof RadError)) throw new Error(`expected a RadError, got ${String(e)}`)
  return e
}
