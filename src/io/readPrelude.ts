import { NeedMoreBytes } from '../rad/decode/cursor'
import { RadError, fmtInt } from '../rad/errors'
import { parsePrelude } from '../rad/prelude/prelude'
import { isSnappyFramed } from '../rad/prelude/containerSniff'
import type { Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'
import { SnappyFramedSource } from './snappySource'
import type { SnappyFrameTable } from './snappySource'

const FIRST_READ = 64 << 10
/** A prelude is MBs for a human transcriptome; beyond this it is garbage. */
export const MAX_PRELUDE_BYTES = 512 << 20

/**
 * Reads and parses the prelude: read 64 KiB, parse, and on "need more" read
 * twice as much, up to MAX_PRELUDE_BYTES (docs/architecture.md §3).
 */
export async function readPrelude(source: ByteSource, signal?: AbortSignal): Promise<Prelude> {
  let length = FIRST_READ
  for (;;) {
    const bytes = await source.read(0, length, signal)
    throwIfAborted(signal)
    try {
      return parsePrelude(bytes, source.size)
    } catch (e) {
      if (!(e instanceof NeedMoreBytes)) throw e
      length = Math.ceil(Math.max(length * 2, Math.min(e.until * 1.25, e.until + (64 << 20))))
      if (length > MAX_PRELUDE_BYTES && e.until > MAX_PRELUDE_BYTES) {
        throw new RadError(
          'BAD_HEADER',
          `the header would be larger than ${fmtInt(MAX_PRELUDE_BYTES)} bytes (it needs byte ${fmtInt(e.until)}); the reference count or a name length is corrupt`,
          0,
        )
      }
    }
  }
}

/** The file as RAD bytes: Snappy-framed `.sz` streams are unwrapped (docs/format.md §6.1). */
export interface OpenedSource {
  source: ByteSource
  /** 'snappy-framed' when the file was a whole-file Snappy stream. */
  container: 'none' | 'snappy-framed'
  /** Size of the file itself (differs from source.size for .sz). */
  fileSize: number
}

export async function openSource(file: ByteSource, signal?: AbortSignal): Promise<OpenedSource> {
  const head = await file.read(0, 16, signal)
  if (isSnappyFramed(head)) {
    const source = await SnappyFramedSource.open(file, signal)
    return { source, container: 'snappy-framed', fileSize: file.size }
  }
  return { source: file, container: 'none', fileSize: file.size }
}

/**
 * The RAD stream of a file already opened once (its container known): a .sz file is unwrapped,
 * from the frame table an earlier walk found when it came along, so offsets in the chunk index
 * are positions in the RAD stream. What the decode and export workers read.
 */
export async function radStreamOf(
  file: ByteSource,
  container: OpenedSource['container'],
  frames: SnappyFrameTable | undefined,
): Promise<ByteSource> {
  if (container !== 'snappy-framed') return file
  return frames ? SnappyFramedSource.fromTable(file, frames) : (await openSource(file)).source
}
