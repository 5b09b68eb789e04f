import { throwIfAborted } from './byteSource'

/**
 * The HTTP plumbing under HttpSource: a remote file's version, Content-Range, reading a body up
 * to a limit, the stall watch (ADR 0005), and a URL's file name. No state of a source here.
 */

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

export function responseVersion(res: Response, size: number): RemoteVersion {
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

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
export function baseHref(): string | undefined {
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
