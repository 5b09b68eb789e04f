/** The chunk index (typed columns) and record → chunk lookup. */
import { describe, expect, it } from 'vitest'
import { ChunkIndexBuilder, chunkForRecord, concatChunkIndex, emptyChunkIndex } from '../../src/rad/chunkIndex'

describe('ChunkIndexBuilder', () => {
  it('grows past its first 1,024 entries and keeps offsets beyond 2^32 exact', () => {
    const b = new ChunkIndexBuilder()
    for (let k = 0; k < 5000; k++) b.push(2 ** 40 + k * 1_000_003, 8 + k, k % 3)
    const index = b.snapshot()
    expect(index.count).toBe(5000)
    expect(index.offset[4999]).toBe(2 ** 40 + 4999 * 1_000_003)
    expect(index.nbytes[4999]).toBe(8 + 4999)
    expect(index.firstRecord[4999]).toBe(b.records - (4999 % 3))
    expect(b.records).toBe(Array.from({ length: 5000 }, (_, k) => k % 3).reduce((a, n) => a + n, 0))
  })

  it('snapshots from an entry on, in fresh buffers, and concatenates back', () => {
    const b = new ChunkIndexBuilder()
    b.push(10, 20, 2)
    b.push(30, 8, 0)
    const first = b.snapshot()
    b.push(38, 16, 5)
    const more = b.snapshot(2)
    expect(more.count).toBe(1)
    expect(Array.from(more.firstRecord)).toEqual([2])
    expect(more.offset.buffer).not.toBe(first.offset.buffer)
    const all = concatChunkIndex(first, more)
    expect(all).toEqual(b.snapshot())
    expect(concatChunkIndex(emptyChunkIndex(), all)).toEqual(all)
  })
})

describe('chunkForRecord', () => {
  it('binary-searches the chunk of a record, skipping empty chunks; -1 outside', () => {
    const b = new ChunkIndexBuilder()
    for (const n of [0, 3, 0, 0, 1, 4, 0]) b.push(0, 8, n)
    const index = b.snapshot()
    const lookups = [-1, 0, 1, 2, 3, 4, 5, 6, 7, 8].map((r) => chunkForRecord(index, r))
    expect(lookups).toEqual([-1, 1, 1, 1, 4, 5, 5, 5, 5, -1])
    expect(chunkForRecord(emptyChunkIndex(), 0)).toBe(-1)
  })

  it('finds records beyond 2^32 exactly', () => {
    const b = new ChunkIndexBuilder()
    for (let k = 0; k < 3; k++) b.push(k, 8, 0xffffffff)
    const index = b.snapshot()
    expect(chunkForRecord(index, 2 * 0xffffffff)).toBe(2)
    expect(chunkForRecord(index, 2 * 0xffffffff - 1)).toBe(1)
    expect(chunkForRecord(index, 3 * 0xffffffff)).toBe(-1)
  })
})

describe('ChunkIndexBuilder reserve', () => {
  it('reserves what num_chunks says (capped), grows past it, and finish() equals snapshot()', () => {
    for (const expected of [0, 3, 5000, 2 ** 60]) {
      const b = new ChunkIndexBuilder(expected)
      for (let i = 0; i < 5000; i++) b.push(i * 8, 8, i % 3)
      const done = b.finish()
      expect(done.count).toBe(5000)
      expect(done.offset.length).toBe(5000)
      expect(Array.from(done.firstRecord.subarray(0, 4))).toEqual([0, 0, 1, 3])
      expect(done).toEqual(b.snapshot())
    }
  })
})
