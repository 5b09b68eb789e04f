/**
 * Gunzip with the platform's DecompressionStream (browsers, workers, Node ≥ 18):
 * a gzipped permit list or t2g (docs/cells.md), recognised by its magic bytes.
 */
import { isGzip } from '../rad/cells/sniff'
import type { NamedBytes } from '../rad/cells'

/** The bytes, gunzipped when they start with the gzip magic; as given otherwise. */
export async function gunzipIfGzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  if (!isGzip(bytes)) return bytes
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** A small file read whole (an annotation file: docs/cells.md), gunzipped when it is gzip, whatever its name. */
export async function readSmallFile(file: File): Promise<NamedBytes> {
  const raw = new Uint8Array(await file.arrayBuffer())
  return { name: file.name, bytes: await gunzipIfGzip(raw) }
}
