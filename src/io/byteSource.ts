import type { IntegrityIssue } from '../rad/integrity'

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
 * or another source (Snappy unwrapping).
 */
export interface ByteSource {
  readonly size: number
  /** A name for messages (file name). */
  readonly name: string
  /**
   * Reads `length` bytes at `offset`, clipped at the end of the source. The
   * result is owned by the caller.
   */
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>
  /** Sources over a container (SnappyFramedSource): what the reads so far found damaged, in source order. */
  damage?(): SourceDamage[]
}

/** A byte array as a ByteSource (tests, samples). */
export class BytesSource implements ByteSource {
  readonly bytes: Uint8Array
  readonly name: string

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
