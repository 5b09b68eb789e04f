import { crc32c } from '../rad/decode/crc32c'
import { RadError, fmtInt } from '../rad/errors'
import { SIDECAR_HASH_BYTES, fingerprintKey, hashFingerprint } from '../rad/sidecar/sidecar'
import type { HashedFingerprint } from '../rad/sidecar/sidecar'
import type { ByteSource } from './byteSource'

/**
 * Bytes read at each end of the file for its fingerprint: two 4 KiB reads
 * cost about a millisecond in Chromium (one Blob read ~0.8 ms, decodeBatch.ts)
 * and cover the prelude and the last chunk header, where a rewrite, an append
 * or a truncation shows first.
 */
export const FINGERPRINT_BYTES = 4096

/** What a file looked like when it was opened: its size and the bytes at both ends. */
export interface FileFingerprint {
  size: number
  head: Uint8Array
  /** The last bytes, from `size - tail.length`. */
  tail: Uint8Array
}

/** Reads a source's fingerprint (two small reads). */
export async function takeFingerprint(source: ByteSource, signal?: AbortSignal): Promise<FileFingerprint> {
  const size = source.size
  const n = Math.min(FINGERPRINT_BYTES, size)
  const head = (await source.read(0, n, signal)).slice()
  const tail = (await source.read(size - n, n, signal)).slice()
  return { size, head, tail }
}

/**
 * The fingerprint a sidecar index names its file by (docs/sidecar.md): the
 * size and a CRC-32C of the first and last SIDECAR_HASH_BYTES, two reads.
 */
export async function takeHashedFingerprint(source: ByteSource, signal?: AbortSignal): Promise<HashedFingerprint> {
  const n = Math.min(SIDECAR_HASH_BYTES, source.size)
  const head = await source.read(0, n, signal)
  const tail = await source.read(source.size - n, n, signal)
  return hashFingerprint(source.size, head, tail)
}

/** Blocks of the content sample (contentSample): a few spread over the middle of the file. */
export const SAMPLE_BLOCKS = 16
export const SAMPLE_BLOCK_BYTES = 4096

/**
 * Where the content sample reads: SAMPLE_BLOCKS blocks spread evenly over the part of the file
 * between the two ends the sidecar fingerprint hashes (the whole of it when it is that small),
 * as `[start, length]`.
 */
export function sampleBlocks(size: number): [number, number][] {
  const from = Math.min(SIDECAR_HASH_BYTES, size)
  const to = Math.max(from, size - SIDECAR_HASH_BYTES)
  const middle = to - from
  if (middle === 0) return []
  if (middle <= SAMPLE_BLOCKS * SAMPLE_BLOCK_BYTES) return [[from, middle]]
  const step = (middle - SAMPLE_BLOCK_BYTES) / (SAMPLE_BLOCKS - 1)
  return Array.from({ length: SAMPLE_BLOCKS }, (_, i) => [from + Math.floor(i * step), SAMPLE_BLOCK_BYTES])
}

/**
 * A cheap sample of a file's content (ADR 0007): the CRC-32C of SAMPLE_BLOCKS blocks of 4 KiB
 * spread over its middle (sampleBlocks), in hex. The sidecar fingerprint hashes only the two
 * 64 KiB ends, and a file edited in place with its modification time restored keeps both: the
 * index cache's key adds this sample (ADR 0007), so an edit in a sampled block is seen. An edit
 * between the blocks is not: what the cache hands back is a claim the page does not call "Clean"
 * before it checks the records itself (docs/integrity.md). 16 reads of 4 KiB, ~13 ms in Chromium.
 */
export async function contentSample(source: ByteSource, signal?: AbortSignal): Promise<string> {
  const blocks = sampleBlocks(source.size)
  const all = new Uint8Array(blocks.reduce((n, [, length]) => n + length, 0))
  let at = 0
  // One after another, each copied at once: a source may hand out views of a buffer it reuses.
  for (const [start, length] of blocks) {
    all.set(await source.read(start, length, signal), at)
    at += length
  }
  return (crc32c(all) >>> 0).toString(16).padStart(8, '0')
}

/**
 * The content key of a file, `SIZE-HEADTAIL~SAMPLE`: its sidecar fingerprint (fingerprintKey)
 * and its content sample, as the index cache names a RAD file (ADR 0007) without the modification
 * time. Kept cells are keyed by their annotation files' content keys (src/rad/cells/cellsSection.ts):
 * the same bytes under any name, on any machine, give the same key; 2 × 64 KiB and 16 × 4 KiB
 * read, whatever the file's size.
 */
export async function contentKey(source: ByteSource, signal?: AbortSignal): Promise<string> {
  const hashed = await takeHashedFingerprint(source, signal)
  return `${fingerprintKey(hashed)}~${await contentSample(source, signal)}`
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The cheap re-check before a verdict is given (docs/integrity.md): reads both ends
 * again and compares them and the size with the fingerprint. Throws
 * FILE_CHANGED when anything differs or the file can no longer be read (a
 * browser fails reads of a File changed on disk, READ_FAILED).
 */
export async function confirmUnchanged(source: ByteSource, was: FileFingerprint, signal?: AbortSignal): Promise<void> {
  let now: FileFingerprint
  try {
    if (source.size !== was.size) {
      throw fileChanged(`its size is now ${fmtInt(source.size)} bytes, not ${fmtInt(was.size)}`)
    }
    // A remote file: the server's ETag and size (HttpSource); its reads come from a cache.
    await source.revalidate?.(signal)
    now = await takeFingerprint(source, signal)
  } catch (e) {
    if (e instanceof RadError && e.code === 'READ_FAILED') throw fileChanged(`it can no longer be read (${e.message})`)
    throw e
  }
  if (!sameBytes(now.head, was.head) || !sameBytes(now.tail, was.tail)) {
    throw fileChanged('its first or last bytes differ from those read when it was opened')
  }
}

/** The one error for a file that changed on disk after it was opened. */
export function fileChanged(why: string): RadError {
  return new RadError('FILE_CHANGED', `the file changed on disk after it was opened: ${why}`)
}

/** A failed read or a failed re-check: either means the file open is no longer the file on disk. */
export function isFileChange(e: RadError): boolean {
  return e.code === 'READ_FAILED' || e.code === 'FILE_CHANGED'
}
