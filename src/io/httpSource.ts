import { RadError, fmtInt } from '../rad/errors'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'

/**
 * What identifies one version of a remote file: its size and whichever of
 * ETag / Last-Modified the server sends. Every response is compared with the
 * version seen first; any difference stops the reads (FILE_CHANGED), so bytes
 * of two versions are never mixed.
 */
export interface RemoteVersion {
  size: number
  etag?: string
  lastModified?: string
  /** The server ignores Range: every source on this URL reads the whole body (at most WHOLE_BODY_LIMIT). */
  wholeBody?: boolean
}

export interface HttpSourceOptions {
  /** Small reads are served from aligned blocks of this size (default BLOCK_BYTES). */
  blockSize?: number
  /** Larger reads are split into requests of at most this many bytes, fetched in parallel. */
  maxRequestBytes?: number
  /** Requests in flight at once, for all reads of this source. */
  maxInFlight?: number
  /** Retries of a transient failure (network error, 5xx, 429), with backoff from `retryBaseMs`. */
  retries?: number
  retryBaseMs?: number
  /** A server that ignores Range is read whole when the file is at most this large. */
  wholeBodyLimit?: number
  /** The version learned by another source on the same URL (a decode worker gets the index worker's). */
  version?: RemoteVersion
  /** For tests; the global fetch otherwise. */
  fetch?: typeof fetch
}

/**
 * 256 KiB blocks: a chunk header or a fingerprint read costs one round trip
 * and no more bytes than a fast link moves in it.
 */
export const BLOCK_BYTES = 256 << 10
/**
 * The opening GET asks for 5 blocks (1.25 MiB): the prelude and the scan's
 * first 1 MiB window (SequentialReader's FIRST_BLOCK, from the end of a
 * prelude under 256 KiB) come with the size, and the last block (the
 * fingerprint's tail) is fetched right after. Records show after two round
 * trips (test/io/httpLatency.test.ts, 20 and 100 ms of added delay).
 */
export const OPEN_BLOCKS = 5
/**
 * 4 MiB per request: the scan's 16 MiB windows (scanChunks DEFAULT_BLOCK)
 * become 4 parallel requests, so one window costs about one round trip.
 */
export const MAX_REQUEST_BYTES = 4 << 20
/** Chromium opens at most 6 HTTP/1.1 connections per host; more requests would only queue. */
export const MAX_IN_FLIGHT = 6
/** Servers that ignore Range: read the whole body only up to this size (it is held in memory). */
export const WHOLE_BODY_LIMIT = 64 << 20
/** Blocks kept for small reads (4 MiB at 256 KiB each). */
const CACHED_BLOCKS = 16
const RETRIES = 4
const RETRY_BASE_MS = 250
/** A Retry-After longer than this is not waited for. */
const MAX_RETRY_WAIT_MS = 10_000

/** What the browser can only tell as "failed to fetch": the server is down, or it does not allow this page (CORS). */
class NetworkFailure extends Error {}
/** A status worth asking again (5xx, 429). */
class TransientStatus extends Error {
  readonly waitMs: number | undefined
  constructor(message: string, waitMs: number | undefined) {
    super(message)
    this.waitMs = waitMs
  }
}

/**
 * A file on a web server, read with HTTP Range requests (`Range: bytes=a-b`),
 * several in flight. Open it with `HttpSource.open(url)`: the first request
 * is a ranged GET of the first block, which gives the size (Content-Range)
 * and the prelude in one round trip. A server that answers 200 with the whole
 * body is read whole when the file is small (WHOLE_BODY_LIMIT), and refused in
 * plain words otherwise. Requests carry no referrer and no credentials: the
 * URL goes to its own server only.
 */
export class HttpSource implements ByteSource {
  readonly url: string
  readonly name: string
  readonly ownedReads = true
  readonly version: RemoteVersion
  private readonly opts: Required<Omit<HttpSourceOptions, 'version' | 'fetch'>>
  private readonly fetchFn: typeof fetch
  private readonly blocks = new Map<number, Promise<Uint8Array>>()
  /** The whole file, when the server ignores Range and the file is small. */
  private whole: Uint8Array | undefined
  private changed: RadError | undefined
  private inFlight = 0
  private readonly waiting: (() => void)[] = []

  private constructor(url: string, version: RemoteVersion, opts: HttpSourceOptions) {
    this.url = url
    this.name = urlFileName(url)
    this.version = version
    this.fetchFn = opts.fetch ?? ((input, init) => fetch(input, init))
    this.opts = {
      blockSize: opts.blockSize ?? BLOCK_BYTES,
      maxRequestBytes: opts.maxRequestBytes ?? MAX_REQUEST_BYTES,
      maxInFlight: opts.maxInFlight ?? MAX_IN_FLIGHT,
      retries: opts.retries ?? RETRIES,
      retryBaseMs: opts.retryBaseMs ?? RETRY_BASE_MS,
      wholeBodyLimit: opts.wholeBodyLimit ?? WHOLE_BODY_LIMIT,
    }
  }

  /**
   * Opens `url`: with `opts.version` (known from another source) nothing is
   * sent; otherwise one ranged GET of the first block learns the size and
   * the version and keeps the bytes.
   */
  static async open(url: string, opts: HttpSourceOptions = {}, signal?: AbortSignal): Promise<HttpSource> {
    const absolute = new URL(url, baseHref()).href
    if (opts.version && !opts.version.wholeBody) return new HttpSource(absolute, opts.version, opts)
    const probe = new HttpSource(absolute, opts.version ?? { size: 0 }, opts)
    const first = await probe.fetchFirst(signal)
    if (opts.version) probe.checkVersion(first.version)
    const source = new HttpSource(absolute, first.version, opts)
    if (first.whole) {
      source.whole = first.whole
      return source
    }
    const bs = source.opts.blockSize
    for (let at = 0; at < first.bytes.length; at += bs) {
      source.blocks.set(at / bs, Promise.resolve(first.bytes.subarray(at, Math.min(first.bytes.length, at + bs))))
    }
    // The fingerprint's tail, asked for now so that it arrives with the first records.
    if (source.size > 0) void source.block(Math.floor((source.size - 1) / bs))
    return source
  }

  get size(): number {
    return this.version.size
  }

  async read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array> {
    throwIfAborted(signal)
    const end = Math.min(this.size, offset + length)
    if (end <= offset) return new Uint8Array(0)
    if (this.changed) throw this.changed
    if (this.whole) return this.whole.slice(offset, end)
    const bytes =
      end - offset < this.opts.blockSize || this.cached(offset, end)
        ? await this.readBlocks(offset, end)
        : await this.readLarge(offset, end, signal)
    throwIfAborted(signal)
    return bytes
  }

  /**
   * Asks the server whether the file is still the version read (one small
   * ranged GET, never from a cache): throws FILE_CHANGED when it is not.
   * confirmUnchanged (fileFingerprint.ts) calls it before a verdict.
   */
  async revalidate(signal?: AbortSignal): Promise<void> {
    if (this.changed) throw this.changed
    if (this.whole) return
    await this.fetchRange(0, Math.min(this.size, 1), signal)
  }

  /** Small reads: from the cached aligned blocks, fetching the missing ones (each once). */
  private async readBlocks(offset: number, end: number): Promise<Uint8Array> {
    const bs = this.opts.blockSize
    const firstBlock = Math.floor(offset / bs)
    const lastBlock = Math.floor((end - 1) / bs)
    const parts: Promise<Uint8Array>[] = []
    for (let b = firstBlock; b <= lastBlock; b++) parts.push(this.block(b))
    const blocks = await Promise.all(parts)
    const out = new Uint8Array(end - offset)
    blocks.forEach((bytes, i) => {
      const blockStart = (firstBlock + i) * bs
      const from = Math.max(offset, blockStart)
      const to = Math.min(end, blockStart + bytes.length)
      if (to > from) out.set(bytes.subarray(from - blockStart, to - blockStart), from - offset)
    })
    return out
  }

  /** Whether every block of [offset, end) is cached or on its way. */
  private cached(offset: number, end: number): boolean {
    const bs = this.opts.blockSize
    for (let b = Math.floor(offset / bs); b <= Math.floor((end - 1) / bs); b++) if (!this.blocks.has(b)) return false
    return true
  }

  private block(b: number): Promise<Uint8Array> {
    const cached = this.blocks.get(b)
    if (cached) {
      // Most recently used last: the Map's order is the eviction order.
      this.blocks.delete(b)
      this.blocks.set(b, cached)
      return cached
    }
    const start = b * this.opts.blockSize
    const bytes = this.fetchRange(start, Math.min(this.size, start + this.opts.blockSize))
    this.blocks.set(b, bytes)
    bytes.catch(() => this.blocks.delete(b))
    while (this.blocks.size > CACHED_BLOCKS) {
      const oldest = this.blocks.keys().next().value
      if (oldest === undefined) break
      this.blocks.delete(oldest)
    }
    return bytes
  }

  /** Large reads: split into requests of at most maxRequestBytes, all in flight together. */
  private async readLarge(offset: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    const step = this.opts.maxRequestBytes
    const pieces: Promise<Uint8Array>[] = []
    for (let at = offset; at < end; at += step) pieces.push(this.fetchRange(at, Math.min(end, at + step), signal))
    const got = await Promise.all(pieces)
    if (got.length === 1 && got[0]) return got[0]
    const out = new Uint8Array(end - offset)
    let pos = 0
    for (const piece of got) {
      out.set(piece, pos)
      pos += piece.length
    }
    return out
  }

  /** Bytes [start, end) with one ranged GET, retried when the failure is transient. */
  private async fetchRange(start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    await this.slot(signal)
    try {
      return await this.withRetries(start, signal, async () => {
        const res = await this.get(start, end, signal)
        if (res.status === 416) {
          await res.body?.cancel()
          throw this.markChanged('the server no longer has these bytes (416: range not satisfiable); it is shorter now')
        }
        if (res.status !== 206) {
          await res.body?.cancel()
          if (res.status === 200) throw readFailed('the server stopped answering byte ranges', start)
          throw statusError(res, start, this.url)
        }
        this.checkVersion(responseVersion(res, this.size))
        const bytes = new Uint8Array(await res.arrayBuffer())
        const range = parseContentRange(res.headers.get('Content-Range'))
        if ((range && range.start !== start) || bytes.length !== end - start) {
          throw readFailed(
            `asked for ${fmtInt(end - start)} bytes at byte ${fmtInt(start)}, the server sent ${fmtInt(bytes.length)}${range ? ` from byte ${fmtInt(range.start)}` : ''}`,
            start,
          )
        }
        return bytes
      })
    } finally {
      this.release()
    }
  }

  /** The opening request: the first block and the file's size and version. */
  private async fetchFirst(
    signal?: AbortSignal,
  ): Promise<{ version: RemoteVersion; bytes: Uint8Array; whole?: Uint8Array }> {
    return this.withRetries(0, signal, async () => {
      const res = await this.get(0, this.opts.blockSize * OPEN_BLOCKS, signal)
      if (res.status === 200) return this.readWholeBody(res, signal)
      if (res.status === 416) {
        await res.body?.cancel()
        return { version: { ...responseVersion(res, 0), size: 0 }, bytes: new Uint8Array(0) }
      }
      if (res.status !== 206) {
        await res.body?.cancel()
        throw statusError(res, 0, this.url)
      }
      const range = parseContentRange(res.headers.get('Content-Range'))
      if (!range || range.total === undefined) {
        await res.body?.cancel()
        throw readFailed(
          `the server answered the byte range but did not let this page read its size. It must send the header ${EXPOSE_HEADERS}`,
          0,
        )
      }
      const bytes = new Uint8Array(await res.arrayBuffer())
      return { version: responseVersion(res, range.total), bytes }
    })
  }

  /** A 200 to a Range request: the server ignores Range. Small files are read whole; large ones refused. */
  private async readWholeBody(
    res: Response,
    signal?: AbortSignal,
  ): Promise<{ version: RemoteVersion; bytes: Uint8Array; whole: Uint8Array }> {
    const limit = this.opts.wholeBodyLimit
    const declared = Number(res.headers.get('Content-Length') ?? NaN)
    const tooLarge = (n: number) =>
      readFailed(
        `the server does not serve byte ranges (it answered a Range request with the whole file, ${fmtInt(n)} bytes or more), and files over ${fmtInt(limit)} bytes are only read from servers that do. Serve it with \`rad serve\` or any server that supports Range requests (nginx, Apache, S3, GCS)`,
        0,
      )
    if (Number.isFinite(declared) && declared > limit) {
      await res.body?.cancel()
      throw tooLarge(declared)
    }
    const whole = await readBodyUpTo(res, limit, signal)
    if (!whole) throw tooLarge(limit + 1)
    const version = { ...responseVersion(res, whole.length), size: whole.length, wholeBody: true }
    return { version, bytes: whole, whole }
  }

  private async get(start: number, end: number, signal?: AbortSignal): Promise<Response> {
    const init: RequestInit = {
      headers: { Range: `bytes=${String(start)}-${String(end - 1)}` },
      // The URL goes to its own server and nowhere else; no cookies; always the server's current bytes.
      referrerPolicy: 'no-referrer',
      credentials: 'omit',
      cache: 'no-store',
    }
    if (signal) init.signal = signal
    try {
      return await this.fetchFn(this.url, init)
    } catch (e) {
      throwIfAborted(signal)
      throw new NetworkFailure(e instanceof Error ? e.message : String(e))
    }
  }

  /** Runs `attempt`, again after a backoff when it fails transiently; explains the last failure. */
  private async withRetries<T>(offset: number, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt()
      } catch (e) {
        if (!(e instanceof NetworkFailure || e instanceof TransientStatus)) throw e
        if (e instanceof NetworkFailure && tries === 0 && (await this.blockedByCors())) {
          throw readFailed(corsMessage(this.url), offset)
        }
        if (tries >= this.opts.retries) {
          throw readFailed(e instanceof NetworkFailure ? unreachableMessage(this.url, e.message) : e.message, offset)
        }
        const backoff = this.opts.retryBaseMs * 2 ** tries
        await sleep(e instanceof TransientStatus && e.waitMs !== undefined ? e.waitMs : backoff, signal)
        if (this.changed) throw this.changed
      }
    }
  }

  /**
   * Whether a failed fetch was the browser withholding the answer (CORS): a
   * `no-cors` GET of the same URL succeeds (with an opaque answer) when the
   * server is up. Only in a page or worker of another origin; Node has no CORS.
   */
  private async blockedByCors(): Promise<boolean> {
    const here = baseHref()
    if (!here || new URL(this.url).origin === new URL(here).origin) return false
    try {
      await this.fetchFn(this.url, {
        mode: 'no-cors',
        headers: { Range: 'bytes=0-0' },
        referrerPolicy: 'no-referrer',
        credentials: 'omit',
        cache: 'no-store',
      })
      return true
    } catch {
      return false
    }
  }

  private checkVersion(now: RemoteVersion): void {
    const was = this.version
    let why: string | undefined
    if (now.size !== was.size) why = `its size is now ${fmtInt(now.size)} bytes, not ${fmtInt(was.size)}`
    else if (was.etag !== undefined && now.etag !== undefined && now.etag !== was.etag) {
      why = `its ETag is now ${now.etag}, not ${was.etag}`
    } else if (
      was.lastModified !== undefined &&
      now.lastModified !== undefined &&
      now.lastModified !== was.lastModified
    ) {
      why = `it was modified at ${now.lastModified}`
    }
    if (why) throw this.markChanged(why)
  }

  /** From now on every read fails with this one error. */
  private markChanged(why: string): RadError {
    this.changed ??= new RadError('FILE_CHANGED', `the file changed on the server while it was read: ${why}`)
    this.blocks.clear()
    return this.changed
  }

  private async slot(signal?: AbortSignal): Promise<void> {
    while (this.inFlight >= this.opts.maxInFlight) {
      await new Promise<void>((resolve) => this.waiting.push(resolve))
      throwIfAborted(signal)
    }
    this.inFlight++
  }

  private release(): void {
    this.inFlight--
    this.waiting.shift()?.()
  }
}

/** The headers a server must expose for this page to read ranges from another origin. */
const EXPOSE_HEADERS = '`Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified`'

function corsMessage(url: string): string {
  const origin = baseHref() ? new URL(baseHref() ?? '').origin : 'this page'
  return (
    `the server at ${new URL(url).host} answered, but it does not allow this page to read the file (CORS). ` +
    `To open it here, the server must send \`Access-Control-Allow-Origin: ${origin}\` (or \`*\`) and ${EXPOSE_HEADERS}, ` +
    'and answer the preflight OPTIONS request with `Access-Control-Allow-Headers: Range`. ' +
    '`rad serve` does this for you'
  )
}

function unreachableMessage(url: string, why: string): string {
  return `could not reach ${new URL(url).host} (${why}). Is the server running, and is the address right?`
}

function statusError(res: Response, offset: number, url: string): Error {
  const what = `${String(res.status)}${res.statusText ? ` ${res.statusText}` : ''}`
  if (res.status >= 500 || res.status === 429) {
    return new TransientStatus(`the server answered ${what}`, retryAfterMs(res.headers.get('Retry-After')))
  }
  if (res.status === 404 || res.status === 410) return readFailed(`there is no file at ${url} (${what})`, offset)
  if (res.status === 401 || res.status === 403) {
    return readFailed(
      `the server refused to send the file (${what}); links that need a login cannot be opened here`,
      offset,
    )
  }
  return readFailed(`the server answered ${what}`, offset)
}

function readFailed(why: string, offset: number): RadError {
  return new RadError('READ_FAILED', `could not read the file at byte ${fmtInt(offset)}: ${why}`, offset)
}

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined
  const seconds = Number(header)
  if (!Number.isFinite(seconds) || seconds < 0) return undefined
  return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS)
}

function responseVersion(res: Response, size: number): RemoteVersion {
  const version: RemoteVersion = { size }
  const etag = res.headers.get('ETag')
  const lastModified = res.headers.get('Last-Modified')
  if (etag) version.etag = etag
  if (lastModified) version.lastModified = lastModified
  const range = parseContentRange(res.headers.get('Content-Range'))
  if (range?.total !== undefined) version.size = range.total
  return version
}

/** `bytes 0-99/1234` → {start: 0, total: 1234}; `bytes &#42;/1234` → total 1234 and no start. */
export function parseContentRange(header: string | null): { start: number; total: number | undefined } | undefined {
  const m = header ? /^bytes\s+(?:(\d+)-\d+|\*)\/(\d+|\*)$/i.exec(header.trim()) : null
  if (!m) return undefined
  return {
    start: m[1] === undefined ? NaN : Number(m[1]),
    total: m[2] === '*' || m[2] === undefined ? undefined : Number(m[2]),
  }
}

/** The body, or undefined as soon as it grows past `limit` bytes (the rest is not read). */
export async function readBodyUpTo(
  res: Response,
  limit: number,
  signal?: AbortSignal,
): Promise<Uint8Array | undefined> {
  if (!res.body) return new Uint8Array(0)
  const reader = res.body.getReader()
  const parts: Uint8Array[] = []
  let total = 0
  for (;;) {
    throwIfAborted(signal)
    const { value, done } = await reader.read()
    if (done) break
    total += value.length
    if (total > limit) {
      await reader.cancel()
      return undefined
    }
    parts.push(value)
  }
  const out = new Uint8Array(total)
  let pos = 0
  for (const p of parts) {
    out.set(p, pos)
    pos += p.length
  }
  return out
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('cancelled', 'AbortError'))
      },
      { once: true },
    )
  })
}

/** The page's (or worker's) address, to resolve relative URLs and tell other origins; undefined in Node. */
function baseHref(): string | undefined {
  return typeof location === 'undefined' ? undefined : location.href
}

/** The name shown for a URL: its last path segment, decoded (`…/runs/map.rad?x=1` → `map.rad`). */
export function urlFileName(url: string): string {
  let path: string
  try {
    path = new URL(url, baseHref() ?? 'http://localhost/').pathname
  } catch {
    return url
  }
  const last =
    path
      .split('/')
      .filter((s) => s !== '')
      .pop() ?? ''
  try {
    return decodeURIComponent(last) || 'file'
  } catch {
    return last || 'file'
  }
}
