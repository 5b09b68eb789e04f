/**
 * Sends one file from disk: GET and HEAD, a single `Range` (206, `Content-Range`), a strong
 * `ETag` from size, mtime and ctime, `Last-Modified`, and the conditional headers a range reader needs
 * (`If-Range`, `If-Match`, `If-None-Match`, `If-Modified-Since`). The file is opened once and
 * its headers come from that open handle, so the bytes and the `ETag` describe the same version
 * even when the file is replaced (renamed over) meanwhile. Regular files only: a FIFO, a socket
 * or a device named like a served file is never opened for reading (ADR 0005).
 */
import { constants, createReadStream } from 'node:fs'
import { open, stat } from 'node:fs/promises'
import type { FileHandle } from 'node:fs/promises'
import type { Stats } from 'node:fs'
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { parseRange } from './ranges'
import type { ByteSpan, RangeRequest } from './ranges'

/**
 * Size, modification time (ms) and inode change time (µs) in hex. The ctime catches a file
 * edited in place whose mtime was then restored (`touch -r`, `rsync -t`): any
 * write, and restoring the mtime itself, sets it, and no user can set it back.
 */
export function etagOf(stats: Stats): string {
  const ctime = Math.floor(stats.ctimeMs * 1000)
  return `"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}-${ctime.toString(16)}"`
}

/**
 * Opens `path` for reading only when it is a regular file. A FIFO's open would wait for a
 * writer, holding the request and one of Node's few file-system threads for ever: the path is
 * checked first, and opened without blocking (O_NONBLOCK: a regular file reads as usual) in
 * case it was swapped for a FIFO in between; the handle's own stat decides (sendFile).
 */
async function openRegularFile(path: string): Promise<FileHandle | undefined> {
  try {
    if (!(await stat(path)).isFile()) return undefined
    // O_NONBLOCK is 0 where it does not exist (Windows, which has no FIFOs by path).
    return await open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0))
  } catch {
    return undefined
  }
}

/** An `If-Match` / `If-None-Match` list: `*` or comma-separated tags (weak ones compared weakly). */
function tagListHas(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === '*' || t === etag)
}

/** `Last-Modified` has whole seconds; a date header is compared at that precision. */
function sameOrLaterSecond(date: string, stats: Stats): boolean {
  const when = Date.parse(date)
  return !Number.isNaN(when) && Math.floor(stats.mtimeMs / 1000) <= Math.floor(when / 1000)
}

/** Whether `If-Range` still allows a partial answer: a strong tag equal to ours, or our exact date. */
function ifRangeHolds(header: string | undefined, etag: string, lastModified: string): boolean {
  if (header === undefined) return true
  const value = header.trim()
  return value.startsWith('"') ? value === etag : value === lastModified
}

type Plan = { status: 200 | 206; span: ByteSpan | undefined } | { status: 304 | 412 | 416; span?: undefined }

function plan(req: IncomingMessage, stats: Stats, etag: string, lastModified: string): Plan {
  const h = req.headers
  if (h['if-match'] !== undefined && !tagListHas(h['if-match'], etag)) return { status: 412 }
  if (h['if-none-match'] !== undefined) {
    if (tagListHas(h['if-none-match'], etag)) return { status: 304 }
  } else if (h['if-modified-since'] !== undefined && sameOrLaterSecond(h['if-modified-since'], stats)) {
    return { status: 304 }
  }
  const ifRange = typeof h['if-range'] === 'string' ? h['if-range'] : undefined
  const range: RangeRequest = ifRangeHolds(ifRange, etag, lastModified)
    ? parseRange(h.range, stats.size)
    : { kind: 'whole' }
  if (range.kind === 'unsatisfiable') return { status: 416 }
  if (range.kind === 'span') return { status: 206, span: range.span }
  return { status: 200, span: stats.size > 0 ? { start: 0, end: stats.size - 1 } : undefined }
}

/** The headers of an answer without a body (304, 412, 416) or of the span about to be sent. */
function answerHeaders(p: Plan, size: number): OutgoingHttpHeaders {
  if (p.status === 416) return { 'Content-Range': `bytes */${size}`, 'Content-Length': 0 }
  if (p.status === 304 || p.status === 412) return {}
  const length = p.span ? p.span.end - p.span.start + 1 : 0
  if (p.status === 200 || !p.span) return { 'Content-Length': length }
  return { 'Content-Range': `bytes ${p.span.start}-${p.span.end}/${size}`, 'Content-Length': length }
}

/** Streams `span` of the open file; a file cut short meanwhile breaks the connection, never a short 200. */
function stream(handle: FileHandle, span: ByteSpan, res: ServerResponse): void {
  const bytes = createReadStream('', { fd: handle, start: span.start, end: span.end, autoClose: true })
  const expected = span.end - span.start + 1
  bytes.on('error', () => res.destroy())
  bytes.on('end', () => {
    if (bytes.bytesRead === expected) res.end()
    else res.destroy()
  })
  res.on('close', () => bytes.destroy())
  bytes.pipe(res, { end: false })
}

/**
 * Answers `req` with the file at `path`; `headers` are added to every answer. Resolves false
 * (nothing sent) when there is no regular file there, so the caller answers 404.
 */
export async function sendFile(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  headers: OutgoingHttpHeaders,
): Promise<boolean> {
  const handle = await openRegularFile(path)
  if (!handle) return false
  let keepOpen = false
  try {
    const stats = await handle.stat()
    if (!stats.isFile()) return false
    const etag = etagOf(stats)
    const lastModified = stats.mtime.toUTCString()
    const p = plan(req, stats, etag, lastModified)
    res.writeHead(p.status, {
      ...headers,
      'Accept-Ranges': 'bytes',
      ETag: etag,
      'Last-Modified': lastModified,
      ...answerHeaders(p, stats.size),
    })
    if (req.method === 'HEAD' || !p.span) {
      res.end()
    } else {
      stream(handle, p.span, res)
      keepOpen = true
    }
    return true
  } finally {
    if (!keepOpen) await handle.close()
  }
}
