/**
 * Gunzip with the platform's DecompressionStream (browsers, workers, Node ≥ 18):
 * a gzipped permit list or t2g (docs/cells.md), recognised by its magic bytes.
 */
import { RadError } from '../rad/errors'
import { isGzip } from '../rad/cells/annotationSniff'
import type { NamedBytes } from '../rad/cells'
import { readBodyUpTo } from './httpWire'

/** The most a gzipped annotation file may unpack to (the CLI's bound: a 3.7M-barcode list is 63 MB). */
export const MAX_UNPACKED_BYTES = 1 << 30

/**
 * The bytes, gunzipped when they start with the gzip magic; as given otherwise. Read as a stream:
 * past `max` bytes it stops (a gzip bomb is refused before its memory is taken), and a damaged
 * stream is said to be one (the platform's own words were "Failed to fetch"). `name` is the file's.
 */
export async function gunzipIfGzip(
  bytes: Uint8Array<ArrayBuffer>,
  name = 'the file',
  max = MAX_UNPACKED_BYTES,
): Promise<Uint8Array> {
  if (!isGzip(bytes)) return bytes
  const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
  let out: Uint8Array | undefined
  try {
    out = await readBodyUpTo(new Response(inflated), max)
  } catch (e) {
    throw new RadError(
      'BAD_VALUE',
      `${name}: its gzip stream is damaged (${e instanceof Error ? e.message : String(e)})`,
    )
  }
  if (out) return out
  throw new RadError(
    'BAD_VALUE',
    `${name}: it unpacks to more than ${String(max >> 20)} MiB, more than any annotation file (a gzip bomb?)`,
  )
}

/** A small file read whole (an annotation file: docs/cells.md), gunzipped when it is gzip, whatever its name. */
export async function readSmallFile(file: File): Promise<NamedBytes> {
  const raw = new Uint8Array(await file.arrayBuffer())
  return { name: file.name, bytes: await gunzipIfGzip(raw, file.name) }
}
