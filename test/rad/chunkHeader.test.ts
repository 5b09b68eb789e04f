/** Chunk header checks (§4.1): bounds from the prelude, every way a header can be wrong. */
import { describe, expect, it } from 'vitest'
import {
  MAX_CHUNK_BYTES,
  checkChunkHeader,
  chunkBounds,
  cutHeaderError,
  missingChunksError,
} from '../../src/rad/decode/chunkHeader'
import type { ChunkBounds } from '../../src/rad/decode/chunkHeader'
import { RadError } from '../../src/rad/errors'
import type { RadErrorCode } from '../../src/rad/errors'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { buildRad, tag } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'

/** Records of at least 4 (naln) + 8 (b, u) bytes. */
function spec(codec: boolean): RadSpec {
  return {
    refs: ['r0'],
    fileTags: codec ? [tag('chunk_codec', 'u8')] : [],
    fileValues: codec ? [2] : [],
    readTags: [tag('b', 'u32'), tag('u', 'u32')],
    alnTags: [tag('ref', 'u32')],
  }
}

function prelude(codec = false): ReturnType<typeof parsePrelude> {
  const { bytes } = buildRad(spec(codec))
  return parsePrelude(bytes, bytes.length)
}

function failure(bounds: ChunkBounds, nbytes: number, nrec: number, pos = 100): RadError {
  try {
    checkChunkHeader(bounds, 3, pos, nbytes, nrec)
  } catch (e) {
    if (e instanceof RadError) return e
    throw e
  }
  throw new Error('no error')
}

describe('chunkBounds', () => {
  it('adds the 8 header bytes to nbytes only when nbytes is payload-only (§4.2)', () => {
    expect(chunkBounds(prelude(), 'header-inclusive', 1000).headerExtra).toBe(0)
    expect(chunkBounds(prelude(), 'payload-only', 1000).headerExtra).toBe(8)
  })

  it('asks nothing of nrec when chunks are compressed (§6)', () => {
    expect(chunkBounds(prelude(), 'header-inclusive', 1000)).toEqual({
      fileSize: 1000,
      headerExtra: 0,
      minRecordBytes: 12,
    })
    expect(chunkBounds(prelude(true), 'header-inclusive', 1000).minRecordBytes).toBe(0)
  })
})

describe('checkChunkHeader', () => {
  const bounds = chunkBounds(prelude(), 'header-inclusive', 1000)

  it('returns the bytes on disk of a sane header, under both conventions', () => {
    expect(checkChunkHeader(bounds, 0, 100, 8 + 2 * 16, 2)).toBe(40)
    expect(checkChunkHeader(bounds, 0, 100, 8, 0)).toBe(8) // an empty chunk
    expect(checkChunkHeader({ ...bounds, headerExtra: 8 }, 0, 100, 32, 2)).toBe(40)
    expect(checkChunkHeader(bounds, 0, 960, 40, 2)).toBe(40) // ends exactly at the end of the file
  })

  const cases: [string, number, number, RadErrorCode, RegExp][] = [
    [
      'nbytes below the header',
      7,
      0,
      'BAD_CHUNK_HEADER',
      /chunk 3 at byte 100: nbytes is 7, but a chunk is at least its 8-byte header/,
    ],
    [
      'an absurd nbytes',
      MAX_CHUNK_BYTES + 1,
      1,
      'BAD_CHUNK_HEADER',
      /an absurd size for one chunk \(limit 1,073,741,824\)/,
    ],
    [
      'a chunk past the end of the file',
      1000,
      10,
      'TRUNCATED',
      /file ends inside chunk 3 at byte 100: it declares nbytes 1,000 \(10 records\) but only 900 bytes remain/,
    ],
    [
      'more records than the bytes hold',
      8 + 24,
      3,
      'BAD_CHUNK_HEADER',
      /nrec is 3, but its 24 record bytes can hold at most 2 records/,
    ],
  ]
  for (const [name, nbytes, nrec, code, message] of cases) {
    it(`throws on ${name}, naming the chunk and its offset`, () => {
      const e = failure(bounds, nbytes, nrec)
      expect(e.code).toBe(code)
      expect(e.message).toMatch(message)
      expect(e.offset).toBe(100)
      expect(e.chunk).toBe(3)
    })
  }

  it('does not judge nrec of compressed chunks', () => {
    const compressed = chunkBounds(prelude(true), 'header-inclusive', 1000)
    expect(checkChunkHeader(compressed, 0, 100, 8 + 10, 1000)).toBe(18)
  })
})

describe('errors at the end of the chunks', () => {
  it('a cut header names the bytes present', () => {
    const e = cutHeaderError(5, 995, 1000)
    expect(e).toMatchObject({ code: 'TRUNCATED', offset: 995, chunk: 5, part: 'chunk-header' })
    expect(e.message).toBe('file ends inside the header of chunk 5 at byte 995 (5 of 8 bytes present)')
  })

  it('a file cut at a chunk boundary names the chunks declared', () => {
    const e = missingChunksError(4, 10, 2000)
    expect(e).toMatchObject({ code: 'TRUNCATED', offset: 2000, chunk: 4, part: 'after-chunks' })
    expect(e.message).toMatch(/^file ends after 4 of the 10 chunks that num_chunks declares \(at byte 2,000\)/)
  })
})
