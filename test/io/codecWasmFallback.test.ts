import { afterAll, describe, expect, it, vi } from 'vitest'
import { decompressChunk, installZstdDecoder } from '../../src/rad/decode/codec'
import { loadWasmCodecs } from '../../src/io/codecWasm'
import { loadZstd, zstdFrame } from '../helpers/radWriter'

afterAll(() => {
  installZstdDecoder(undefined)
  vi.restoreAllMocks()
})

describe('without WebAssembly, zstd chunks still decode (fzstd, ADR 0010)', () => {
  it('loadWasmCodecs resolves false where the CSP forbids compiling wasm, and fzstd decodes', async () => {
    await loadZstd() // the test writer's own compressor, before wasm is refused
    const data = new Uint8Array(5000).map((_, i) => (i * 7) % 13)
    const frame = zstdFrame(data)
    // What a page without 'wasm-unsafe-eval' gets from WebAssembly.instantiate.
    const refused = new WebAssembly.CompileError(
      "WebAssembly.instantiate(): Refused to compile or instantiate WebAssembly module because 'wasm-unsafe-eval' is not an allowed source of script",
    )
    vi.spyOn(WebAssembly, 'instantiate').mockRejectedValue(refused)
    expect(await loadWasmCodecs()).toBe(false)
    expect(decompressChunk('zstd', frame, 0, 0)).toEqual(data)
  })
})
