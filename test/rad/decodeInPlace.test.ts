/** decodeChunkInPlace (decodeInPlace.ts): a chunk's own bytes rearranged into its columns. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { recordLayout } from '../../src/rad/decode/chunk'
import { decodeChunk, decodeChunkInPlace } from '../../src/rad/decode/decodeChunk'
import { InPlaceScratch } from '../../src/rad/decode/decodeInPlace'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { WIDE_U32_COLUMNS, chunksOf, columnArrays, copyAt, wideU32File } from '../helpers/chunkCopies'
import { SALMON_V3, SALMON_V3_SKETCH } from '../helpers/fixtures'

// decodeChunkInPlace must give exactly what decodeChunk gives, and leave a
// faulty chunk's bytes alone.

const scratch = new InPlaceScratch()

describe('decodeChunkInPlace', () => {
  for (const [name, path] of [
    ['salmon --rad', SALMON_V3],
    ['salmon --sketch', SALMON_V3_SKETCH],
  ] as const) {
    it(`gives decodeChunk's columns for every chunk of a real ${name} file, on the chunk's own buffer`, () => {
      const file = new Uint8Array(readFileSync(path))
      const prelude = parsePrelude(file, file.length)
      const layout = recordLayout(prelude)
      const chunks = chunksOf(file, prelude)
      expect(chunks.length).toBeGreaterThan(0)
      chunks.forEach(({ offset, bytes }, k) => {
        const expected = columnArrays(decodeChunk(bytes, offset, k, prelude, 'header-inclusive', layout))
        const own = copyAt(bytes)
        const cols = decodeChunkInPlace(own, offset, k, prelude, 'header-inclusive', layout, scratch)
        expect(columnArrays(cols)).toEqual(expected)
        expect(cols.alnStart.buffer).toBe(own.buffer)
        for (const c of [...cols.readColumns, ...cols.alnColumns]) {
          expect((c.values as Uint32Array).buffer).toBe(own.buffer)
        }
        // Off a 4-byte boundary it cannot work in place: decodeChunk's result, the bytes untouched.
        const odd = copyAt(bytes, 1)
        expect(columnArrays(decodeChunkInPlace(odd, offset, k, prelude, 'header-inclusive', layout, scratch))).toEqual(
          expected,
        )
        expect(odd).toEqual(bytes)
      })
    })
  }

  it('handles any all-u32 layout (3 read tags, 2 alignment tags), empty records and an empty chunk', () => {
    const built = wideU32File()
    const prelude = parsePrelude(built.bytes, built.bytes.length)
    const layout = recordLayout(prelude)
    built.layout.chunks.forEach((c, k) => {
      const own = copyAt(built.bytes.subarray(c.offset, c.offset + c.span))
      const cols = decodeChunkInPlace(own, c.offset, k, prelude, 'header-inclusive', layout, scratch)
      expect(columnArrays(cols)).toEqual(WIDE_U32_COLUMNS[k])
      expect(cols.alnStart.buffer).toBe(own.buffer)
    })
  })

  it('reports a faulty chunk exactly as decodeChunk does, and leaves its bytes as they were', () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const prelude = parsePrelude(file, file.length)
    const layout = recordLayout(prelude)
    const { offset, bytes } = chunksOf(file, prelude)[0] ?? { offset: 0, bytes: new Uint8Array() }
    const faults: ((b: Uint8Array) => void)[] = [
      // The first record's naln one too many, one too few, huge.
      (b) => {
        const view = new DataView(b.buffer, b.byteOffset)
        const naln = view.getUint32(8, true)
        view.setUint32(8, naln + 1, true)
      },
      (b) => {
        const view = new DataView(b.buffer, b.byteOffset)
        const naln = view.getUint32(8, true)
        if (naln > 0) view.setUint32(8, naln - 1, true)
        else view.setUint32(8, 1, true)
      },
      (b) => {
        new DataView(b.buffer, b.byteOffset).setUint32(8, 0xffffffff, true)
      },
      // nrec one more than the records present.
      (b) => {
        const view = new DataView(b.buffer, b.byteOffset)
        view.setUint32(4, view.getUint32(4, true) + 1, true)
      },
    ]
    for (const fault of faults) {
      const bad = copyAt(bytes)
      fault(bad)
      const before = bad.slice()
      let expected = ''
      try {
        decodeChunk(before.slice(), offset, 0, prelude, 'header-inclusive')
      } catch (e) {
        expected = e instanceof Error ? e.message : String(e)
      }
      expect(expected).not.toBe('')
      expect(() => decodeChunkInPlace(bad, offset, 0, prelude, 'header-inclusive', layout, scratch)).toThrow(expected)
      expect(bad).toEqual(before)
    }
  })
})

describe('InPlaceScratch', () => {
  it('hands out the same room while it is large enough, grows it, and drops a huge one', () => {
    const s = new InPlaceScratch()
    const small = s.words(10)
    expect(s.words(1 << 16)).toBe(small)
    const grown = s.words((1 << 16) + 1)
    expect(grown.length).toBe((1 << 16) + 1)
    expect(s.words(5)).toBe(grown)
    const huge = s.words((4 << 20) + 1)
    expect(huge.length).toBe((4 << 20) + 1)
    expect(s.words(5)).toBe(grown)
  })
})
