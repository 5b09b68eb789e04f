import { CHUNK_HEADER_BYTES, recordLayout, u32le } from './chunk'
import { RadError, fmtInt } from '../errors'
import type { NbytesConvention, Prelude } from '../types'

/** Largest chunk we accept; salmon's are ~100 KB, collated ones a few MB. */
export const MAX_CHUNK_BYTES = 1 << 30

/** What a chunk header (§4.1) is checked against: the file, and what one record needs at least. */
export interface ChunkBounds {
  fileSize: number
  /** Added to nbytes to get the bytes on disk: 8 for payload-only nbytes (§4.2), else 0. */
  headerExtra: number
  /**
   * The fewest stored bytes a record takes (§5.2); 0 when chunks are
   * compressed (§6), whose stored size says nothing of nrec.
   */
  minRecordBytes: number
}

export function chunkBounds(prelude: Prelude, convention: NbytesConvention, fileSize: number): ChunkBounds {
  return {
    fileSize,
    headerExtra: convention === 'payload-only' ? CHUNK_HEADER_BYTES : 0,
    minRecordBytes: prelude.codec === 'none' ? recordLayout(prelude).minRecordBytes : 0,
  }
}

/**
 * `nrec`, the record count of the chunk whose header starts at `bytes[at]`: the
 * u32 (little-endian) at byte 4 of the header, after `nbytes` (§4.1). The same
 * for compressed chunks (§6), whose header is not compressed. Record numbers
 * count what every header declares, damaged chunks included (docs/integrity.md).
 */
export function chunkRecordCount(bytes: Uint8Array, at = 0): number {
  return u32le(bytes, at + 4)
}

function chunkAt(k: number, pos: number): string {
  return `chunk ${fmtInt(k)} at byte ${fmtInt(pos)}`
}

/**
 * Sanity checks on chunk k's header, at byte `pos`, before trusting it (§4.1):
 * it covers at least itself, at most MAX_CHUNK_BYTES, ends inside the file,
 * and has room for nrec records. Returns the chunk's bytes on disk, header
 * included; throws a RadError naming the chunk otherwise.
 */
export function checkChunkHeader(bounds: ChunkBounds, k: number, pos: number, nbytes: number, nrec: number): number {
  const span = nbytes + bounds.headerExtra
  const records = span - CHUNK_HEADER_BYTES
  if (records < 0) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${chunkAt(k, pos)}: nbytes is ${fmtInt(nbytes)}, but a chunk is at least its 8-byte header`,
      pos,
      k,
    )
  }
  if (span > MAX_CHUNK_BYTES) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${chunkAt(k, pos)}: nbytes is ${fmtInt(nbytes)}, an absurd size for one chunk (limit ${fmtInt(MAX_CHUNK_BYTES)})`,
      pos,
      k,
    )
  }
  if (pos + span > bounds.fileSize) {
    throw new RadError(
      'TRUNCATED',
      `file ends inside ${chunkAt(k, pos)}: it declares nbytes ${fmtInt(nbytes)} (${fmtInt(nrec)} records) but only ${fmtInt(bounds.fileSize - pos)} bytes remain`,
      pos,
      k,
    )
  }
  if (nrec * bounds.minRecordBytes > records) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${chunkAt(k, pos)}: nrec is ${fmtInt(nrec)}, but its ${fmtInt(records)} record bytes can hold at most ${fmtInt(Math.floor(records / bounds.minRecordBytes))} records`,
      pos,
      k,
    )
  }
  return span
}

/** The file ends inside chunk k's 8-byte header, at byte `pos` (§4.1). */
export function cutHeaderError(k: number, pos: number, fileSize: number): RadError {
  return new RadError(
    'TRUNCATED',
    `file ends inside the header of chunk ${fmtInt(k)} at byte ${fmtInt(pos)} (${fmtInt(fileSize - pos)} of 8 bytes present)`,
    pos,
    k,
    'chunk-header',
  )
}

/** The file ends exactly after chunk k-1, but num_chunks declares more (§1.4). */
export function missingChunksError(k: number, numChunks: number, pos: number): RadError {
  return new RadError(
    'TRUNCATED',
    `file ends after ${fmtInt(k)} of the ${fmtInt(numChunks)} chunks that num_chunks declares (at byte ${fmtInt(pos)}): ` +
      'the file was cut at a chunk boundary, or num_chunks is wrong',
    pos,
    k,
    'after-chunks',
  )
}
