import { describe, expect, it } from 'vitest'
import { ChunkIndexBuilder } from '../../src/rad/chunkIndex'
import { IndexStore } from '../../src/session/open/indexStore'

/** Streams `chunks` ([nbytes, nrec] each, back to back from byte 100) as slices of `sliceSize`. */
function storeOf(chunks: [number, number][], sliceSize: number): IndexStore {
  const builder = new ChunkIndexBuilder()
  let offset = 100
  for (const [nbytes, nrec] of chunks) {
    builder.push(offset, nbytes, nrec)
    offset += nbytes
  }
  const store = new IndexStore()
  for (let from = 0; from < chunks.length; from += sliceSize) {
    const slice = builder.snapshot(from)
    const count = Math.min(sliceSize, slice.count)
    store.append({
      count,
      offset: slice.offset.subarray(0, count),
      nbytes: slice.nbytes.subarray(0, count),
      nrec: slice.nrec.subarray(0, count),
      firstRecord: slice.firstRecord.subarray(0, count),
    })
  }
  return store
}

describe('IndexStore', () => {
  const chunks: [number, number][] = [
    [40, 3],
    [24, 1],
    [64, 5],
    [8, 0],
    [32, 2],
  ]

  for (const sliceSize of [1, 2, 5]) {
    it(`reads every column across slices of ${String(sliceSize)}`, () => {
      const store = storeOf(chunks, sliceSize)
      expect(store.count).toBe(5)
      expect(store.records).toBe(11)
      expect([0, 1, 2, 3, 4].map((k) => store.offset(k))).toEqual([100, 140, 164, 228, 236])
      expect([0, 1, 2, 3, 4].map((k) => store.nbytes(k))).toEqual([40, 24, 64, 8, 32])
      expect([0, 1, 2, 3, 4].map((k) => store.nrec(k))).toEqual([3, 1, 5, 0, 2])
      expect([0, 1, 2, 3, 4].map((k) => store.firstRecord(k))).toEqual([0, 3, 4, 9, 9])
    })

    it(`finds the chunk of every record across slices of ${String(sliceSize)}`, () => {
      const store = storeOf(chunks, sliceSize)
      const expected = [0, 0, 0, 1, 2, 2, 2, 2, 2, 4, 4]
      expect(expected.map((_, record) => store.chunkOf(record))).toEqual(expected)
      expect(store.chunkOf(-1)).toBe(-1)
      expect(store.chunkOf(11)).toBe(-1)
    })
  }

  it('answers 0 past the end and forgets everything on clear', () => {
    const store = storeOf(chunks, 2)
    expect(store.offset(5)).toBe(0)
    expect(store.nrec(-1)).toBe(0)
    expect(store.byteLength).toBe(5 * 24)
    store.clear()
    expect(store.count).toBe(0)
    expect(store.records).toBe(0)
    expect(store.chunkOf(0)).toBe(-1)
  })
})
