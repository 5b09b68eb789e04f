/**
 * Why a URL read failed or stopped being the file it was (ADR 0005, "When a read fails"): the
 * words HttpSource gives the user, from what the failed requests and a probe or two can tell.
 */
import { fmtInt } from '../rad/errors'
import type { NetworkFailure } from './httpMessages'
import { TransientStatus, corsMessage, policyMessage, refusedByPolicy, unreachableMessage } from './httpMessages'
import type { RemoteVersion } from './httpWire'
import { baseHref } from './httpWire'

/** The last failure in words, after `tries` attempts. */
export function gaveUp(url: string, e: NetworkFailure | TransientStatus, tries: number): string {
  if (e instanceof TransientStatus) return `${e.message}${tries > 1 ? `, ${String(tries)} times` : ''}`
  if (!e.midBody) return unreachableMessage(url, e.message)
  return `network failure: the connection to ${new URL(url).host} broke off in the middle of an answer, ${String(tries)} times (${e.message})`
}

/**
 * Why the browser itself refused a request that got no answer: the page's own
 * Content-Security-Policy, or CORS. Undefined when neither: the server is down.
 */
export async function refusal(url: string, fetchFn: typeof fetch, stallMs: number): Promise<string | undefined> {
  if (await refusedByPolicy(url)) return policyMessage(url)
  if (await blockedByCors(url, fetchFn, stallMs)) return corsMessage(url)
  return undefined
}

/**
 * Whether a failed fetch was the browser withholding the answer (CORS): a
 * `no-cors` GET of the same URL succeeds (with an opaque answer) when the
 * server is up. Only in a page or worker of another origin; Node has no CORS.
 */
async function blockedByCors(url: string, fetchFn: typeof fetch, stallMs: number): Promise<boolean> {
  const here = baseHref()
  if (!here || new URL(url).origin === new URL(here).origin) return false
  try {
    await fetchFn(url, {
      mode: 'no-cors',
      headers: { Range: 'bytes=0-0' },
      referrerPolicy: 'no-referrer',
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.timeout(stallMs),
    })
    return true
  } catch {
    return false
  }
}

/** How the file's version changed between two answers, in words; undefined when it did not. */
export function versionChange(was: RemoteVersion, now: RemoteVersion): string | undefined {
  if (now.size !== was.size) return `its size is now ${fmtInt(now.size)} bytes, not ${fmtInt(was.size)}`
  if (was.etag !== undefined && now.etag !== undefined && now.etag !== was.etag) {
    return `its ETag is now ${now.etag}, not ${was.etag}`
  }
  if (was.lastModified !== undefined && now.lastModified !== undefined && now.lastModified !== was.lastModified) {
    return `it was modified at ${now.lastModified}`
  }
  return undefined
}
