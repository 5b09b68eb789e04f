/**
 * The chunk and record layout (docs/format.md §4–5): the chunk header, the
 * per-file record layout, and the faults every record pass reports alike.
 *
 * Which pass reads a chunk's records depends on the layout. Each cell lists
 * the paths fastest first; a fast path that does not apply, or meets
 * anything unexpected, steps aside and the next one re-reads the chunk
 * (the exact paths are the only ones that say which record and byte).
 *
 * | layout (read + alignment tags) | e.g.                     | decode                 | check                     |
 * | ------------------------------ | ------------------------ | ---------------------- | ------------------------- |
 * | all u32, one alignment tag     | salmon/piscem scRNA      | in place, words, fixed | words (one-word), fixed   |
 * | all u32, more alignment tags   | piscem sc_rna_pos        | in place, words, fixed | words (any stride), fixed |
 * | fixed width, whole u32 words¹  | sc long-read (i32 score) | fixed                  | words (any stride), fixed |
 * | fixed width, other             | bulk/ATAC (u8), multi-bc | fixed                  | fixed                     |
 * | any string or array tag        | —                        | generic                | generic                   |
 *
 * Decode (chunk → columns; decodeChunk.ts picks, for the decode worker, the
 * CLI and the first rows):
 * - in place: decodeInPlace.ts, a plain chunk on a 4-byte boundary whose bytes
 *   the caller gives up (the decode worker's own read buffer);
 * - words: decodeWords.ts, the payload on a 4-byte boundary;
 * - fixed / generic: decodeExact.ts, the exact paths: a DataView walk when
 *   every tag is fixed-width, else a Cursor walk.
 *
 * Check (exact fill, reference ids, 2-bit widths §7.8; all in valueChecks.ts):
 * - words: scanWords (checkWords.ts), over whole blocks of clean chunks in the index walk
 *   (scanCleanRun, src/rad/checks/cleanRun.ts), or one chunk at a time through
 *   checkChunk (the checker worker, src/workers/recordChecks.ts, and the
 *   walk's careful path);
 * - fixed / generic: checkFixed (DataView) or checkGeneric (Cursor), through
 *   checkChunk.
 *
 * ¹ Records and alignments of whole words, the reference id a u32 at a word
 *   offset, and at most two 2-bit sequences, both u32 (valueChecks.ts
 *   wordLayout).
 */
import { RadError, fmtInt } from '../errors'
import { fixedStride, fixedWidth } from '../prelude/tags'
import { TYPE_ID } from '../types'
import type { NbytesConvention, Prelude, TagDesc } from '../types'

/** `[nbytes u32][nrec u32]` (docs/format.md §4.1). */
export const CHUNK_HEADER_BYTES = 8

/**
 * A little-endian u32 at bytes[i] without a DataView: the chunk walk reads two
 * per chunk, and a million-chunk file made the DataView allocations show.
 */
export function u32le(bytes: Uint8Array, i: number): number {
  return (
    ((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24)) >>> 0
  )
}

/** Bytes a chunk occupies on disk, header included, under a convention (§4.2). */
export function chunkSpan(nbytes: number, convention: NbytesConvention): number {
  return convention === 'header-inclusive' ? nbytes : nbytes + CHUNK_HEADER_BYTES
}

/** Whether this host stores numbers little-endian, as RAD does (every browser host does). */
export const LITTLE_ENDIAN_HOST = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1

/** `bytes` as u32 words (RAD's little-endian u32s) when the host is little-endian and they sit on a 4-byte boundary. */
export function alignedWords(bytes: Uint8Array): Uint32Array | undefined {
  if (!LITTLE_ENDIAN_HOST || bytes.byteOffset % 4 !== 0 || bytes.length % 4 !== 0) return undefined
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
}

/** The record layout precomputed from the descriptors (§5.2). */
export interface RecordLayout {
  readTags: readonly TagDesc[]
  alnTags: readonly TagDesc[]
  /** Σ widths of read tags, or -1 if any is variable-width. */
  readStride: number
  /** Σ widths of alignment tags, or -1 if any is variable-width. */
  alnStride: number
  /** Smallest possible record: naln + fixed read tags + the length prefix of each string/array. */
  minRecordBytes: number
  /** Every tag a u32 and at least one alignment tag: the word decodes apply (decodeWords.ts, decodeInPlace.ts). */
  allU32: boolean
}

/** Fewest bytes a value of this tag can take: a string its u16 length, an array its count. */
function minValueBytes(tag: TagDesc): number {
  const width = fixedWidth(tag.type)
  if (width > 0) return width
  if (tag.type.id === TYPE_ID.array) return fixedWidth({ id: tag.type.lengthType ?? TYPE_ID.u32 })
  return 2
}

const isU32 = (tag: TagDesc): boolean => tag.type.id === TYPE_ID.u32

export function recordLayout(prelude: Pick<Prelude, 'readTags' | 'alnTags'>): RecordLayout {
  const { readTags, alnTags } = prelude
  const readStride = fixedStride(readTags)
  let minRead = 0
  for (const tag of readTags) minRead += minValueBytes(tag)
  return {
    readTags,
    alnTags,
    readStride,
    alnStride: fixedStride(alnTags),
    minRecordBytes: 4 + (readStride >= 0 ? readStride : minRead),
    allU32: alnTags.length > 0 && readTags.every(isU32) && alnTags.every(isU32),
  }
}

/** Where the records of a chunk are, once decompressed if need be. */
export interface ChunkPayload {
  chunk: number
  /** Absolute offset of the chunk header (for messages). */
  offset: number
  nbytes: number
  nrec: number
  /** The record bytes. */
  bytes: Uint8Array
  /** Absolute offset of bytes[0] in the file, or of the compressed payload. */
  bytesOffset: number
  compressed: boolean
}

export function overrun(p: ChunkPayload, record: number, at: number): RadError {
  const where = p.compressed ? `byte ${fmtInt(at - p.bytesOffset)} of its decompressed payload` : `byte ${fmtInt(at)}`
  return new RadError(
    'CHUNK_OVERRUN',
    `chunk ${fmtInt(p.chunk)} (at byte ${fmtInt(p.offset)}, nbytes ${fmtInt(p.nbytes)}, nrec ${fmtInt(p.nrec)}): ` +
      `record ${fmtInt(record)} at ${where} runs past the end of the chunk's ${fmtInt(p.bytes.length)} record bytes`,
    p.compressed ? p.offset : at,
    p.chunk,
  )
}

export function underrun(p: ChunkPayload, consumed: number): RadError {
  const extra = p.bytes.length - consumed
  const at = p.bytesOffset + consumed
  return new RadError(
    'CHUNK_UNDERRUN',
    `chunk ${fmtInt(p.chunk)} (at byte ${fmtInt(p.offset)}): its ${fmtInt(p.nrec)} records end ${fmtInt(extra)} bytes before the chunk does ` +
      `(records fill ${fmtInt(consumed)} of ${fmtInt(p.bytes.length)} record bytes; an undeclared field?)`,
    p.compressed ? p.offset : at,
    p.chunk,
  )
}

/** Refuses to allocate for more records than the payload could possibly hold. */
export function checkRecordCount(p: ChunkPayload, layout: RecordLayout): void {
  if (p.nrec * layout.minRecordBytes > p.bytes.length) {
    throw new RadError(
      'CHUNK_OVERRUN',
      `chunk ${fmtInt(p.chunk)} at byte ${fmtInt(p.offset)} declares ${fmtInt(p.nrec)} records, but its ${fmtInt(p.bytes.length)} record bytes ` +
        `can hold at most ${fmtInt(Math.floor(p.bytes.length / layout.minRecordBytes))}`,
      p.offset,
      p.chunk,
    )
  }
}
