/**
 * The platform globals the core uses, in one place (docs/architecture.md §1): TextEncoder,
 * TextDecoder and WebAssembly exist in every runtime we target (browsers, workers, Node), but the
 * core compiles against ES2022 alone, which declares none of them.
 */

interface Utf8Decoder {
  decode(input: Uint8Array): string
}
type Utf8DecoderClass = new (label: string, options?: { fatal: boolean }) => Utf8Decoder
type Utf8EncoderClass = new () => { encode(text: string): Uint8Array }

const runtime = globalThis as unknown as {
  TextDecoder: Utf8DecoderClass
  TextEncoder: Utf8EncoderClass
  WebAssembly: WasmApi
}

const utf8 = new runtime.TextDecoder('utf-8')
const strictUtf8 = new runtime.TextDecoder('utf-8', { fatal: true })
const encoder = new runtime.TextEncoder()

/** UTF-8 to text, bytes that are not UTF-8 replaced (names in a file: shown as they are). */
export function utf8Text(bytes: Uint8Array): string {
  return utf8.decode(bytes)
}

/** UTF-8 to text, throwing a TypeError on bytes that are not UTF-8 (for text files a user gives). */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  return strictUtf8.decode(bytes)
}

/** `text` as UTF-8. */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text)
}

/** The WebAssembly API of Node, workers and pages alike (synchronous: the counters run in workers and Node). */
export interface WasmApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: unknown }
}

export const wasm: WasmApi = runtime.WebAssembly
