import { describe, expect, it } from 'vitest'
import type { ChunkColumns } from '../../src/rad/types'
import { ChunkCache } from '../../src/session/rows/chunkCache'

describe('ChunkCache', () => {
  const cols = (buffer: ArrayBuffer, at: number): ChunkColumns => ({
    chunk: 0,
    offset: 0,
    nbytes: 0,
    recordCount: 1,
    alignmentCount: 1,
    alnStart: new Uint32Array(buffer, at, 2),
    readColumns: [{ kind: 'u32', values: new Uint32Array(buffer, at + 8, 1) }],
    alnColumns: [{ kind: 'u32', values: new Uint32Array(buffer, at + 12, 1) }],
  })

  it('counts a buffer shared by chunks once, and frees it with the last of them', () => {
    const cache = new ChunkCache(2500, () => undefined)
    const batch = new ArrayBuffer(1000)
    cache.insert(1, cols(batch, 0))
    cache.insert(2, cols(batch, 16))
    expect(cache.byteLength).toBe(1000)
    const other = new ArrayBuffer(1000)
    cache.insert(3, cols(other, 0))
    expect(cache.byteLength).toBe(2000)
    // A third buffer is over budget: chunk 1 goes, but its buffer stays (chunk 2 holds it), so chunk 2 goes too.
    cache.insert(4, cols(new ArrayBuffer(1000), 0))
    expect(cache.get(1)).toBeUndefined()
    expect(cache.get(2)).toBeUndefined()
    expect(cache.byteLength).toBe(2000)
    cache.clear()
    expect(cache.byteLength).toBe(0)
  })
})
