import { RadError, fmtInt } from '../rad/errors'
import { BlockCache } from './blockCache'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'
import {
  EXPOSE_HEADERS,
  NetworkFailure,
  TransientStatus,
  emptyOrRefused,
  fetchFailed,
  otherBytes,
  redirectNote,
  span,
  stalledMessage,
  statusError,
  watchPolicyRefusals,
} from './httpMessages'
import type { RemoteVersion } from './httpWire'
import { CACHED_BLOCKS, OPEN_BLOCKS, defaultsOf } from './httpOptions'
import type { HttpSourceOptions, ReadOptions } from './httpOptions'
import { gaveUp, refusal, versionChange } from './httpDiagnosis'
import { StallWatch, baseHref, parseContentRange, readBodyUpTo, responseVersion, sleep, urlFileName } from './httpWire'

export { isFetchFailure } from './httpMessages'
export type { RemoteVersion } from './httpWire'
export { StallWatch, parseContentRange, readBodyUpTo, urlFileName } from './httpWire'

export type { HttpSourceOptions } from './httpOptions'
export { BLOCK_BYTES, MAX_IN_FLIGHT, MAX_REQUEST_BYTES, OPEN_BLOCKS, STALL_MS, WHOLE_BODY_LIMIT } from './httpOptions'

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
  private readonly opts: ReadOptions
  private readonly fetchFn: typeof fetch
  private readonly blocks: BlockCache
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
    this.opts = defaultsOf(opts)
    const bs = this.opts.blockSize
    this.blocks = new BlockCache(bs, CACHED_BLOCKS, (b) => this.fetchRange(b * bs, Math.min(this.size, (b + 1) * bs)))
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
    source.blocks.seed(first.bytes, source.size)
    // The fingerprint's tail, asked for now so that it arrives with the first records.
    if (source.size > 0) void source.blocks.block(Math.floor((source.size - 1) / source.opts.blockSize))
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
      end - offset < this.opts.blockSize || this.blocks.has(offset, end)
        ? await this.blocks.read(offset, end)
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
          const refused = await refusal(this.url, this.fetchFn, this.opts.stallMs)
          if (refused !== undefined) throw fetchFailed(refused, offset)
        }
        if (tries >= this.opts.retries) throw fetchFailed(gaveUp(this.url, e, tries + 1), offset)
        const backoff = this.opts.retryBaseMs * 2 ** tries
        await sleep(e instanceof TransientStatus && e.waitMs !== undefined ? e.waitMs : backoff, signal)
        if (this.changed) throw this.changed
      }
    }
  }

  private checkVersion(now: RemoteVersion): void {
    const why = versionChange(this.version, now)
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
