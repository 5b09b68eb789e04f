/**
 * SequentialReader's reads into the buffers of blocks left behind (`reuse`, ADR 0017): the same
 * bytes as fresh reads, whole blocks read into spare buffers, and nothing reused without it.
 */
import { describe, expect, it } from 'vitest'
import type { ByteSource } from '../../src/io/byteSource'
import { SequentialReader } from '../../src/io/sequentialReader'

/** A source of `size` bytes (byte i = i mod 251) counting its fresh reads and its reads into a buffer. */
function countingSource(size: number) {
  const data = Uint8Array.from({ length: size }, (_, i) => i % 251)
  const counts = { fresh: 0, into: 0 }
  const source: ByteSource = {
    name: 'counting',
    size,
    read: (offset, length) => {
      counts.fresh++
      return Promise.resolve(data.slice(offset, Math.min(size, offset + length)))
    },
    readInto: (offset, length, into) => {
      counts.into++
      const end = Math.min(size, offset + length)
      const view = new Uint8Array(into, 0, end - offset)
      view.set(data.subarray(offset, end))
      return Promise.resolve(view)
    },
  }
  return { source, data, counts }
}

/** Walks the source front to back in `step`-byte ranges, as a walk asks for them. */
async function walk(reader: SequentialReader, size: number, step: number): Promise<Uint8Array> {
  const out = new Uint8Array(size)
  for (let at = 0; at < size; at += step) out.set(await reader.get(at, Math.min(step, size - at)), at)
  return out
}

describe('SequentialReader, reading into blocks left behind', () => {
  it('gives the same bytes, reading whole blocks into the buffers of those it left', async () => {
    const size = 40_000
    const { source, data, counts } = countingSource(size)
    const got = await walk(new SequentialReader(source, 0, 4096, 3, undefined, true), size, 1000)
    expect(got).toEqual(data)
    expect(counts.into).toBeGreaterThan(3)
  })

  it('reads fresh memory without `reuse`', async () => {
    const size = 40_000
    const { source, data, counts } = countingSource(size)
    expect(await walk(new SequentialReader(source, 0, 4096, 3), size, 1000)).toEqual(data)
    expect(counts.into).toBe(0)
  })
})
