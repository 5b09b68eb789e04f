import { RadError, fmtInt } from '../rad/errors'
import type { RemoteVersion } from './httpWire'
import { baseHref, parseContentRange, responseVersion, sleep } from './httpWire'

/**
 * What HttpSource says when a read fails: the failure classes it retries, and the plain-words
 * messages for a server that is down, refuses (CORS, the page's own policy), answers other
 * bytes or another status.
 */

/** A Retry-After longer than this is not waited for. */
const MAX_RETRY_WAIT_MS = 10_000
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
export class NetworkFailure extends Error {
  readonly midBody: boolean
  constructor(message: string, midBody: boolean) {
    super(message)
    this.midBody = midBody
  }
}
/** A status worth asking again (5xx, 429). */
export class TransientStatus extends Error {
  readonly waitMs: number | undefined
  constructor(message: string, waitMs: number | undefined) {
    super(message)
    this.waitMs = waitMs
  }
}

/** The headers a server must expose for this page to read ranges from another origin. */
export const EXPOSE_HEADERS = '`Access-Control-Expose-Headers: Content-Range, Content-Length, ETag, Last-Modified`'

export function corsMessage(url: string): string {
  const origin = baseHref() ? new URL(baseHref() ?? '').origin : 'this page'
  return (
    `the server at ${new URL(url).host} answered, but it does not allow this page to read the file (CORS). ` +
    `To open it here, the server must send \`Access-Control-Allow-Origin: ${origin}\` (or \`*\`) and ${EXPOSE_HEADERS}, ` +
    'and answer the preflight OPTIONS request with `Access-Control-Allow-Headers: Range`. ' +
    '`rad serve` does this for you'
  )
}

export function unreachableMessage(url: string, why: string): string {
  return `could not reach ${new URL(url).host} (${why}). Is the server running, and is the address right?`
}

/** The page's own Content-Security-Policy refused the address (index.html's connect-src, docs/adr/0005). */
export function policyMessage(url: string): string {
  return (
    `this page's own security policy (Content-Security-Policy, connect-src) does not allow it to connect to ${new URL(url).origin}. ` +
    'The viewer may read https:// addresses, and http:// ones only on this machine (127.0.0.1, localhost): ' +
    'use an https:// address, or `rad serve` on the server and `ssh -L` to reach it here'
  )
}

export function stalledMessage(url: string, ms: number): string {
  const wait = ms >= 1000 ? `${String(Math.round(ms / 1000))} s` : `${String(ms)} ms`
  return `the server stopped sending: nothing arrived from ${new URL(url).host} for ${wait}`
}

/** ` (after a redirect to HOST)` when the answer came from another address than the one asked. */
export function redirectNote(res: Response): string {
  if (!res.redirected || res.url === '') return ''
  return ` (after a redirect to ${new URL(res.url).host})`
}

export function statusError(res: Response, offset: number, asked: string): Error {
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
export function span(start: number, end: number): string {
  return `${fmtInt(start)}–${fmtInt(end - 1)}`
}

/**
 * A 206 holding other bytes than those asked for: "asked for 0–65,535, got 1,000–66,535".
 * `came`: how many bytes the body held, once read ('more': more than asked).
 */
export function otherBytes(
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
export function emptyOrRefused(res: Response, asked: number): { version: RemoteVersion; bytes: Uint8Array } {
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
export function fetchFailed(why: string, offset: number): RadError {
  return new RadError('FETCH_FAILED', why, offset > 0 ? offset : undefined)
}

/** Whether `e` is a URL that could not be read (FETCH_FAILED): about the server or the network, not the file. */
export function isFetchFailure(e: unknown): boolean {
  return e instanceof RadError && e.code === 'FETCH_FAILED'
}

export function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined
  const seconds = Number(header)
  if (!Number.isFinite(seconds) || seconds < 0) return undefined
  return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS)
}

/** Origins this thread's Content-Security-Policy refused to connect to (securitypolicyviolation events). */
const policyRefused = new Set<string>()
let policyWatched = false

/** Starts listening for the policy's refusals, once, where there are such events (a page or a worker). */
export function watchPolicyRefusals(): void {
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
export async function refusedByPolicy(url: string): Promise<boolean> {
  if (!policyWatched) return false
  const origin = new URL(url).origin
  if (!policyRefused.has(origin)) await sleep(POLICY_EVENT_MS)
  return policyRefused.has(origin)
}
