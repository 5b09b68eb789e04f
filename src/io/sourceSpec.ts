import { RadError } from '../rad/errors'
import { BlobSource } from './blobSource'
import type { ByteSource } from './byteSource'
import { HttpSource, urlFileName } from './httpSource'
import type { RemoteVersion } from './httpSource'

/**
 * What a session reads, as plain data that crosses to the workers: a File
 * (a cheap handle, docs/architecture.md §1) or a URL read by HTTP Range. A URL's
 * `version` is the one the index worker saw first: the decode workers read
 * against it, so that no worker ever mixes two versions of the file.
 */
export type SourceSpec =
  { kind: 'file'; file: Blob } | { kind: 'url'; url: string; version?: RemoteVersion; timeouts?: UrlTimeouts }

export type { RemoteVersion }

/**
 * How long a URL's reads wait (ADR 0005): a request that receives nothing for `stallMs` fails
 * ("the server stopped sending", STALL_MS in httpSource.ts), and opening waits at most
 * `sidecarMs` of silence for the `.rdx` beside the file (SIDECAR_WAIT_MS, sidecarBeside.ts).
 * Only browser tests shorten them, through `globalThis.radViewerTimeouts` set before the page
 * runs (e2e/urlFailures.spec.ts); the page address cannot.
 */
export interface UrlTimeouts {
  stallMs?: number
  sidecarMs?: number
}

/** The ByteSource a worker reads `spec` through. */
export async function openByteSource(spec: SourceSpec, signal?: AbortSignal): Promise<ByteSource> {
  if (spec.kind === 'file') return new BlobSource(spec.file)
  const stallMs = spec.timeouts?.stallMs
  const opts = { ...(spec.version ? { version: spec.version } : {}), ...(stallMs ? { stallMs } : {}) }
  return HttpSource.open(spec.url, opts, signal)
}

/** The name shown for `spec`: the file's name, or the URL's last path segment. */
export function sourceName(spec: SourceSpec): string {
  if (spec.kind === 'url') return urlFileName(spec.url)
  return 'name' in spec.file && typeof spec.file.name === 'string' ? spec.file.name : 'blob'
}

/** The size known before any read: a File's; 0 for a URL until its first answer. */
export function knownSize(spec: SourceSpec): number {
  return spec.kind === 'file' ? spec.file.size : (spec.version?.size ?? 0)
}

/** The version a URL source read (undefined for files): handed from the index worker to the decode workers. */
export function remoteVersionOf(source: ByteSource): RemoteVersion | undefined {
  return source instanceof HttpSource ? source.version : undefined
}

/**
 * A URL the user typed or put in `?url=`, made absolute against the page;
 * only http and https. Throws a RadError with a plain message otherwise.
 */
export function urlSpec(input: string, base: string): SourceSpec {
  let url: URL
  try {
    url = new URL(input.trim(), base)
  } catch {
    throw new RadError('READ_FAILED', `“${input}” is not a web address`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RadError('READ_FAILED', `only http:// and https:// addresses can be opened, not ${url.protocol}`)
  }
  const timeouts = testTimeouts()
  return { kind: 'url', url: url.href, ...(timeouts ? { timeouts } : {}) }
}

/** `globalThis.radViewerTimeouts`, when a browser test set it: positive numbers only (UrlTimeouts). */
function testTimeouts(): UrlTimeouts | undefined {
  const set = (globalThis as { radViewerTimeouts?: unknown }).radViewerTimeouts
  if (typeof set !== 'object' || set === null) return undefined
  const timeouts: UrlTimeouts = {}
  for (const key of ['stallMs', 'sidecarMs'] as const) {
    const ms = (set as Record<string, unknown>)[key]
    if (typeof ms === 'number' && ms > 0) timeouts[key] = ms
  }
  return timeouts
}
