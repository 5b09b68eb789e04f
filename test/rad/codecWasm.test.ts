import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decompressChunk, installZstdDecoder } from '../../src/rad/codec'
import { loadWasmCodecs } from '../../src/rad/codecWasm'
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
