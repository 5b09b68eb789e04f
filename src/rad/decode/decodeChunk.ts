/**
 * One chunk from its on-disk bytes to columns (docs/format.md §4–6): the one
 * place that picks a decode path (the table is in chunk.ts).
 */
import { CHUNK_HEADER_BYTES, checkRecordCount, chunkSpan, recordLayout, u32le } from './chunk'
import type { ChunkPayload, RecordLayout } from './chunk'
import { chunkRecordCount } from './chunkHeader'
import { decompressChunk } from './codec'
import { decodeExact, measureRecords } from './decodeExact'
import { decodeRecordsInPlace } from './decodeInPlace'
import type { InPlaceScratch } from './decodeInPlace'
import { decodeWordsU32 } from './decodeWords'
import { RadError, fmtInt } from '../errors'
import type { ChunkColumns, NbytesConvention, Prelude } from '../types'

/** The record bytes of a whole on-disk chunk (header included), decompressed. */
export function chunkPayload(
  chunkBytes: Uint8Array,
  offset: number,
  chunk: number,
  codec: Prelude['codec'],
  convention: NbytesConvention,
): ChunkPayload {
  if (chunkBytes.length < CHUNK_HEADER_BYTES) throw new Error('internal: chunk bytes shorter than a header')
  const nbytes = u32le(chunkBytes, 0)
  const nrec = chunkRecordCount(chunkBytes)
  const span = chunkSpan(nbytes, convention)
  if (span < CHUNK_HEADER_BYTES || span > chunkBytes.length) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `chunk ${fmtInt(chunk)} at byte ${fmtInt(offset)} has nbytes ${fmtInt(nbytes)}, which does not fit the ${fmtInt(chunkBytes.length)} bytes given`,
      offset,
      chunk,
    )
  }
  const raw = chunkBytes.subarray(CHUNK_HEADER_BYTES, span)
  const compressed = codec !== 'none'
  const bytes = decompressChunk(codec, raw, chunk, offset)
  return { chunk, offset, nbytes, nrec, bytes, bytesOffset: offset + CHUNK_HEADER_BYTES, compressed }
}

/**
 * Decodes a chunk's (decompressed) record bytes into columns, checking that
 * the records fill the payload exactly (§5.4, on every chunk): the u32 word
 * path when it applies, else (and for every faulty chunk) the exact path.
 */
export function decodeRecords(p: ChunkPayload, layout: RecordLayout): ChunkColumns {
  checkRecordCount(p, layout)
  return decodeWordsU32(p, layout) ?? decodeExact(p, layout)
}

/**
 * Decodes one chunk given its on-disk bytes (docs/format.md §4–6): header,
 * optional decompression, records into columns, exact-fill check.
 */
export function decodeChunk(
  chunkBytes: Uint8Array,
  offset: number,
  chunk: number,
  prelude: Prelude,
  convention: NbytesConvention,
  layout: RecordLayout = recordLayout(prelude),
): ChunkColumns {
  return decodeRecords(chunkPayload(chunkBytes, offset, chunk, prelude.codec, convention), layout)
}

/**
 * decodeChunk for bytes the caller owns and gives up: a plain chunk of an
 * all-u32 layout is decoded by rearranging its own bytes into the columns
 * (decodeInPlace.ts), which then share `chunkBytes`' buffer; `scratch` is
 * the caller's, reused across chunks. Anything else, including every faulty
 * chunk (its bytes are left intact for the precise report), goes through
 * decodeChunk.
 */
export function decodeChunkInPlace(
  chunkBytes: Uint8Array,
  offset: number,
  chunk: number,
  prelude: Prelude,
  convention: NbytesConvention,
  layout: RecordLayout,
  scratch: InPlaceScratch,
): ChunkColumns {
  if (prelude.codec === 'none' && chunkBytes.length >= CHUNK_HEADER_BYTES) {
    const nbytes = u32le(chunkBytes, 0)
    const span = chunkSpan(nbytes, convention)
    if (span === chunkBytes.length) {
      const nrec = chunkRecordCount(chunkBytes)
      const cols = decodeRecordsInPlace(chunkBytes, { chunk, offset, nbytes, nrec }, layout, scratch)
      if (cols) return cols
    }
  }
  return decodeChunk(chunkBytes, offset, chunk, prelude, convention, layout)
}

/**
 * §4.2: decide whether `nbytes` counts the 8-byte header, from the first
 * chunk. `chunkBytes` starts at the chunk header and holds at least
 * `min(nbytes + 8, rest of file)` bytes. Header-inclusive (what every real
 * producer writes) wins whenever it fits; payload-only is chosen only when the
 * records fill exactly `nbytes` bytes after the header.
 */
export function detectConvention(chunkBytes: Uint8Array, offset: number, prelude: Prelude): NbytesConvention {
  const layout = recordLayout(prelude)
  const fits = (convention: NbytesConvention): boolean => {
    try {
      const p = chunkPayload(chunkBytes, offset, 0, prelude.codec, convention)
      return measureRecords(p, layout) === p.bytes.length
    } catch (e) {
      if (e instanceof RadError) return false
      throw e
    }
  }
  if (fits('header-inclusive')) return 'header-inclusive'
  if (fits('payload-only')) return 'payload-only'
  return 'header-inclusive'
}
