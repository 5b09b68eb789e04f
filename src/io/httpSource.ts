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
  /** A request that receives nothing for this long fails: the server stopped sending (default STALL_MS). */
  stallMs?: number
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
/**
 * 30 s without a byte (before the answer, or between two parts of its body): the server
 * stopped sending (ADR 0005). Not retried: the page says so and offers Retry.
 */
export const STALL_MS = 30_000
/**
 * After a fetch the browser refused, how long its Content-Security-Policy violation event may
 * take: Chromium fires it within a task of the rejection (measured: under 1 ms).
 */
const POLICY_EVENT_MS = 50

/**
 * What the browser can only tell as "failed to fetch": the server is down, it does not allow
 * this page (CORS), or the page's own policy refused the address. `midBody`: the answer had
 * begun and the connection broke off in its middle (then CORS and the policy are not the cause).
 */
class NetworkFailure extends Error {
  readonly midBody: boolean
  constructor(message: string, midBody: boolean) {
    super(message)
    this.midBody = midBody
  }
}
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
      stallMs: opts.stallMs ?? STALL_MS,
    }
  }

  /**
   * Opens `url`: with `opts.version` (known from another source) nothing is
   * sent; otherwise one ranged GET of the first block learns the size and
   * the version and keeps the bytes.
   */
  static async open(url: string, opts: HttpSourceOptions = {}, signal?: AbortSignal): Promise<HttpSource> {
    const absolute = new URL(url, baseHref()).href
    watchPolicyRefusals()
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
    // Whole blocks only (or up to the end of the file): a block cached short would read as zeros.
    const got = first.bytes.length
    const kept = got === source.size ? got : got - (got % bs)
    for (let at = 0; at < kept; at += bs) {
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
    // Two bytes, not one: sirv (vite preview's static server) answers `bytes=0-0` with the whole file.
    await this.fetchRange(0, Math.min(this.size, 2), signal)
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
      return await this.withRetries(start, signal, () =>
        this.exchange(start, end, signal, async (res, onBytes) => {
          if (res.status !== 206) {
            await res.body?.cancel()
            throw this.notPartial(res, start, end)
          }
          this.checkVersion(responseVersion(res, this.size))
          const range = parseContentRange(res.headers.get('Content-Range'))
          if (range && range.start !== start) throw otherBytes(start, end, range)
          const bytes = await readBodyUpTo(res, end - start, signal, onBytes)
          if (bytes?.length !== end - start) throw otherBytes(start, end, range, bytes?.length ?? 'more')
          return bytes
        }),
      )
    } finally {
      this.release()
    }
  }

  /**
   * Why a ranged GET after the first did not answer 206: the file changed (another size, ETag or
   * date), or the server failed or refused. A 416 or a 200 is a change only when the size differs.
   */
  private notPartial(res: Response, start: number, end: number): Error {
    if (res.status === 416) {
      this.checkVersion(responseVersion(res, this.size))
      return fetchFailed(
        `the server refused the byte range ${span(start, end)} (416 Range Not Satisfiable) of a file it said has ${fmtInt(this.size)} bytes${redirectNote(res)}`,
        start,
      )
    }
    if (res.status === 200) {
      const length = Number(res.headers.get('Content-Length') ?? NaN)
      this.checkVersion(responseVersion(res, Number.isFinite(length) ? length : this.size))
      return fetchFailed(
        `the server stopped answering byte ranges: it sent the whole file (200) when asked for bytes ${span(start, end)}${redirectNote(res)}`,
        start,
      )
    }
    return statusError(res, start, this.url)
  }

  /** The opening request: the first block and the file's size and version. */
  private async fetchFirst(
    signal?: AbortSignal,
  ): Promise<{ version: RemoteVersion; bytes: Uint8Array; whole?: Uint8Array }> {
    const asked = this.opts.blockSize * OPEN_BLOCKS
    return this.withRetries(0, signal, () =>
      this.exchange(0, asked, signal, async (res, onBytes) => {
        if (res.status === 200) return this.readWholeBody(res, signal, onBytes)
        if (res.status !== 206) {
          await res.body?.cancel()
          if (res.status === 416) return emptyOrRefused(res, asked)
          throw statusError(res, 0, this.url)
        }
        const range = parseContentRange(res.headers.get('Content-Range'))
        if (!range || range.total === undefined) {
          await res.body?.cancel()
          throw fetchFailed(
            `the server answered the byte range but did not let this page read its size. It must send the header ${EXPOSE_HEADERS}`,
            0,
          )
        }
        // A server may send fewer bytes than asked (then Content-Range says so), never others.
        const wanted = Math.min(asked, range.total)
        if (range.start !== 0) throw otherBytes(0, wanted, range)
        const bytes = await readBodyUpTo(res, wanted, signal, onBytes)
        if (!bytes || bytes.length === 0 || bytes.length !== (range.end ?? -1) + 1) {
          throw otherBytes(0, wanted, range, bytes?.length ?? 'more')
        }
        return { version: responseVersion(res, range.total), bytes }
      }),
    )
  }

  /** A 200 to a Range request: the server ignores Range. Small files are read whole; large ones refused. */
  private async readWholeBody(
    res: Response,
    signal: AbortSignal | undefined,
    onBytes: () => void,
  ): Promise<{ version: RemoteVersion; bytes: Uint8Array; whole: Uint8Array }> {
    const limit = this.opts.wholeBodyLimit
    const declared = Number(res.headers.get('Content-Length') ?? NaN)
    const tooLarge = (n: number) =>
      fetchFailed(
        `the server does not serve byte ranges (it answered a Range request with the whole file, ${fmtInt(n)} bytes or more), and files over ${fmtInt(limit)} bytes are only read from servers that do. Serve it with \`rad serve\` or any server that supports Range requests (nginx, Apache, S3, GCS)`,
        0,
      )
    if (Number.isFinite(declared) && declared > limit) {
      await res.body?.cancel()
      throw tooLarge(declared)
    }
    const whole = await readBodyUpTo(res, limit, signal, onBytes)
    if (!whole) throw tooLarge(limit + 1)
    const version = { ...responseVersion(res, whole.length), size: whole.length, wholeBody: true }
    return { version, bytes: whole, whole }
  }

  /**
   * One ranged GET of [start, end), its answer read by `handle` (which calls `onBytes` as parts
   * of the body arrive), under a stall watch: nothing for stallMs fails it with "the server
   * stopped sending". A failure before the answer or in the middle of its body is a
   * NetworkFailure, retried by withRetries; a cancel stays a cancel.
   */
  private async exchange<T>(
    start: number,
    end: number,
    signal: AbortSignal | undefined,
    handle: (res: Response, onBytes: () => void) => Promise<T>,
  ): Promise<T> {
    const watch = new StallWatch(this.opts.stallMs, signal)
    let answered = false
    try {
      const res = await this.fetchFn(this.url, {
        headers: { Range: `bytes=${String(start)}-${String(end - 1)}` },
        // The URL goes to its own server and nowhere else; no cookies; always the server's current bytes.
        referrerPolicy: 'no-referrer',
        credentials: 'omit',
        cache: 'no-store',
        signal: watch.signal,
      })
      answered = true
      watch.arm()
      return await handle(res, () => {
        watch.arm()
      })
    } catch (e) {
      throwIfAborted(signal)
      if (watch.stalled) throw fetchFailed(stalledMessage(this.url, this.opts.stallMs), start)
      if (e instanceof RadError || e instanceof TransientStatus) throw e
      throw new NetworkFailure(e instanceof Error ? e.message : String(e), answered)
    } finally {
      watch.stop()
    }
  }

  /** Runs `attempt`, again after a backoff when it fails transiently; explains the last failure. */
  private async withRetries<T>(offset: number, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt()
      } catch (e) {
        if (!(e instanceof NetworkFailure || e instanceof TransientStatus)) throw e
        if (e instanceof NetworkFailure && !e.midBody && tries === 0) {
          const refused = await this.refusal()
          if (refused !== undefined) throw fetchFailed(refused, offset)
        }
        if (tries >= this.opts.retries) throw fetchFailed(this.gaveUp(e, tries + 1), offset)
        const backoff = this.opts.retryBaseMs * 2 ** tries
        await sleep(e instanceof TransientStatus && e.waitMs !== undefined ? e.waitMs : backoff, signal)
        if (this.changed) throw this.changed
      }
    }
  }

  /** The last failure in words, after `tries` attempts. */
  private gaveUp(e: NetworkFailure | TransientStatus, tries: number): string {
    if (e instanceof TransientStatus) return `${e.message}${tries > 1 ? `, ${String(tries)} times` : ''}`
    if (!e.midBody) return unreachableMessage(this.url, e.message)
    return `network failure: the connection to ${new URL(this.url).host} broke off in the middle of an answer, ${String(tries)} times (${e.message})`
  }

  /**
   * Why the browser itself refused a request that got no answer: the page's own
   * Content-Security-Policy, or CORS. Undefined when neither: the server is down.
   */
  private async refusal(): Promise<string | undefined> {
    if (await refusedByPolicy(this.url)) return policyMessage(this.url)
    if (await this.blockedByCors()) return corsMessage(this.url)
    return undefined
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
        signal: AbortSignal.timeout(this.opts.stallMs),
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

/** The page's own Content-Security-Policy refused the address (index.html's connect-src, docs/adr/0005). */
function policyMessage(url: string): string {
  return (
    `this page's own security policy (Content-Security-Policy, connect-src) does not allow it to connect to ${new URL(url).origin}. ` +
    'The viewer may read https:// addresses, and http:// ones only on this machine (127.0.0.1, localhost): ' +
    'use an https:// address, or `rad serve` on the server and `ssh -L` to reach it here'
  )
}

function stalledMessage(url: string, ms: number): string {
  const wait = ms >= 1000 ? `${String(Math.round(ms / 1000))} s` : `${String(ms)} ms`
  return `the server stopped sending: nothing arrived from ${new URL(url).host} for ${wait}`
}

/** ` (after a redirect to HOST)` when the answer came from another address than the one asked. */
function redirectNote(res: Response): string {
  if (!res.redirected || res.url === '') return ''
  return ` (after a redirect to ${new URL(res.url).host})`
}

function statusError(res: Response, offset: number, asked: string): Error {
  const what = `${String(res.status)}${res.statusText ? ` ${res.statusText}` : ''}`
  const redirected = res.redirected && res.url !== ''
  const final = new URL(redirected ? res.url : asked)
  const answer = `${what}${redirected ? `, after a redirect from ${new URL(asked).host}` : ''}`
  const waitMs = retryAfterMs(res.headers.get('Retry-After'))
  if (res.status >= 500) return new TransientStatus(`server error: ${final.host} answered ${answer}`, waitMs)
  if (res.status === 429) return new TransientStatus(`the server is busy: ${final.host} answered ${answer}`, waitMs)
  if (res.status === 404 || res.status === 410) {
    return fetchFailed(
      `no such file on that server: ${final.host} has nothing at ${final.pathname} (${answer}). Check the address`,
      offset,
    )
  }
  if (res.status === 401 || res.status === 403) {
    return fetchFailed(
      `access refused: ${final.host} answered ${answer}; links that need a login cannot be opened here`,
      offset,
    )
  }
  return fetchFailed(`${final.host} answered ${answer}`, offset)
}

/** `a–b` for the bytes [start, end). */
function span(start: number, end: number): string {
  return `${fmtInt(start)}–${fmtInt(end - 1)}`
}

/**
 * A 206 holding other bytes than those asked for: "asked for 0–65,535, got 1,000–66,535".
 * `came`: how many bytes the body held, once read ('more': more than asked).
 */
function otherBytes(
  start: number,
  end: number,
  range: { start: number; end: number | undefined } | undefined,
  came?: number | 'more',
): RadError {
  const got = range?.end !== undefined ? span(range.start, range.end + 1) : 'no Content-Range'
  const body =
    came === undefined ? '' : came === 'more' ? ', and more bytes than that came' : `, and ${fmtInt(came)} bytes came`
  return fetchFailed(`the server sent other bytes than asked: asked for ${span(start, end)}, got ${got}${body}`, start)
}

/**
 * A 416 to the opening request: an empty file (`Content-Range: bytes &#42;/0`, as nginx and
 * `rad serve` answer), or a server refusing the first bytes of a file it has.
 */
function emptyOrRefused(res: Response, asked: number): { version: RemoteVersion; bytes: Uint8Array } {
  const total = parseContentRange(res.headers.get('Content-Range'))?.total
  if (total === 0) return { version: { ...responseVersion(res, 0), size: 0 }, bytes: new Uint8Array(0) }
  const size =
    total === undefined ? 'without saying the file’s size' : `although it says the file has ${fmtInt(total)} bytes`
  throw fetchFailed(
    `the server refused the first byte range, ${span(0, asked)} (416 Range Not Satisfiable), ${size}${redirectNote(res)}`,
    0,
  )
}

/**
 * A URL that could not be read: never "changed" (that is FILE_CHANGED, from a differing
 * version). The offset is named past byte 0 only: at 0 the file could not be opened at all.
 */
function fetchFailed(why: string, offset: number): RadError {
  return new RadError('FETCH_FAILED', why, offset > 0 ? offset : undefined)
}

/** Whether `e` is a URL that could not be read (FETCH_FAILED): about the server or the network, not the file. */
export function isFetchFailure(e: unknown): boolean {
  return e instanceof RadError && e.code === 'FETCH_FAILED'
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

/** `bytes 0-99/1234` → {start: 0, end: 99, total: 1234}; `bytes &#42;/1234` → total 1234, no start or end. */
export function parseContentRange(
  header: string | null,
): { start: number; end: number | undefined; total: number | undefined } | undefined {
  const m = header ? /^bytes\s+(?:(\d+)-(\d+)|\*)\/(\d+|\*)$/i.exec(header.trim()) : null
  if (!m) return undefined
  return {
    start: m[1] === undefined ? NaN : Number(m[1]),
    end: m[2] === undefined ? undefined : Number(m[2]),
    total: m[3] === '*' || m[3] === undefined ? undefined : Number(m[3]),
  }
}

/**
 * The body, or undefined as soon as it grows past `limit` bytes (the rest is not read).
 * `onBytes` hears of each part as it arrives (a StallWatch is re-armed by it).
 */
export async function readBodyUpTo(
  res: Response,
  limit: number,
  signal?: AbortSignal,
  onBytes?: () => void,
): Promise<Uint8Array | undefined> {
  if (!res.body) return new Uint8Array(0)
  const reader = res.body.getReader()
  const parts: Uint8Array[] = []
  let total = 0
  for (;;) {
    throwIfAborted(signal)
    const { value, done } = await reader.read()
    if (done) break
    onBytes?.()
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

/**
 * Fails a request that receives nothing for `ms` (ADR 0005): armed when it is sent, armed
 * again by each part of the answer. Its `signal` aborts the fetch, as the caller's does.
 */
export class StallWatch {
  readonly signal: AbortSignal
  /** The wait ran out: the request was aborted for silence, not cancelled. */
  stalled = false
  private readonly ms: number
  private readonly controller = new AbortController()
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(ms: number, outer?: AbortSignal) {
    this.ms = ms
    this.signal = outer ? AbortSignal.any([outer, this.controller.signal]) : this.controller.signal
    this.arm()
  }

  /** Something arrived: the wait starts again. */
  arm(): void {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => {
      this.stalled = true
      this.controller.abort(new DOMException('the server stopped sending', 'TimeoutError'))
    }, this.ms)
  }

  stop(): void {
    clearTimeout(this.timer)
  }
}

/** Origins this thread's Content-Security-Policy refused to connect to (securitypolicyviolation events). */
const policyRefused = new Set<string>()
let policyWatched = false

/** Starts listening for the policy's refusals, once, where there are such events (a page or a worker). */
function watchPolicyRefusals(): void {
  const scope = globalThis as unknown as Partial<EventTarget>
  if (policyWatched || typeof scope.addEventListener !== 'function') return
  policyWatched = true
  scope.addEventListener('securitypolicyviolation', (ev) => {
    const blocked = (ev as Event & { blockedURI?: string }).blockedURI
    if (!blocked) return
    try {
      policyRefused.add(new URL(blocked).origin)
    } catch {
      // 'inline', 'eval' and the like: not an address.
    }
  })
}

/**
 * Whether the page's own Content-Security-Policy refused `url` (connect-src): the browser says
 * so only by a violation event, which follows the failed fetch within a task.
 */
async function refusedByPolicy(url: string): Promise<boolean> {
  if (!policyWatched) return false
  const origin = new URL(url).origin
  if (!policyRefused.has(origin)) await sleep(POLICY_EVENT_MS)
  return policyRefused.has(origin)
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
