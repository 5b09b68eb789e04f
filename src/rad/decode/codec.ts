import { decompress as zstdDecompress } from 'fzstd'
import { decompressBlock } from 'lz4js'
import { RadError, fmtInt } from '../errors'
import type { Codec } from '../types'

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

/** Block_Maximum_Size: no zstd block regenerates more (RFC 8878 §3.1.1.2.4). */
const ZSTD_MAX_BLOCK = 128 << 10
/**
 * Largest window a frame without a content size may ask for (fzstd allocates
 * it whole, up front). libzstd's decoders refuse more by default too
 * (ZSTD_WINDOWLOG_LIMIT_DEFAULT = 27), so no real chunk needs it.
 */
const ZSTD_MAX_WINDOW = 1 << 27

function u32At(src: Uint8Array, at: number): number {
  return ((src[at] ?? 0) | ((src[at + 1] ?? 0) << 8) | ((src[at + 2] ?? 0) << 16) | ((src[at + 3] ?? 0) << 24)) >>> 0
}

/**
 * Walks a zstd payload's frame and block headers without decoding anything
 * (RFC 8878 §3.1) and returns the most it can decode to, and the largest
 * buffer fzstd will allocate for one of its frames — the content size when the
 * header gives one, else the window size — or why it is corrupt. fzstd trusts
 * both header fields: a 9-byte frame could otherwise make it allocate 2 GiB.
 */
export function zstdBounds(src: Uint8Array): { output: number; alloc: number } | string {
  const end = src.length
  const cut = 'the zstd frame is corrupt (it is cut short)'
  let at = 0
  let output = 0
  let alloc = 0
  while (at < end) {
    if (at + 4 > end) return cut
    const magic = u32At(src, at)
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      // A skippable frame: [magic][u32 size][size bytes].
      if (at + 8 > end) return cut
      at += 8 + u32At(src, at + 4)
      if (at > end) return cut
      continue
    }
    if (magic !== 0xfd2fb528) return 'the zstd frame is corrupt (no zstd frame magic number)'
    if (at + 5 > end) return cut
    const fhd = src[at + 4] ?? 0
    if ((fhd & 8) !== 0) return 'the zstd frame is corrupt (a reserved header bit is set)'
    const single = (fhd >> 5) & 1
    let p = at + 5
    let window = 0
    if (!single) {
      if (p >= end) return cut
      const wd = src[p++] ?? 0
      const base = 2 ** (10 + (wd >> 3))
      window = base + (base / 8) * (wd & 7)
    }
    p += [0, 1, 2, 4][fhd & 3] ?? 0
    const sizeBytes = [single, 2, 4, 8][fhd >> 6] ?? 0
    if (p + sizeBytes > end) return cut
    let size = 0
    for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + (src[p + i] ?? 0)
    if (sizeBytes === 2) size += 256
    p += sizeBytes
    if (single) window = size
    let blocks = 0
    for (let last = 0; !last;) {
      if (p + 3 > end) return cut
      const h = (src[p] ?? 0) | ((src[p + 1] ?? 0) << 8) | ((src[p + 2] ?? 0) << 16)
      last = h & 1
      const type = (h >> 1) & 3
      const blockSize = h >>> 3
      p += 3
      if (type === 3) return 'the zstd frame is corrupt (a reserved block type)'
      if (type !== 2 && blockSize > Math.min(ZSTD_MAX_BLOCK, window || ZSTD_MAX_BLOCK)) {
        return 'the zstd frame is corrupt (a block larger than the format allows)'
      }
      // Raw: blockSize bytes stored; RLE: one byte repeated blockSize times; compressed: blockSize stored.
      blocks += type === 2 ? Math.min(ZSTD_MAX_BLOCK, window || ZSTD_MAX_BLOCK) : blockSize
      p += type === 1 ? 1 : blockSize
      if (p > end) return cut
    }
    if ((fhd >> 2) & 1) p += 4 // content checksum
    if (p > end) return cut
    if (sizeBytes > 0 && size > blocks) {
      return `zstd frame claims ${fmtInt(size)} decompressed bytes, but its blocks can hold at most ${fmtInt(blocks)}`
    }
    output += sizeBytes > 0 ? size : blocks
    alloc = Math.max(alloc, sizeBytes > 0 && size > 0 ? size : window)
    at = p
  }
  return { output, alloc }
}

/**
 * The content of a payload that is one zstd frame holding one stored (Raw)
 * block, without a dictionary or checksum — a view on the payload, nothing
 * to decode (RFC 8878 §3.1.1.2.2: a Raw block is its content as is); undefined
 * for any other payload. zstd stores a block that compression would not
 * shrink: 63% of the ~50-byte chunks of a collated file (bench/results.md).
 * Called after zstdBounds accepted the payload.
 */
export function storedZstdBlock(src: Uint8Array): Uint8Array | undefined {
  if (src.length < 9 || u32At(src, 0) !== 0xfd2fb528) return undefined
  const fhd = src[4] ?? 0
  if ((fhd & 0b111) !== 0) return undefined // a dictionary id, or a content checksum to verify
  const single = (fhd >> 5) & 1
  let p = single ? 5 : 6
  const sizeBytes = [single, 2, 4, 8][fhd >> 6] ?? 0
  let size = 0
  for (let i = sizeBytes - 1; i >= 0; i--) size = size * 256 + (src[p + i] ?? 0)
  if (sizeBytes === 2) size += 256
  p += sizeBytes
  if (p + 3 > src.length) return undefined
  const h = (src[p] ?? 0) | ((src[p + 1] ?? 0) << 8) | ((src[p + 2] ?? 0) << 16)
  const blockSize = h >>> 3
  // The last block (bit 0), Raw (type 0 in bits 1–2), and the payload's end.
  if ((h & 0b111) !== 1 || p + 3 + blockSize !== src.length) return undefined
  if (sizeBytes > 0 && size !== blockSize) return undefined
  return src.subarray(p + 3, src.length)
}

/**
 * A faster zstd decoder put in place of fzstd (io/codecWasm.ts, ADR 0010): the
 * frame's bytes, or undefined when it could not decode them — fzstd then
 * decodes them again and gives its verdict, so damaged frames read as before.
 */
export type ZstdDecoder = (payload: Uint8Array, bound: number) => Uint8Array | undefined
let fastZstd: ZstdDecoder | undefined
/**
 * Largest output handed to the fast decoder: its wasm memory grows to the
 * largest frame and never shrinks. Real chunks are a few MB (salmon flushes
 * every ~5000 reads); fzstd decodes anything bigger.
 */
const FAST_ZSTD_MAX_OUTPUT = 32 << 20

/** Decodes zstd chunks with `decoder` from now on (undefined: fzstd again). Called once per thread at start-up. */
export function installZstdDecoder(decoder: ZstdDecoder | undefined): void {
  fastZstd = decoder
}

function decodeZstd(payload: Uint8Array, chunk: number, offset: number): Uint8Array {
  const bounds = zstdBounds(payload)
  if (typeof bounds === 'string') throw decompressFailed(bounds, chunk, offset)
  if (bounds.output > MAX_DECOMPRESSED_CHUNK) {
    throw decompressFailed(
      `zstd frame claims ${fmtInt(bounds.output)} decompressed bytes, more than any chunk holds`,
      chunk,
      offset,
    )
  }
  if (bounds.alloc > Math.max(bounds.output, ZSTD_MAX_WINDOW)) {
    throw decompressFailed(
      `the zstd frame asks for a ${fmtInt(bounds.alloc)}-byte window, more than a decoder allows (${fmtInt(ZSTD_MAX_WINDOW)})`,
      chunk,
      offset,
    )
  }
  const stored = storedZstdBlock(payload)
  if (stored) return stored
  if (fastZstd && bounds.output > 0 && bounds.output <= FAST_ZSTD_MAX_OUTPUT) {
    const decoded = fastZstd(payload, bounds.output)
    if (decoded) return decoded
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
    case 'unknown':
      throw new RadError(
        'BAD_CODEC',
        `chunk ${fmtInt(chunk)} at byte ${fmtInt(offset)} is compressed with a codec this reader does not know (file tag chunk_codec, docs/format.md §6); its records cannot be decoded`,
        offset,
        chunk,
      )
  }
}
