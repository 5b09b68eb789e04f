import { uncompress } from 'snappyjs'
import { crc32c, maskCrc } from './crc32c'
import { RadError, fmtInt } from '../errors'

/**
 * The Snappy framing format (github.com/google/snappy framing_format.txt),
 * used by `alevin-fry collate --compress` for whole `.sz` files (docs/format.md
 * §6.1). A frame is `[type u8][length u24 LE][body]`.
 */
export const SNAPPY_FRAME_HEADER = 4
/** Uncompressed data in one frame never exceeds 64 KiB (framing spec §4.2). */
export const SNAPPY_MAX_FRAME_DATA = 65536

export const FRAME = { compressed: 0x00, uncompressed: 0x01, padding: 0xfe, streamId: 0xff } as const

export interface SnappyFrame {
  type: number
  /** Absolute offset of the frame header. */
  offset: number
  /** Body length (after the 4-byte header). */
  length: number
}

export function readFrameHeader(view: DataView, at: number, offset: number): SnappyFrame {
  const word = view.getUint32(at, true)
  return { type: word & 0xff, offset, length: word >>> 8 }
}

/** True for frames that carry stream data; throws for reserved unskippable types. */
export function frameHasData(frame: SnappyFrame): boolean {
  if (frame.type === FRAME.compressed || frame.type === FRAME.uncompressed) return true
  if (frame.type >= 0x80) return false
  throw new RadError(
    'BAD_SNAPPY',
    `Snappy stream: frame at byte ${fmtInt(frame.offset)} has reserved type 0x${frame.type.toString(16)}, which a reader must not skip`,
    frame.offset,
  )
}

/** Uncompressed length of a data frame, from its body's first bytes (varint for compressed frames). */
export function frameDataLength(frame: SnappyFrame, body: Uint8Array): number {
  const length = frame.type === FRAME.uncompressed ? frame.length - 4 : compressedLength(body)
  if (length === undefined || length < 0 || length > SNAPPY_MAX_FRAME_DATA) {
    throw new RadError(
      'BAD_SNAPPY',
      `Snappy stream: frame at byte ${fmtInt(frame.offset)} has a corrupt length`,
      frame.offset,
    )
  }
  return length
}

/** The varint uncompressed length after a compressed frame's 4-byte CRC. */
function compressedLength(body: Uint8Array): number | undefined {
  let result = 0
  let shift = 0
  for (let i = 4; i < Math.min(body.length, 9); i++) {
    const b = body[i] ?? 0
    result += (b & 0x7f) * 2 ** shift
    if (b < 0x80) return result
    shift += 7
  }
  return undefined
}

/**
 * Decodes a data frame's body (4-byte masked CRC, then data). The CRC is
 * checked apart (frameChecksum), so that a frame whose data fails it can still
 * be shown and reported rather than stop the reading.
 */
export function decodeFrame(frame: SnappyFrame, body: Uint8Array): Uint8Array {
  if (body.length < 4) {
    throw new RadError('BAD_SNAPPY', `Snappy stream: frame at byte ${fmtInt(frame.offset)} is too short`, frame.offset)
  }
  const data = body.subarray(4)
  if (frame.type === FRAME.uncompressed) return data
  try {
    return uncompress(data, SNAPPY_MAX_FRAME_DATA)
  } catch {
    throw new RadError(
      'BAD_SNAPPY',
      `Snappy stream: the compressed frame at byte ${fmtInt(frame.offset)} is corrupt`,
      frame.offset,
    )
  }
}

/** A data frame's stored and computed masked CRC-32C of its uncompressed data (framing spec §3). */
export interface FrameChecksum {
  stored: number
  computed: number
}

/** The checksum a data frame stores (its body's first 4 bytes, LE) against the one of its decoded data. */
export function frameChecksum(body: Uint8Array, data: Uint8Array): FrameChecksum {
  const stored = ((body[0] ?? 0) | ((body[1] ?? 0) << 8) | ((body[2] ?? 0) << 16) | ((body[3] ?? 0) << 24)) >>> 0
  return { stored, computed: maskCrc(crc32c(data)) }
}
