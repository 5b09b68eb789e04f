/**
 * Native floors of the two speed targets still open (bench/results.md, ADR 0009's
 * third round; docs/adr/0010, "Native floor"): what C at -O3 needs on this machine
 * for the same work, so the browser's figures can be read against what the
 * hardware allows.
 *
 *   npx tsx bench/nativeFloor.ts
 *
 * - zstd: libzstd, one context reused, over the zstd frames of
 *   collated-zstd.rad's chunks that the app must decompress (the frames that
 *   store their block are read as views: codec.ts storedZstdBlock);
 * - statistics: bench/native/statsFloor.c on the salmon run behind
 *   salmon-1g.rad, repeated 9 times (the pair table then samples 1/8, as
 *   the page's does on salmon-1g.rad);
 * - exact statistics at the scale of a real run: bench/native/tenxFloor.c
 *   on tenx-1024m.rad (bench/results.md, ADR 0009's ninth round).
 *
 * Needs gcc and libzstd.so.1 (Debian: gcc, libzstd1; no headers) and the
 * inputs `npm run bench` (and `npx tsx bench/tenx.ts`) write to bench/data;
 * a part whose input is missing is skipped, with a line saying so.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { storedZstdBlock } from '../src/rad/decode/codec'
import { parsePrelude } from '../src/rad/prelude/prelude'
import { DATA } from './generate'

const print = (line: string): boolean => process.stdout.write(`${line}\n`)
const NATIVE = join(import.meta.dirname, 'native')
const work = mkdtempSync(join(tmpdir(), 'rad-native-'))

/** The bytes of bench/data/`name`, or undefined (said) when it is not there. */
function input(name: string, writer: string): Uint8Array | undefined {
  const path = join(DATA, name)
  if (existsSync(path)) return new Uint8Array(readFileSync(path))
  print(`\n${name} is missing (${writer} writes it): skipped`)
  return undefined
}

function compile(source: string, libs: string[] = []): string {
  const out = join(work, source.replace(/\.c$/, ''))
  execFileSync('gcc', ['-O3', '-march=native', '-Wall', join(NATIVE, source), '-o', out, ...libs], { stdio: 'inherit' })
  return out
}

/** The chunks' zstd frames the app decompresses, each after its u32 LE length (zstdFrames.c's input). */
function compressedFrames(bytes: Uint8Array): { path: string; frames: number; stored: number } {
  const prelude = parsePrelude(bytes, bytes.length)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const parts: Uint8Array[] = []
  let frames = 0
  let stored = 0
  for (let at = prelude.firstChunkOffset; at + 8 <= bytes.length; at += view.getUint32(at, true)) {
    const frame = bytes.subarray(at + 8, at + view.getUint32(at, true)) // header-inclusive nbytes (§6)
    if (storedZstdBlock(frame)) {
      stored++
      continue
    }
    const length = new Uint8Array(4)
    new DataView(length.buffer).setUint32(0, frame.length, true)
    parts.push(length, frame)
    frames++
  }
  const path = join(work, 'frames.bin')
  writeFileSync(path, Buffer.concat(parts))
  return { path, frames, stored }
}

function zstdFloor(zstd: Uint8Array): void {
  const frames = compressedFrames(zstd)
  print(
    `collated-zstd.rad: ${(zstd.length / 1e6).toFixed(1)} MB; ${frames.frames} frames to decompress, ${frames.stored} stored (read as views)`,
  )
  print(`a pass at 0.3 GB/s has ${((1e3 * zstd.length) / 0.3e9).toFixed(0)} ms for the whole file; libzstd alone:`)
  execFileSync(compile('zstdFrames.c', ['-l:libzstd.so.1']), [frames.path], { stdio: 'inherit' })
}

function salmonFloor(run: Uint8Array): void {
  const prelude = parsePrelude(run, run.length)
  print(`\nsalmon-large.rad: the statistics' counting in C (9 copies; 1 barcodes, 2 pairs 1/8, 4 alignments)`)
  const stats = compile('statsFloor.c')
  for (const what of ['7', '1', '2', '4']) {
    const args = [join(DATA, 'salmon-large.rad'), String(prelude.firstChunkOffset), String(prelude.refCount), '9', what]
    const lines = execFileSync(stats, args, { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim()
      .split('\n')
    print(`what=${what}: ${(what === '7' ? lines : lines.slice(-1)).join('; ')}`)
  }
}

/** The exact statistics of the 1 GiB 10x-shaped run in C, 3 runs (its figures equal rad stats'). */
function tenxFloor(head: Uint8Array, size: number): void {
  const prelude = parsePrelude(head, size)
  print(`\ntenx-1024m.rad: the exact statistics in C (keys scattered to 256 buckets, each radix-sorted), 3 runs`)
  const floor = compile('tenxFloor.c')
  for (let run = 0; run < 3; run++) {
    const args = [join(DATA, 'tenx-1024m.rad'), String(prelude.firstChunkOffset), String(prelude.refCount)]
    const lines = execFileSync(floor, args, { stdio: ['ignore', 'pipe', 'inherit'] })
      .toString()
      .trim()
      .split('\n')
    print((run === 0 ? lines : lines.slice(-1)).join('\n'))
  }
}

const zstd = input('collated-zstd.rad', 'npm run bench')
if (zstd) zstdFloor(zstd)
const run = input('salmon-large.rad', 'npm run bench')
if (run) salmonFloor(run)
const tenxPath = join(DATA, 'tenx-1024m.rad')
if (existsSync(tenxPath)) {
  const head = new Uint8Array(4 << 20)
  const fd = openSync(tenxPath, 'r')
  readSync(fd, head, 0, head.length, 0)
  tenxFloor(head, fstatSync(fd).size)
  closeSync(fd)
} else print('\ntenx-1024m.rad is missing (npx tsx bench/tenx.ts 200 1024 writes it): skipped')
