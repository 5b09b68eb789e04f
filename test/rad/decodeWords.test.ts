/** decodeWordsU32 (decodeWords.ts): the u32 word decode gives the exact path's columns, or steps aside. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { recordLayout } from '../../src/rad/decode/chunk'
import { chunkPayload } from '../../src/rad/decode/decodeChunk'
import { decodeExact } from '../../src/rad/decode/decodeExact'
import { decodeWordsU32 } from '../../src/rad/decode/decodeWords'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import type { ChunkPayload } from '../../src/rad/decode/chunk'
import type { Prelude } from '../../src/rad/types'
import { WIDE_U32_COLUMNS, chunksOf, columnArrays, copyAt, wideU32File } from '../helpers/chunkCopies'
import { SALMON_V3 } from '../helpers/fixtures'
import { buildRad, tag } from '../helpers/radWriter'

function payloadOf(prelude: Prelude, offset: number, bytes: Uint8Array, k: number): ChunkPayload {
  return chunkPayload(bytes, offset, k, prelude.codec, 'header-inclusive')
}

describe('decodeWordsU32', () => {
  it('gives the exact path’s columns for every chunk of a real salmon file (the scRNA loop)', () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const prelude = parsePrelude(file, file.length)
    const layout = recordLayout(prelude)
    const chunks = chunksOf(file, prelude)
    expect(chunks.length).toBeGreaterThan(0)
    chunks.forEach(({ offset, bytes }, k) => {
      const fast = decodeWordsU32(payloadOf(prelude, offset, copyAt(bytes), k), layout)
      expect(fast).toBeDefined()
      // Off a 4-byte boundary the exact path decodes the same bytes.
      const exact = decodeExact(payloadOf(prelude, offset, copyAt(bytes, 1), k), layout)
      expect(columnArrays(fast!)).toEqual(columnArrays(exact))
    })
  })

  it('steps aside off a 4-byte boundary', () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const prelude = parsePrelude(file, file.length)
    const [first] = chunksOf(file, prelude)
    for (const misalign of [1, 2, 3]) {
      const p = payloadOf(prelude, first!.offset, copyAt(first!.bytes, misalign), 0)
      expect(decodeWordsU32(p, recordLayout(prelude))).toBeUndefined()
    }
  })

  it('fills 3 read tags and 2 alignment tags (the general word loop), empty records and an empty chunk', () => {
    const built = wideU32File()
    const prelude = parsePrelude(built.bytes, built.bytes.length)
    const layout = recordLayout(prelude)
    built.layout.chunks.forEach((c, k) => {
      const p = payloadOf(prelude, c.offset, copyAt(built.bytes.subarray(c.offset, c.offset + c.span)), k)
      expect(columnArrays(decodeWordsU32(p, layout)!)).toEqual(WIDE_U32_COLUMNS[k])
    })
  })

  it('steps aside when the words do not add up, so the exact path can say why', () => {
    const built = wideU32File()
    const prelude = parsePrelude(built.bytes, built.bytes.length)
    const layout = recordLayout(prelude)
    const c = built.layout.chunks[0]!
    const bytes = copyAt(built.bytes.subarray(c.offset, c.offset + c.span))
    // Record 0 claims a third alignment: the records after it are read askew and overrun the chunk.
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(8, 3, true)
    const p = payloadOf(prelude, c.offset, bytes, 0)
    expect(decodeWordsU32(p, layout)).toBeUndefined()
    expect(() => decodeExact(p, layout)).toThrow(/record 1 at byte [\d,]+ runs past the end/)
  })

  it('does not apply to a layout with a tag other than u32', () => {
    const built = buildRad({
      refs: ['r0'],
      readTags: [tag('b', 'u32'), tag('u', 'u64')],
      alnTags: [tag('ref', 'u32')],
      chunks: [{ records: [{ read: [1, 2n], alns: [[0]] }] }],
    })
    const prelude = parsePrelude(built.bytes, built.bytes.length)
    const c = built.layout.chunks[0]!
    const p = payloadOf(prelude, c.offset, copyAt(built.bytes.subarray(c.offset, c.offset + c.span)), 0)
    expect(recordLayout(prelude).allU32).toBe(false)
    expect(decodeWordsU32(p, recordLayout(prelude))).toBeUndefined()
  })
})
