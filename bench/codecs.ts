/**
 * WebAssembly decoders against the pure-JS ones the readers started with
 * (docs/adr/0010-wasm-decoders.md): zstd (fzstd vs zstddec's
 * libzstd build) and lz4 (lz4js vs lz4-wasm, lz4_flex compiled to wasm), on
 * chunk payloads cut from a real salmon file's records at 64 B – 1 MiB and
 * compressed the way RAD writers do (docs/format.md §6), plus the real frames of
 * collated-zstd.rad (bench/generate.ts) when it exists. Prints µs per frame and
 * GB/s of decompressed output, the median of RUNS runs.
 * Run alone (it is not part of `npm run bench`): `npx tsx bench/codecs.ts`
 * (COLLATED=path/to/collated-zstd.rad to point at another copy).
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { decompress as fzstdDecompress } from 'fzstd'
import { decompressBlock } from 'lz4js'
import { ZSTDDecoder } from 'zstddec'
import { decompressChunk } from '../src/rad/decode/codec'
import { loadWasmCodecs } from '../src/io/codecWasm'
import { parsePrelude } from '../src/rad/prelude/prelude'
import { loadZstd, lz4Payload, zstdFrame } from '../test/helpers/radWriter'

const ROOT = join(import.meta.dirname, '..')
const FIXTURE = join(ROOT, 'test/fixtures/salmon/rad-chromium-v3-small.rad')
const COLLATED = process.env.COLLATED ?? join(ROOT, 'bench/data/collated-zstd.rad')
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
/** Each measurement decodes about this many output bytes (at least 2000 frames). */
const TARGET_BYTES = 48 << 20
const SIZES = [64, 256, 1024, 4096, 65536, 1 << 20]

interface Frame {
  packed: Uint8Array
  size: number
}

/** lz4-wasm ships for bundlers only (`import … from './x.wasm'`): its glue for `decompress`, by hand. */
async function lz4Wasm(): Promise<(input: Uint8Array) => Uint8Array> {
  const bytes = readFileSync(join(ROOT, 'node_modules/lz4-wasm/lz4_wasm_bg.wasm'))
  const imports = {
    './lz4_wasm_bg.js': {
      __wbindgen_string_new: (): number => {
        throw new Error('lz4-wasm reported an error')
      },
    },
  }
  const { instance } = await WebAssembly.instantiate(bytes, imports)
  const x = instance.exports as {
    memory: WebAssembly.Memory
    decompress: (ret: number, ptr: number, len: number) => void
    __wbindgen_add_to_stack_pointer: (n: number) => number
    __wbindgen_malloc: (n: number) => number
    __wbindgen_free: (ptr: number, n: number) => void
  }
  return (input) => {
    const ret = x.__wbindgen_add_to_stack_pointer(-16)
    try {
      const ptr = x.__wbindgen_malloc(input.length)
      new Uint8Array(x.memory.buffer).set(input, ptr)
      x.decompress(ret, ptr, input.length)
      const [r0 = 0, r1 = 0] = new Int32Array(x.memory.buffer, ret, 2)
      const out = new Uint8Array(x.memory.buffer, r0, r1).slice()
      x.__wbindgen_free(r0, r1)
      return out
    } finally {
      x.__wbindgen_add_to_stack_pointer(16)
    }
  }
}

/** The records of a real salmon file (everything after its prelude), tiled to `size` when shorter. */
function recordBytes(): Uint8Array {
  const file = new Uint8Array(readFileSync(FIXTURE))
  return file.subarray(parsePrelude(file, file.length).firstChunkOffset)
}

/** Enough `size`-byte slices of the records, at scattered offsets, compressed by `pack`. */
function framesOf(records: Uint8Array, size: number, pack: (data: Uint8Array) => Uint8Array): Frame[] {
  const count = Math.max(2000, Math.min(20000, Math.floor(TARGET_BYTES / size)))
  const tiled = new Uint8Array(Math.max(size, records.length) + size)
  for (let at = 0; at < tiled.length; at += records.length) tiled.set(records.subarray(0, tiled.length - at), at)
  const distinct = Math.min(count, 64) // compressing is slow; decoding the same frames again is not
  const frames: Frame[] = []
  for (let i = 0; i < distinct; i++) {
    const at = (i * 7919 * 13) % (tiled.length - size)
    frames.push({ packed: pack(tiled.subarray(at, at + size)), size })
  }
  return Array.from({ length: count }, (_, i) => frames[i % distinct] as Frame)
}

/** The first frames of collated-zstd.rad's chunks (its header gives each payload, §4 and §6). */
function collatedFrames(path: string, limit: number): Frame[] {
  const head = new Uint8Array(readFileSync(path).subarray(0, 64 << 20))
  const prelude = parsePrelude(head, head.length)
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength)
  const frames: Frame[] = []
  for (let pos = prelude.firstChunkOffset; pos + 8 <= head.length && frames.length < limit;) {
    const nbytes = view.getUint32(pos, true)
    if (nbytes < 8 || pos + nbytes > head.length) break
    const packed = head.subarray(pos + 8, pos + nbytes)
    frames.push({ packed, size: fzstdDecompress(packed).length })
    pos += nbytes
  }
  return frames
}

/** Median µs/frame and GB/s (of output) of `decode` over every frame. */
function time(frames: Frame[], decode: (f: Frame) => Uint8Array): { us: number; gbs: number } {
  for (const f of frames.slice(0, 200)) decode(f) // warm-up
  const runs: { us: number; gbs: number }[] = []
  for (let r = 0; r < RUNS; r++) {
    let bytes = 0
    const start = performance.now()
    for (const f of frames) bytes += decode(f).length
    const ms = performance.now() - start
    runs.push({ us: (ms * 1000) / frames.length, gbs: bytes / 1e6 / ms })
  }
  runs.sort((a, b) => a.us - b.us)
  return runs[Math.floor((runs.length - 1) / 2)] ?? { us: NaN, gbs: NaN }
}

function row(label: string, frames: Frame[], js: (f: Frame) => Uint8Array, wasm: (f: Frame) => Uint8Array): string {
  const a = time(frames, js)
  const b = time(frames, wasm)
  const packed = frames.reduce((s, f) => s + f.packed.length, 0) / frames.length
  return (
    `| ${label} | ${packed.toFixed(0)} B | ${a.us.toFixed(2)} | ${b.us.toFixed(2)} | ` +
    `${a.gbs.toFixed(3)} | ${b.gbs.toFixed(3)} | ${(a.us / b.us).toFixed(1)}× |`
  )
}

const HEAD =
  '| frames of | packed (mean) | JS µs/frame | WASM µs/frame | JS GB/s | WASM GB/s | WASM speed-up |\n|---|---|---|---|---|---|---|'

await loadZstd()
const zstddec = new ZSTDDecoder()
await zstddec.init()
const lz4wasm = await lz4Wasm()
const records = recordBytes()
const kib = (n: number): string => (n >= 1024 ? `${String(n >> 10)} KiB` : `${String(n)} B`)

const out: string[] = ['### zstd: fzstd (JS) vs zstddec (libzstd in wasm)', '', HEAD]
for (const size of SIZES) {
  const frames = framesOf(records, size, (d) => zstdFrame(d))
  out.push(
    row(
      kib(size),
      frames,
      (f) => fzstdDecompress(f.packed),
      (f) => zstddec.decode(f.packed, f.size),
    ),
  )
}
if (existsSync(COLLATED)) {
  const frames = collatedFrames(COLLATED, 20000)
  out.push(
    row(
      'collated-zstd.rad chunks',
      frames,
      (f) => fzstdDecompress(f.packed),
      (f) => zstddec.decode(f.packed, f.size),
    ),
  )
}
out.push('', '### lz4: lz4js (JS) vs lz4-wasm (lz4_flex in wasm), size-prefixed blocks (§6)', '', HEAD)
for (const size of SIZES) {
  const frames = framesOf(records, size, lz4Payload)
  out.push(
    row(
      kib(size),
      frames,
      (f) => {
        const o = new Uint8Array(f.size)
        decompressBlock(f.packed, o, 4, f.packed.length - 4, 0)
        return o
      },
      (f) => lz4wasm(f.packed),
    ),
  )
}
// The reader's own path (decompressChunk: bounds checks first), before and after the wasm seam.
out.push('', '### decompressChunk (checks included), zstd, before and after loadWasmCodecs()', '', HEAD)
const before = SIZES.map((size) => framesOf(records, size, (d) => zstdFrame(d)))
const jsTimes = before.map((frames) => time(frames, (f) => decompressChunk('zstd', f.packed, 0, 0)))
await loadWasmCodecs()
before.forEach((frames, i) => {
  const a = jsTimes[i] ?? { us: NaN, gbs: NaN }
  const b = time(frames, (f) => decompressChunk('zstd', f.packed, 0, 0))
  out.push(
    `| ${kib(SIZES[i] ?? 0)} | | ${a.us.toFixed(2)} | ${b.us.toFixed(2)} | ${a.gbs.toFixed(3)} | ${b.gbs.toFixed(3)} | ${(a.us / b.us).toFixed(1)}× |`,
  )
})
process.stdout.write(`${out.join('\n')}\n`)
