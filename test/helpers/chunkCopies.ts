/**
 * Chunk bytes for the decode and check path tests (the table in
 * src/rad/decode/chunk.ts): each chunk of a file copied on or off a 4-byte boundary
 * (the word paths apply only on one), and an all-u32 layout beyond the scRNA
 * shape, for the general word loops.
 */
import type { ChunkColumns, Prelude } from '../../src/rad/types'
import { buildRad, tag } from './radWriter'
import type { BuiltRad } from './radWriter'

/** Each chunk of a header-inclusive file: its offset and its bytes, header included (views on `file`). */
export function chunksOf(file: Uint8Array, prelude: Prelude): { offset: number; bytes: Uint8Array }[] {
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

/** A copy of `bytes` starting `misalign` bytes into a fresh buffer (its payload, 8 bytes in, likewise). */
export function copyAt(bytes: Uint8Array, misalign = 0): Uint8Array {
  const out = new Uint8Array(bytes.length + misalign).subarray(misalign)
  out.set(bytes)
  return out
}

/** Record count, alignment count, alnStart, then every read and alignment column, as plain arrays. */
export function columnArrays(cols: ChunkColumns): number[][] {
  return [
    [cols.recordCount, cols.alignmentCount],
    Array.from(cols.alnStart),
    ...[...cols.readColumns, ...cols.alnColumns].map((c) => Array.from(c.values as ArrayLike<number>)),
  ]
}

/**
 * 3 u32 read tags and 2 u32 alignment tags (not the scRNA shape of 2 and 1):
 * chunk 0 holds records with two, zero and one alignments, chunk 1 none.
 */
export function wideU32File(): BuiltRad {
  return buildRad({
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
}

/** wideU32File's chunks decoded, as columnArrays gives them. */
export const WIDE_U32_COLUMNS: readonly (readonly number[][])[] = [
  [
    [3, 3],
    [0, 2, 2, 3],
    [1, 4, 7],
    [2, 5, 8],
    [3, 6, 0xffffffff],
    [0x80000001, 2, 0],
    [10, 20, 30],
  ],
  [[0, 0], [0], [], [], [], [], []],
]
