/**
 * What verifying the `.sz` checksums costs (docs/integrity.md): CRC-32C speed in
 * Node beside Snappy decompression of the same data, the work it rides on.
 * Run alone (it is not part of `npm run bench`): `npx tsx bench/crc32c.ts`.
 */
import { readFileSync } from 'node:fs'
import { compress, uncompress } from 'snappyjs'
import { crc32c } from '../src/rad/decode/crc32c'

const FIXTURE = new URL('../test/fixtures/salmon/rad-chromium-v3-small.rad', import.meta.url)
const FRAME = 65536
const TARGET_BYTES = 256 << 20

/** The byte-at-a-time loop slicing-by-8 replaces, for comparison. */
const TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function bytewise(data: Uint8Array): number {
  let crc = 0xffffffff
  for (const b of data) crc = TABLE[(crc ^ b) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** Median MB/s of `work` over every frame, repeated to TARGET_BYTES, five runs. */
function rate(frames: Uint8Array[], work: (frame: Uint8Array) => unknown): number {
  const bytes = frames.reduce((sum, f) => sum + f.length, 0)
  const rounds = Math.max(1, Math.round(TARGET_BYTES / bytes))
  const runs: number[] = []
  for (let run = 0; run < 5; run++) {
    const start = performance.now()
    for (let r = 0; r < rounds; r++) for (const f of frames) work(f)
    runs.push((bytes * rounds) / 1e6 / ((performance.now() - start) / 1000))
  }
  return runs.sort((a, b) => a - b)[2] ?? 0
}

const data = new Uint8Array(readFileSync(FIXTURE))
const frames: Uint8Array[] = []
for (let at = 0; at < data.length; at += FRAME) frames.push(data.subarray(at, at + FRAME))
const compressed = frames.map((f) => compress(f))

const crc = rate(frames, crc32c)
const naive = rate(frames, bytewise)
const snappy = rate(compressed, (c) => uncompress(c))
// Snappy's rate above counts compressed bytes: restate it per uncompressed byte.
const ratio = frames.reduce((s, f) => s + f.length, 0) / compressed.reduce((s, c) => s + c.length, 0)
const snappyOut = snappy * ratio
process.stdout.write(
  `CRC-32C slicing-by-8: ${crc.toFixed(0)} MB/s\n` +
    `CRC-32C byte at a time: ${naive.toFixed(0)} MB/s\n` +
    `snappyjs uncompress: ${snappyOut.toFixed(0)} MB/s of output (${snappy.toFixed(0)} MB/s of input)\n` +
    `verifying adds ${((snappyOut / crc) * 100).toFixed(0)}% to decompressing each frame\n`,
)
