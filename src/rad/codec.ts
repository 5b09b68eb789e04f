import { decompress as zstdDecompress } from 'fzstd'
import { decompressBlock } from 'lz4js'
import { RadError, fmtInt } from './errors'
import type { Codec } from './types'

/**
 * Largest decompressed chunk we agree to allocate. Real chunks are a few MB
 * (salmon flushes every ~5000 reads); a bigger claim is corruption, and
 * allocating it could crash the tab.
 */
export const MAX_DECOMPRESSED_CHUNK = 1 << 30
/** LZ4 cannot expand data by more than 255× (one literal run byte per 255). */
const LZ4_MAX_RATIO = 255

function decompressFailed(what: string, chunk: number, offset: number): RadError {
  return new RadError('DECOMPRESS_FAILED', `chunk ${fmtInt(chunk)} at byte ${fmtInt(offset)}: ${what}`, offset, chunk)
}

/** An LZ4 length: `n`, plus the following bytes while they are 255 (LZ4 block format). */
function lz4Length(src: Uint8Array, at: { s: number }, end: number, n: number): number {
  if (n !== 15) return n
  let b: number
  do {
    if (at.s >= end) return -1
    b = src[at.s++] ?? 0
    n += b
  } while (b === 255)
  return n
}

/**
 * Walks a raw LZ4 block's sequences without copying anything and returns the
 * size it decodes to, or -1 when a length, literal run or match offset points
 * outside the block or the output. The decoding itself is lz4js's; this check
 * comes first because lz4js does not bounds-check: it reads past the end of a
 * cut block as zeros and so turns damage into silently wrong records.
 */
export function lz4BlockSize(src: Uint8Array, start: number, end: number, limit: number): number {
  const at = { s: start }
  let d = 0
  while (at.s < end) {
    const token = src[at.s++] ?? 0
    const literals = lz4Length(src, at, end, token >>> 4)
    if (literals < 0 || at.s + literals > end) return -1
    at.s += literals
    d += literals
    if (at.s === end) return d <= limit ? d : -1 // the last sequence has literals only
    if (at.s + 2 > end) return -1
    const distance = (src[at.s] ?? 0) | ((src[at.s + 1] ?? 0) << 8)
    at.s += 2
    if (distance === 0 || distance > d) return -1
    const extra = lz4Length(src, at, end, token & 15)
    if (extra < 0) return -1
    d += extra + 4
    if (d > limit) return -1
  }
  return d
}

/** lz4 (§6): u32 LE uncompressed size, then a raw LZ4 block. */
function decodeLz4(payload: Uint8Array, chunk: number, offset: number): Uint8Array {
  if (payload.length < 4) throw decompressFailed('lz4 payload is shorter than its 4-byte size prefix', chunk, offset)
  const size = new DataView(payload.buffer, payload.byteOffset, 4).getUint32(0, true)
  const block = payload.length - 4
  if (size > MAX_DECOMPRESSED_CHUNK || size > block * LZ4_MAX_RATIO + 16) {
    throw decompressFailed(
      `lz4 size prefix claims ${fmtInt(size)} bytes from a ${fmtInt(block)}-byte block, which is impossible`,
      chunk,
      offset,
    )
  }
  const checked = lz4BlockSize(payload, 4, payload.length, size)
  if (checked < 0) throw decompressFailed('the lz4 block is corrupt', chunk, offset)
  if (checked !== size) {
    throw decompressFailed(
      `the lz4 block decodes to ${fmtInt(checked)} bytes, but its prefix says ${fmtInt(size)}`,
      chunk,
      offset,
    )
  }
  const out = new Uint8Array(size)
  const written = decompressBlock(payload, out, 4, block, 0)
  if (written !== size) {
    throw decompressFailed(
      `the lz4 block decoded to ${fmtInt(written)} bytes, but its prefix says ${fmtInt(size)}`,
      chunk,
      offset,
    )
  }
  return out
}

/** Frame_Content_Size from a zstd frame header, when present (RFC 8878 §3.1.1.1). */
function zstdContentSize(frame: Uint8Array): number | undefined {
  if (frame.length < 6) return undefined
  const fhd = frame[4] ?? 0
  const fcsFlag = fhd >> 6
  const singleSegment = (fhd >> 5) & 1
  const dictIdBytes = [0, 1, 2, 4][fhd & 3] ?? 0
  const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag] ?? 0
  if (fcsBytes === 0) return undefined
  const at = 5 + (singleSegment ? 0 : 1) + dictIdBytes
  if (at + fcsBytes > frame.length) return undefined
  let size = 0
  for (let i = fcsBytes - 1; i >= 0; i--) size = size * 256 + (frame[at + i] ?? 0)
  return fcsBytes === 2 ? size + 256 : size
}

function decodeZstd(payload: Uint8Array, chunk: number, offset: number): Uint8Array {
  const claimed = zstdContentSize(payload)
  if (claimed !== undefined && claimed > MAX_DECOMPRESSED_CHUNK) {
    throw decompressFailed(
      `zstd frame claims ${fmtInt(claimed)} decompressed bytes, more than any chunk holds`,
      chunk,
      offset,
    )
  }
  try {
    return zstdDecompress(payload)
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e)
    throw decompressFailed(`the zstd frame is corrupt (${detail})`, chunk, offset)
  }
}

/** Decompresses one chunk's payload (everything after its 8-byte header, §6). */
export function decompressChunk(codec: Codec, payload: Uint8Array, chunk: number, offset: number): Uint8Array {
  switch (codec) {
    case 'none':
      return payload
    case 'lz4':
      return decodeLz4(payload, chunk, offset)
    case 'zstd':
      return decodeZstd(payload, chunk, offset)
  }
}
