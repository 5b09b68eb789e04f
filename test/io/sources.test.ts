/** ByteSources (Blob, bytes) and the growing prelude read. */
import { describe, expect, it } from 'vitest'
import { BlobSource } from '../../src/io/blobSource'
import { BytesSource } from '../../src/io/byteSource'
import type { ByteSource } from '../../src/io/byteSource'
import { readPrelude } from '../../src/io/readPrelude'
import { arrayTag, buildRad, tag } from '../helpers/radWriter'
import { flatRecords, readRad } from '../helpers/read'
import { SparseSource } from '../helpers/sparseSource'
import { salmonScRna } from '../helpers/assays'

describe('BlobSource (Node global Blob/File)', () => {
  const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i & 0xff)

  it('reads ranges, clips at the end, and returns nothing past it or for zero length', async () => {
    const src = new BlobSource(new File([bytes], 'map.rad'))
    expect([src.size, src.name]).toEqual([1000, 'map.rad'])
    expect(Array.from(await src.read(10, 5))).toEqual([10, 11, 12, 13, 14])
    expect(await src.read(995, 100)).toEqual(bytes.subarray(995))
    expect(await src.read(1000, 10)).toHaveLength(0)
    expect(await src.read(5, 0)).toHaveLength(0)
    expect(new BlobSource(new Blob([bytes])).name).toBe('blob')
  })

  it('refuses to read once aborted', async () => {
    const src = new BlobSource(new Blob([bytes]))
    const controller = new AbortController()
    controller.abort()
    await expect(src.read(0, 10, controller.signal)).rejects.toThrow()
    await expect(src.readInto(0, 10, new ArrayBuffer(10), controller.signal)).rejects.toThrow()
  })

  it('readInto reads a range into the given memory (BYOB), clipped at the end', async () => {
    const src = new BlobSource(new Blob([bytes]))
    const got = await src.readInto(100, 500, new ArrayBuffer(800))
    expect(got?.length).toBe(500)
    expect(got?.buffer.byteLength).toBe(800)
    expect(got).toEqual(bytes.subarray(100, 600))
    expect(await src.readInto(990, 100, new ArrayBuffer(10))).toEqual(bytes.subarray(990))
    expect(await src.readInto(1000, 10, new ArrayBuffer(0))).toHaveLength(0)
  })

  it('readInto declines memory smaller than the range, and leaves it untouched', async () => {
    const src = new BlobSource(new Blob([bytes]))
    const small = new ArrayBuffer(16)
    expect(await src.readInto(0, 17, small)).toBeUndefined()
    expect(small.byteLength).toBe(16)
  })

  it('gives the same records as a byte array source', async () => {
    const file = buildRad(salmonScRna()).bytes
    const viaBlob = await readRad(new BlobSource(new Blob([file.slice()])))
    const viaBytes = await readRad(new BytesSource(file))
    expect(flatRecords(viaBlob)).toEqual(flatRecords(viaBytes))
  })
})

/** Counts reads and rejects fractional offsets or lengths. */
class CountingSource implements ByteSource {
  readonly reads: [number, number][] = []
  private readonly inner: ByteSource
  constructor(inner: ByteSource) {
    this.inner = inner
  }
  get size(): number {
    return this.inner.size
  }
  get name(): string {
    return this.inner.name
  }
  read(offset: number, length: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) {
      return Promise.reject(new RangeError(`read(${offset}, ${length})`))
    }
    this.reads.push([offset, length])
    return this.inner.read(offset, length)
  }
}

describe('readPrelude', () => {
  it('reads a small prelude in one 64 KiB read', async () => {
    const src = new CountingSource(new BytesSource(buildRad(salmonScRna()).bytes))
    await readPrelude(src)
    expect(src.reads).toEqual([[0, 65536]])
  })

  it('grows its window (at least doubling) for a 6 MB prelude, in whole-number reads', async () => {
    const names = { count: 200_000, name: (i: number) => `transcript-${i}` }
    const lens = Array.from({ length: 200_001 }, (_, i) => i) // a ref_lengths-style array
    const { bytes, layout } = buildRad({
      refs: names,
      fileTags: [arrayTag('ref_lengths', 'u32', 'u32')],
      readTags: [tag('b', 'u32')],
      fileValues: [lens],
      chunks: [{ records: Array.from({ length: 300_000 }, () => ({ read: [1] })) }],
    })
    const src = new CountingSource(new BytesSource(bytes))
    const p = await readPrelude(src)
    expect(p.firstChunkOffset).toBe(layout.firstChunkOffset)
    expect(p.fileTagValues[0]).toHaveLength(200_001)
    expect(src.reads.length).toBeLessThan(12)
    src.reads.forEach(([, length], i) => {
      if (i > 0) expect(length).toBeGreaterThanOrEqual(2 * (src.reads[i - 1]?.[1] ?? 0))
    })
  })

  it('never reads more than the file has when the prelude is cut (TRUNCATED)', async () => {
    const { bytes } = buildRad({ refs: { count: 50_000, name: (i) => `n${i}` } })
    const src = new SparseSource(bytes.length - 100).place(0, bytes.subarray(0, bytes.length - 100))
    await expect(readPrelude(src)).rejects.toMatchObject({ code: 'TRUNCATED' })
  })
})
