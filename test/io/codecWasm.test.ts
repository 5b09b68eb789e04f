import { decompress as fzstdDecompress } from 'fzstd'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decompressChunk, installZstdDecoder, storedZstdBlock } from '../../src/rad/decode/codec'
import { loadWasmCodecs } from '../../src/io/codecWasm'
import { RadError } from '../../src/rad/errors'
import { loadZstd, zstdFrame } from '../helpers/radWriter'

/** What decompressChunk makes of a payload: its bytes, or its error's code and message. */
function outcome(payload: Uint8Array): Uint8Array | string {
  try {
    return decompressChunk('zstd', payload, 3, 1000)
  } catch (e) {
    if (!(e instanceof RadError)) throw e
    return `${e.code}: ${e.message}`
  }
}

/** The outcome with fzstd alone and with the wasm decoder installed (ADR 0010). */
async function bothWays(payload: Uint8Array): Promise<[Uint8Array | string, Uint8Array | string]> {
  installZstdDecoder(undefined)
  const js = outcome(payload)
  await loadWasmCodecs()
  return [js, outcome(payload)]
}

/** Record-like bytes: repeats compress, the counter does not. */
function records(n: number): Uint8Array {
  return new Uint8Array(n).map((_, i) => (i % 12 < 4 ? 0 : (i * 31 + (i >> 7)) % 251))
}

/** A zstd frame without a content size: magic, descriptor 0, window 1 KiB, one last raw block (RFC 8878 §3.1.1). */
function frameWithoutContentSize(data: Uint8Array): Uint8Array {
  const h = (data.length << 3) | 1
  return Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, h & 255, (h >> 8) & 255, h >> 16, ...data)
}

beforeAll(async () => {
  await loadZstd()
  expect(await loadWasmCodecs()).toBe(true)
})
afterAll(() => {
  installZstdDecoder(undefined)
})

describe('zstd chunks decoded by libzstd in wasm (codecWasm.ts)', () => {
  it.each([60, 512, 4096, 65536])('gives the bytes fzstd gives, %i-byte chunks', async (size) => {
    const data = records(size)
    const [js, wasm] = await bothWays(zstdFrame(data))
    expect(wasm).toEqual(data)
    expect(js).toEqual(data)
  })

  it('decodes frames that do not state their content size, and concatenated frames', async () => {
    const data = records(700)
    expect((await bothWays(frameWithoutContentSize(data)))[1]).toEqual(data)
    const two = Uint8Array.from([...zstdFrame(data.subarray(0, 300)), ...zstdFrame(data.subarray(300))])
    expect((await bothWays(two))[1]).toEqual(data)
  })

  it('reads every damaged frame as fzstd does: same bytes or same error (each byte flipped, each cut)', async () => {
    const good = zstdFrame(records(1500))
    const damaged: Uint8Array[] = []
    for (let at = 0; at < good.length; at++) {
      const flipped = good.slice()
      flipped[at] = (flipped[at] ?? 0) ^ 0xff
      damaged.push(flipped, good.subarray(0, at))
    }
    for (const payload of damaged) {
      const [js, wasm] = await bothWays(payload)
      expect(wasm).toEqual(js)
    }
  }, 120_000)
})

describe('a frame that stores its one block (storedZstdBlock)', () => {
  it('is read without decoding: the bytes fzstd gives, as a view on the payload', () => {
    const data = records(200)
    const frame = frameWithoutContentSize(data)
    const stored = storedZstdBlock(frame)
    expect(stored).toEqual(data)
    expect(stored?.buffer).toBe(frame.buffer)
    expect(outcome(frame)).toEqual(fzstdDecompress(frame))
    // With a content size (single segment, 1-byte size), as zstd writes small chunks.
    const sized = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 200, ...frame.subarray(6)])
    expect(storedZstdBlock(sized)).toEqual(data)
  })

  it('is left to the decoder when it has a checksum, a dictionary, more blocks, or a size that disagrees', () => {
    const frame = frameWithoutContentSize(records(40))
    const variant = (at: number, value: number): Uint8Array => {
      const v = frame.slice()
      v[at] = value
      return v
    }
    expect(storedZstdBlock(variant(4, 0x04))).toBeUndefined() // content checksum flag
    expect(storedZstdBlock(variant(4, 0x01))).toBeUndefined() // dictionary id flag
    expect(storedZstdBlock(variant(6, (frame[6] ?? 0) & ~1))).toBeUndefined() // not the last block
    expect(storedZstdBlock(Uint8Array.from([...frame, 0]))).toBeUndefined() // bytes after the block
    const sized = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 39, ...frame.subarray(6)])
    expect(storedZstdBlock(sized)).toBeUndefined() // content size 39, block 40
  })

  it('reads every damaged stored frame that zstdBounds lets through as fzstd does', () => {
    installZstdDecoder(undefined)
    const good = Uint8Array.from([
      0x28,
      0xb5,
      0x2f,
      0xfd,
      0x20,
      48,
      ...frameWithoutContentSize(records(48)).subarray(6),
    ])
    let viewed = 0
    for (let at = 0; at < good.length; at++) {
      const flipped = good.slice()
      flipped[at] = (flipped[at] ?? 0) ^ 0xff
      for (const payload of [flipped, good.subarray(0, at)]) {
        const got = outcome(payload)
        if (typeof got === 'string' || !storedZstdBlock(payload)) continue
        viewed++
        expect(got).toEqual(fzstdDecompress(payload))
      }
    }
    expect(viewed).toBeGreaterThan(40) // the flipped content bytes at least
  })
})
