/**
 * Benchmark inputs (bench/results.md), generated once into bench/data/ and reused:
 * - salmon-1g.rad, salmon-5g.rad: the chunks of a real salmon map.rad,
 *   repeated to 1 GiB / 5 GiB with num_chunks rewritten (salmon-like chunks:
 *   ~5000 reads, ~100 KB each);
 * - collated-1m.rad: a collated-style file, one small chunk per barcode,
 *   1,000,000 chunks;
 * - collated-zstd.rad: the same records with every chunk zstd-compressed
 *   (`chunk_codec` = 2, docs/format.md §6);
 * - tenx-200m.rad, tenx-1024m.rad: 10x-shaped runs (tenx.ts: 10k cells, 1M ambient barcodes), the
 *   headline files of the statistics bench, with tenx-200m-collated.rad and tenx-200m.bus (the
 *   same records for bustools, bustools.ts).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync, closeSync, copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { parsePrelude } from '../src/rad/prelude/prelude'
import { buildRad, loadZstd, recordBytes, tag, zstdFrame } from '../test/helpers/radWriter'
import type { RadSpec } from '../test/helpers/radWriter'
import { writeTenx } from './tenx'
import type { TenxFiles } from './tenx'

export const DATA = join(import.meta.dirname, 'data')
const GiB = 1 << 30

export interface Inputs {
  salmonSource: string
  salmonSourceKind: string
  salmon1g: string
  salmon5g: string
  collated: string
  collatedZstd: string
  tenx200: TenxFiles
  tenx1g: TenxFiles
}

/** A real salmon map.rad: made with salmon when it is installed, else the bundled fixture. */
function salmonSource(): [string, string] {
  const made = join(DATA, 'salmon-large.rad')
  if (existsSync(made)) return [made, 'salmon 5M-read run (scripts/make-salmon-rad.sh large)']
  const script = join(import.meta.dirname, '..', 'scripts', 'make-salmon-rad.sh')
  try {
    execFileSync('salmon', ['--version'], { stdio: 'ignore' })
    const out = join(DATA, 'salmon-run')
    console.error('[bench] running salmon on 5M simulated reads (about a minute)…')
    execFileSync('bash', [script, out, 'large', 'v3-rad-p3'], { stdio: ['ignore', 'ignore', 'inherit'] })
    copyFileSync(join(out, 'alevin-v3-rad-p3', 'map.rad'), made)
    return [made, 'salmon 5M-read run (scripts/make-salmon-rad.sh large)']
  } catch {
    console.error('[bench] salmon not installed (apt-get install salmon): using the bundled 377 KB salmon fixture')
    return [
      join(import.meta.dirname, '..', 'test', 'fixtures', 'salmon', 'rad-chromium-v3-small.rad'),
      'bundled salmon fixture (20k reads)',
    ]
  }
}

/** Writes prelude + chunks repeated to at least `target` bytes, num_chunks rewritten (kept when already written). */
export function replicate(source: string, target: number, out: string): void {
  if (existsSync(out) && statSync(out).size >= target) return
  const bytes = new Uint8Array(readFileSync(source))
  const prelude = parsePrelude(bytes, bytes.length)
  const body = bytes.subarray(prelude.firstChunkOffset)
  const chunksPerCopy = countChunks(body)
  const copies = Math.ceil((target - prelude.firstChunkOffset) / body.length)
  const head = bytes.slice(0, prelude.firstChunkOffset)
  new DataView(head.buffer).setBigUint64(prelude.numChunksOffset, BigInt(copies * chunksPerCopy), true)
  const fd = openSync(out, 'w')
  writeSync(fd, head)
  for (let i = 0; i < copies; i++) writeSync(fd, body)
  closeSync(fd)
}

function countChunks(body: Uint8Array): number {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  let n = 0
  for (let at = 0; at < body.length; n++) at += view.getUint32(at, true)
  return n
}

/** Deterministic pseudo-random numbers (xorshift32). */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1
  return () => {
    s ^= s << 13
    s ^= s >>> 17
    s ^= s << 5
    return (s >>> 0) / 2 ** 32
  }
}

function collatedSpec(refs: readonly string[], codec: boolean): RadSpec {
  const fileTags = [tag('cblen', 'u16'), tag('ulen', 'u16'), ...(codec ? [tag('chunk_codec', 'u8')] : [])]
  return {
    refs,
    fileTags,
    readTags: [tag('b', 'u32'), tag('u', 'u32')],
    alnTags: [tag('compressed_ori_refid', 'u32')],
    fileValues: codec ? [16, 12, 2] : [16, 12],
  }
}

/** One chunk per barcode (alevin-fry collate), 1–8 reads each with 1–3 alignments. */
function writeCollated(out: string, refs: readonly string[], chunks: number, zstd: boolean): void {
  if (existsSync(out)) return
  const spec = collatedSpec(refs, zstd)
  const prelude = buildRad({ ...spec, numChunks: chunks }).bytes
  const fd = openSync(out, 'w')
  writeSync(fd, prelude)
  const random = rng(zstd ? 11 : 7)
  const pending: Uint8Array[] = []
  let pendingBytes = 0
  for (let c = 0; c < chunks; c++) {
    const barcode = Math.floor(random() * 2 ** 32)
    const reads = 1 + Math.floor(random() ** 3 * 8)
    const parts: Uint8Array[] = []
    for (let r = 0; r < reads; r++) {
      const naln = 1 + Math.floor(random() * 3)
      const alns = Array.from({ length: naln }, () => [
        ((random() < 0.85 ? 0x80000000 : 0) + Math.floor(random() * refs.length)) >>> 0,
      ])
      parts.push(recordBytes(spec, { read: [barcode, Math.floor(random() * 2 ** 24)], alns }))
    }
    const records = concat(parts)
    const payload = zstd ? zstdFrame(records) : records
    const header = new Uint8Array(8)
    new DataView(header.buffer).setUint32(0, payload.length + 8, true)
    new DataView(header.buffer).setUint32(4, reads, true)
    pending.push(header, payload)
    pendingBytes += payload.length + 8
    if (pendingBytes > 8 << 20) {
      writeSync(fd, concat(pending.splice(0)))
      pendingBytes = 0
    }
  }
  writeSync(fd, concat(pending))
  closeSync(fd)
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

export async function generateInputs(): Promise<Inputs> {
  mkdirSync(DATA, { recursive: true })
  const [source, kind] = salmonSource()
  const inputs: Inputs = {
    salmonSource: source,
    salmonSourceKind: kind,
    salmon1g: join(DATA, 'salmon-1g.rad'),
    salmon5g: join(DATA, 'salmon-5g.rad'),
    collated: join(DATA, 'collated-1m.rad'),
    collatedZstd: join(DATA, 'collated-zstd.rad'),
    tenx200: writeTenx(200, { collated: true, bus: true }),
    tenx1g: writeTenx(1024, { collated: false, bus: false }),
  }
  console.error('[bench] generating inputs in bench/data (cached between runs)…')
  replicate(source, GiB, inputs.salmon1g)
  replicate(source, 5 * GiB, inputs.salmon5g)
  const sourceBytes = new Uint8Array(readFileSync(source))
  const refs = parsePrelude(sourceBytes, sourceBytes.length).refNames
  writeCollated(inputs.collated, refs, 1_000_000, false)
  await loadZstd()
  writeCollated(inputs.collatedZstd, refs, 1_000_000, true)
  return inputs
}
