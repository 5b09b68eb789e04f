import type { IntegrityIssue } from '../rad/checks/integrity'

/** A problem a source found in its container while reading: a Snappy frame whose checksum fails. */
export interface SourceDamage {
  issue: IntegrityIssue
  /** [start, end): the bytes of the source it concerns. */
  start: number
  end: number
}

/**
 * The only I/O the app knows: a size and positioned reads. Implementations
 * wrap a Blob/File (browser), a file descriptor (Node), a byte array (tests)
 * or another source (Snappy unwrapping); an HTTP Range source fits the same
 * shape (ADR 0001: nothing above `io/` knows what the bytes come from).
 *
 * Why not generic-filehandle2's `read(length, position, {signal})`,
 * `stat()` and `close()`: every caller here thinks in file positions first,
 * as `Blob.slice(start, end)` and the index do, so `read(offset, length)`
 * reads in that order; the size is known once a source is opened (Blob.size,
 * fstat at open, the Snappy frame walk, an HTTP source's first response), so
 * a synchronous `size` saves every caller an await; and only sources that
 * hold a resource (NodeFileSource's descriptor) need a `close()`, which they
 * have beside this interface.
 */
export interface ByteSource {
  readonly size: number
  /** A name for messages (file name). */
  readonly name: string
  /**
   * Reads `length` bytes at `offset`, clipped at the end of the source. The
   * result may be a view on memory the source keeps (a cache, a test's
   * array): read it, never write to it, unless `ownedReads` says so.
   */
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>
  /**
   * True when every `read` returns fresh memory nobody else holds: the
   * caller may then overwrite it (decodeChunkInPlace rearranges a chunk's
   * own bytes into its columns).
   */
  readonly ownedReads?: boolean
  /**
   * A read into the caller's memory (a BYOB read), clipped like `read`: the
   * bytes land in `into` from its byte 0 and come back as a view on it (or
   * on the buffer `into` was moved to, as a byte stream does). Undefined when
   * this source cannot read into `into` now, e.g. `into` is smaller than the
   * clipped range; `into` is then untouched and `read` is the way. Sources
   * whose every read costs fresh memory offer it: in Chromium, faulting in a
   * fresh buffer costs a decode worker as much as the read itself.
   */
  readInto?(offset: number, length: number, into: ArrayBuffer, signal?: AbortSignal): Promise<Uint8Array | undefined>
  /** Sources over a container (SnappyFramedSource): what the reads so far found damaged, in source order. */
  damage?(): SourceDamage[]
  /**
   * Sources that cache what they read (HttpSource): asks the origin whether
   * the bytes are still the version read, and throws FILE_CHANGED if not.
   * confirmUnchanged calls it before comparing a fingerprint.
   */
  revalidate?(signal?: AbortSignal): Promise<void>
}

/** A byte array as a ByteSource (tests, samples): each read is a copy, so the caller owns it. */
export class BytesSource implements ByteSource {
  readonly bytes: Uint8Array
  readonly name: string
  readonly ownedReads = true

  constructor(bytes: Uint8Array, name = 'bytes') {
    this.bytes = bytes
    this.name = name
  }

  get size(): number {
    return this.bytes.length
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(this.size, offset + length)
    return Promise.resolve(this.bytes.slice(Math.min(offset, end), end))
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw signal.reason instanceof Error ? signal.reason : new DOMException('cancelled', 'AbortError')
  }
}
