/**
 * An annotation file as the page reads it (docs/cells.md): a stream, gunzipped with the platform's
 * DecompressionStream (browsers, workers, Node ≥ 18) when it starts with the gzip magic, whatever
 * its name. Its first bytes are read ahead to tell its kind (annotationSniff.ts); the rest come as
 * the parser takes them (src/rad/cells/lineBlocks.ts), so a gzip bomb costs time, never its size in
 * memory (issue 36 §3).
 */
import { RadError } from '../rad/errors'
import { isGzip, SNIFF_BYTES } from '../rad/cells'
import type { AnnotationStream, NamedBytes } from '../rad/cells'

/** An annotation file opened: `bytes` are its first SNIFF_BYTES (gunzipped), `pieces` all of it, those first. */
export interface OpenedAnnotation extends NamedBytes, AnnotationStream {
  /** Stops reading (a file not taken for any kind, or when another file was refused). */
  cancel: () => void
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e))

function concat(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pieces) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/**
 * Opens an annotation file the user gave. What goes wrong reading it is said of this file, in one
 * line: it cannot be read, or its gzip stream is damaged (the platform's own words were "Failed to
 * fetch"); its size is bounded by the parser (MAX_ANNOTATION_BYTES), as it reads.
 */
export async function openAnnotation(file: File): Promise<OpenedAnnotation> {
  const { name } = file
  const gzip = isGzip(new Uint8Array(await file.slice(0, 2).arrayBuffer()))
  const raw = file.stream()
  const reader = (gzip ? raw.pipeThrough(new DecompressionStream('gzip')) : raw).getReader()
  const read = async (): Promise<Uint8Array | undefined> => {
    try {
      const { done, value } = await reader.read()
      return done ? undefined : value
    } catch (e) {
      throw new RadError(
        'BAD_VALUE',
        gzip ? `${name}: its gzip stream is damaged (${message(e)})` : `cannot read ${name}: ${message(e)}`,
      )
    }
  }
  const cancel = (): void => {
    reader.cancel().catch(() => undefined)
  }
  const head: Uint8Array[] = []
  let headBytes = 0
  let ended = false
  try {
    while (headBytes < SNIFF_BYTES) {
      const piece = await read()
      if (piece === undefined) {
        ended = true
        break
      }
      head.push(piece)
      headBytes += piece.length
    }
  } catch (e) {
    cancel()
    throw e
  }
  async function* pieces(): AsyncGenerator<Uint8Array> {
    try {
      yield* head
      head.length = 0
      for (let piece = ended ? undefined : await read(); piece !== undefined; piece = await read()) yield piece
    } finally {
      cancel()
    }
  }
  return { name, bytes: concat(head).subarray(0, SNIFF_BYTES), pieces: pieces(), cancel }
}
