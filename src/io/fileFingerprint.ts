import { RadError, fmtInt } from '../rad/errors'
import { SIDECAR_HASH_BYTES, hashFingerprint } from '../rad/sidecar'
import type { HashedFingerprint } from '../rad/sidecar'
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
