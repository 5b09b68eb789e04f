import { ZSTDDecoder } from 'zstddec'
import { installZstdDecoder } from '../rad/decode/codec'

/**
 * Swaps zstd decoding (codec.ts) from fzstd to libzstd compiled to WebAssembly
 * (zstddec): 3–4× faster on every chunk size (bench/codecs.ts, ADR 0010). Each
 * thread that decodes chunks awaits this once at start-up. Resolves false, and
 * leaves fzstd in place, where WebAssembly cannot be instantiated: a page whose
 * CSP lacks 'wasm-unsafe-eval', an old browser.
 */
export async function loadWasmCodecs(): Promise<boolean> {
  try {
    const decoder = new ZSTDDecoder()
    await decoder.init()
    installZstdDecoder((payload, bound) => decodeOrUndefined(decoder, payload, bound))
    return true
  } catch {
    return false
  }
}

/**
 * zstddec returns an empty array where libzstd reports an error (it slices up
 * to a negative size); codec.ts's bound is exact when the frame states its
 * content size and an upper limit otherwise, so a non-empty result no longer
 * than the bound is the frame's content.
 */
function decodeOrUndefined(decoder: ZSTDDecoder, payload: Uint8Array, bound: number): Uint8Array | undefined {
  try {
    const out = decoder.decode(payload, bound)
    return out.length > 0 && out.length <= bound ? out : undefined
  } catch {
    return undefined
  }
}
