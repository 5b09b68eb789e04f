import { describe, expect, it } from 'vitest'
import { BlobSource } from '../../src/io/blobSource'
import { BytesSource } from '../../src/io/byteSource'
import { decodeBatch } from '../../src/workers/decodeBatch'
import { makeDecoder } from '../../src/workers/walkBatch'
import { breakChunk, expected, file, plain, prelude, requests } from '../helpers/salmonChunks'
import { ViewSource } from '../helpers/viewSource'

describe('decodeBatch', () => {
  it('decodes a batch in place when the source says its reads are the caller’s (a Blob read)', async () => {
    const reqs = requests()
    const { columns: fresh } = await decodeBatch(
      makeDecoder(new BlobSource(new Blob([file])), prelude),
      reqs,
      'header-inclusive',
    )
    expect(fresh.map(plain)).toEqual(reqs.map(expected))
    expect(new Set(fresh.map((c) => c.alnStart.buffer)).size).toBe(1)
  })

  it('reads a batch into a spare buffer when the source can, and decodes it there', async () => {
    const reqs = requests()
    const spare = new ArrayBuffer(file.length)
    const { columns: cols } = await decodeBatch(
      makeDecoder(new BlobSource(new Blob([file])), prelude),
      reqs,
      'header-inclusive',
      spare,
    )
    expect(cols.map(plain)).toEqual(reqs.map(expected))
    expect(cols[0]?.alnStart.buffer.byteLength).toBe(file.length)
    expect(spare.byteLength).toBe(0) // detached: its memory now holds the columns
  })

  it('never writes into bytes a source shares (reads that are views on its own array)', async () => {
    const reqs = requests()
    // Views on word-aligned chunks: decoding them in place would be possible, and would show.
    const shared = new ViewSource(file, prelude.firstChunkOffset)
    const { columns: cols } = await decodeBatch(
      makeDecoder(shared, prelude),
      reqs,
      'header-inclusive',
      new ArrayBuffer(file.length),
    )
    expect(cols.map(plain)).toEqual(reqs.map(expected))
    // The first byte that differs, if any (toEqual on the whole file takes seconds).
    expect(shared.bytes.findIndex((b, i) => b !== file[i])).toBe(-1)
  })

  it('a spare the source cannot read into (too small, or no readInto) is left alone', async () => {
    const reqs = requests()
    const small = new ArrayBuffer(16)
    const { columns: viaBlob } = await decodeBatch(
      makeDecoder(new BlobSource(new Blob([file])), prelude),
      reqs,
      'header-inclusive',
      small,
    )
    expect(viaBlob.map(plain)).toEqual(reqs.map(expected))
    expect(small.byteLength).toBe(16)
    const spare = new ArrayBuffer(file.length)
    const { columns: viaBytes } = await decodeBatch(
      makeDecoder(new BytesSource(file), prelude),
      reqs,
      'header-inclusive',
      spare,
    )
    expect(viaBytes.map(plain)).toEqual(reqs.map(expected))
    expect(spare.byteLength).toBe(file.length)
  })

  it('a bad chunk is listed with its error and the batch goes on after it (the one bad-chunk rule)', async () => {
    const reqs = requests()
    const { bytes } = breakChunk(2)
    const decoder = makeDecoder(new BlobSource(new Blob([bytes])), prelude)
    const { columns, bad } = await decodeBatch(decoder, reqs, 'header-inclusive', new ArrayBuffer(file.length))
    expect(columns.map(plain)).toEqual(reqs.filter((r) => r.chunk !== 2).map(expected))
    expect(bad.map((b) => b.chunk)).toEqual([2])
    expect(bad[0]?.error.message).toMatch(/chunk 2/)
  })

  it('a chunk cut off by the end of the file is listed as truncated, not thrown', async () => {
    const reqs = requests()
    const last = reqs[reqs.length - 1]
    if (!last) throw new Error('no chunks')
    const cut = file.subarray(0, last.offset + 4)
    const decoder = makeDecoder(new BlobSource(new Blob([cut])), prelude)
    const { columns, bad } = await decodeBatch(decoder, reqs.slice(-2), 'header-inclusive')
    expect(columns.map(plain)).toEqual(reqs.slice(-2, -1).map(expected))
    expect(bad.map((b) => [b.chunk, b.error.code])).toEqual([[last.chunk, 'TRUNCATED']])
  })
})
