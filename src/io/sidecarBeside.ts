/**
 * The `.rdx` sidecar beside a URL (docs/sidecar.md): opening
 * `https://host/runs/map.rad` also GETs `https://host/runs/map.rad.rdx`, once,
 * whole and without a Range (a sidecar is small: 24 bytes per chunk). No
 * sidecar there — a 404, any other status, a CORS refusal, a network error,
 * a body too large for one, an HTML page (a host's fallback for unknown paths), a server that
 * sends nothing for SIDECAR_WAIT_MS —
 * means only that the file is scanned, and nobody is told. A sidecar found is
 * checked against the file like a dropped one (knownIndex.ts).
 */
import { BlobSource } from './blobSource'
import { BytesSource } from './byteSource'
import type { ByteSource } from './byteSource'
import { StallWatch, readBodyUpTo, urlFileName } from './httpSource'
import type { SourceSpec } from './sourceSpec'

/**
 * Opening waits for the sidecar (ADR 0005): a request that receives nothing for 3 s (no
 * answer, or a pause in its body) is given up and the file is scanned. A sidecar is small
 * (24 bytes a chunk), so a server that answers at all sends it well within this.
 */
export const SIDECAR_WAIT_MS = 3_000

/** A sidecar larger than this is not one (24 bytes per chunk: ten million chunks). */
export const MAX_SIDECAR_BYTES = 256 << 20

/** The sidecar's address: `.rdx` added to the path; the query (a token, a signature) kept, the fragment dropped. */
export function sidecarUrlOf(url: string): string {
  const u = new URL(url)
  u.pathname += '.rdx'
  u.hash = ''
  return u.href
}

/** The bytes of the sidecar beside `url`, or undefined when there is none to be had (in time). */
export async function fetchSidecarBeside(
  url: string,
  signal?: AbortSignal,
  waitMs = SIDECAR_WAIT_MS,
): Promise<Uint8Array | undefined> {
  const watch = new StallWatch(waitMs, signal)
  try {
    const init: RequestInit = {
      referrerPolicy: 'no-referrer',
      credentials: 'omit',
      cache: 'no-store',
      signal: watch.signal,
    }
    const res = await fetch(sidecarUrlOf(url), init)
    watch.arm()
    // A static host that answers every unknown path with its index.html (vite preview, many
    // single-page hosts) has no sidecar there.
    if (res.status !== 200 || isHtml(res)) {
      await res.body?.cancel()
      return undefined
    }
    // Larger than any sidecar: not one (undefined, and the body is not read further).
    return await readBodyUpTo(res, MAX_SIDECAR_BYTES, watch.signal, () => {
      watch.arm()
    })
  } catch {
    return undefined
  } finally {
    watch.stop()
  }
}

function isHtml(res: Response): boolean {
  return /^\s*text\/html\b/i.test(res.headers.get('Content-Type') ?? '')
}

/**
 * The sidecar a session opens `spec` with: the one dropped with the file, or
 * for a URL the one beside it on the server (fetched while the file's first
 * bytes are), or none.
 */
export async function sidecarOf(
  spec: SourceSpec,
  dropped: Blob | undefined,
  signal?: AbortSignal,
): Promise<ByteSource | undefined> {
  if (dropped) return new BlobSource(dropped)
  if (spec.kind !== 'url') return undefined
  const bytes = await fetchSidecarBeside(spec.url, signal, spec.timeouts?.sidecarMs)
  return bytes && new BytesSource(bytes, `${urlFileName(spec.url)}.rdx`)
}
