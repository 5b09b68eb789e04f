import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeChunk, decodeChunkInPlace } from '../../src/rad/decodeChunk'
import { recordLayout } from '../../src/rad/chunk'
import { parsePrelude } from '../../src/rad/prelude'
import type { ChunkColumns, Prelude } from '../../src/rad/types'
import { SALMON_V3, SALMON_V3_SKETCH } from '../helpers/fixtures'
import { buildRad, tag } from '../helpers/radWriter'

// decodeChunkInPlace rearranges a chunk's own bytes into its columns; it must
// give exactly what decodeChunk gives, and leave a faulty chunk's bytes alone.

function plain(cols: ChunkColumns): number[][] {
  return [
    [cols.recordCount, cols.alignmentCount],
    Array.from(cols.alnStart),
    ...[...cols.readColumns, ...cols.alnColumns].map((c) => Array.from(c.values as ArrayLike<number>)),
  ]
}

function chunksOf(file: Uint8Array, prelude: Prelude): { offset: number; bytes: Uint8Array }[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const out: { offset: number; bytes: Uint8Array }[] = []
  let offset = prelude.firstChunkOffset
  for (let k = 0; k < prelude.numChunks; k++) {
    const nbytes = view.getUint32(offset, true)
    out.push({ offset, bytes: file.subarray(offset, offset + nbytes) })
    offset += nbytes
  }
  return out
}

/** A copy of `bytes` starting `misalign` bytes into a fresh buffer. */
function copyAt(bytes: Uint8Array, misalign = 0): Uint8Array {
  const out = new Uint8Array(bytes.length + misalign).subarray(misalign)
  out.set(bytes)
  return out
}

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
        const expected = plain(decodeChunk(bytes, offset, k, prelude, 'header-inclusive', layout))
        const own = copyAt(bytes)
        const cols = decodeChunkInPlace(own, offset, k, prelude, 'header-inclusive', layout)
        expect(plain(cols)).toEqual(expected)
        expect(cols.alnStart.buffer).toBe(own.buffer)
        for (const c of [...cols.readColumns, ...cols.alnColumns]) {
          expect((c.values as Uint32Array).buffer).toBe(own.buffer)
        }
        // Off a 4-byte boundary it cannot work in place: decodeChunk's result, the bytes untouched.
        const odd = copyAt(bytes, 1)
        expect(plain(decodeChunkInPlace(odd, offset, k, prelude, 'header-inclusive', layout))).toEqual(expected)
        expect(odd).toEqual(bytes)
      })
    })
  }

  it('handles any all-u32 layout (3 read tags, 2 alignment tags), empty records and an empty chunk', () => {
    const built = buildRad({
      refs: ['r0', 'r1', 'r2'],
      readTags: [tag('b0', 'u32'), tag('b1', 'u32'), tag('u', 'u32')],
      alnTags: [tag('compressed_ori_refid', 'u32'), tag('pos', 'u32')],
      chunks: [
        {
          records: [
            {
              read: [1, 2, 3],
              alns: [
                [0x80000001, 10],
                [2, 20],
              ],
            },
            { read: [4, 5, 6], alns: [] },
            { read: [7, 8, 0xffffffff], alns: [[0, 30]] },
          ],
        },
        { records: [] },
      ],
    })
    const prelude = parsePrelude(built.bytes, built.bytes.length)
    const [first, empty] = built.layout.chunks
    if (!first || !empty) throw new Error('two chunks expected')
    const own = copyAt(built.bytes.subarray(first.offset, first.offset + first.span))
    const cols = decodeChunkInPlace(own, first.offset, 0, prelude, 'header-inclusive')
    expect(plain(cols)).toEqual([
      [3, 3],
      [0, 2, 2, 3],
      [1, 4, 7],
      [2, 5, 8],
      [3, 6, 0xffffffff],
      [0x80000001, 2, 0],
      [10, 20, 30],
    ])
    expect((cols.alnColumns[1]?.values as Uint32Array).buffer).toBe(own.buffer)
    const none = copyAt(built.bytes.subarray(empty.offset, empty.offset + empty.span))
    expect(plain(decodeChunkInPlace(none, empty.offset, 1, prelude, 'header-inclusive'))).toEqual([
      [0, 0],
      [0],
      [],
      [],
      [],
      [],
      [],
    ])
  })

  it('reports a faulty chunk exactly as decodeChunk does, and leaves its bytes as they were', () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const prelude = parsePrelude(file, file.length)
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
      expect(() => decodeChunkInPlace(bad, offset, 0, prelude, 'header-inclusive')).toThrow(expected)
      expect(bad).toEqual(before)
    }
  })
})
