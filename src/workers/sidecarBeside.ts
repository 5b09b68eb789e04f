/**
 * The `.rdx` sidecar beside a URL (issue 13 §3, docs/sidecar.md): opening
 * `https://host/runs/map.rad` also GETs `https://host/runs/map.rad.rdx`, once,
 * whole and without a Range (a sidecar is small: 24 bytes per chunk). No
 * sidecar there — a 404, any other status, a CORS refusal, a network error,
 * a body too large for one —
 * means only that the file is scanned, and nobody is told. A sidecar found is
 * checked against the file like a dropped one (knownIndex.ts).
 */
import { BlobSource } from '../io/blobSource'
import { BytesSource } from '../io/byteSource'
import type { ByteSource } from '../io/byteSource'
import { readBodyUpTo, urlFileName } from '../io/httpSource'
import type { SourceSpec } from '../io/sourceSpec'
import { MAX_SIDECAR_BYTES } from './knownIndex'

/** The sidecar's address: `.rdx` added to the path; the query (a token, a signature) kept, the fragment dropped. */
export function sidecarUrlOf(url: string): string {
  const u = new URL(url)
  u.pathname += '.rdx'
  u.hash = ''
  return u.href
}

/** The bytes of the sidecar beside `url`, or undefined when there is none to be had. */
export async function fetchSidecarBeside(url: string, signal?: AbortSignal): Promise<Uint8Array | undefined> {
  try {
    const init: RequestInit = { referrerPolicy: 'no-referrer', credentials: 'omit', cache: 'no-store' }
    if (signal) init.signal = signal
    const res = await fetch(sidecarUrlOf(url), init)
    if (res.status !== 200) {
      await res.body?.cancel()
      return undefined
    }
    // Larger than any sidecar: not one (undefined, and the body is not read further).
    return await readBodyUpTo(res, MAX_SIDECAR_BYTES, signal)
  } catch {
    return undefined
  }
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
  const bytes = await fetchSidecarBeside(spec.url, signal)
  return bytes && new BytesSource(bytes, `${urlFileName(spec.url)}.rdx`)
}
