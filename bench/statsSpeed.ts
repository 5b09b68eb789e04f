/**
 * The statistics pass against the bulk decode, in Node, one core (docs/stats.md;
 * issue 12's target, ≥ 0.8× the bulk decode speed: docs/adr/0009; measured with
 * this bench in bench/results.md, ADR 0009's first to third rounds). Both loops
 * walk the same file held in memory, decode every chunk in place as the decode
 * workers do (decodeChunkInPlace), and one of them also adds each chunk to a
 * StatsAccumulator. Ratio = pass MB/s / decode MB/s.
 *
 *   npx tsx bench/statsSpeed.ts [salmon|distinct|run] [MiB]   speed (default: salmon 256; run: the
 *       chunks of bench/data/salmon-large.rad, made by npm run bench, repeated as in salmon-1g.rad)
 *   node --expose-gc --import tsx bench/statsSpeed.ts memory [MiB] [workers] [drainEvery]
 *       memory of the every-barcode-different case: `workers` accumulators
 *       (default 3) take 32 MiB batches in turn; every `drainEvery` batches
 *       (0: only at the end) the others' states are merged one at a time into
 *       worker 0's and they start again empty, as statsPass.ts's reports do
 *
 * Inputs are written once to bench/data/ (salmon: the bundled salmon fixture's
 * chunks repeated, as bench/generate.ts makes salmon-1g.rad; distinct: the same
 * record shape, every record a different barcode and UMI).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { recordLayout } from '../src/rad/decode/chunk'
import { decodeChunkInPlace } from '../src/rad/decode/decodeChunk'
import { InPlaceScratch } from '../src/rad/decode/decodeInPlace'
import { parsePrelude } from '../src/rad/prelude/prelude'
import { inferSemantics } from '../src/rad/prelude/semantics'
import { createStatsAccumulator, statsJson } from '../src/rad/stats'
import type { StatsAccumulator } from '../src/rad/stats'
import type { Prelude } from '../src/rad/types'
import { buildRad, tag } from '../test/helpers/radWriter'
import { DATA, replicate } from './generate'

const print = (line: string): boolean => process.stdout.write(`${line}\n`)

const FIXTURE = join(import.meta.dirname, '..', 'test', 'fixtures', 'salmon', 'rad-chromium-v3-small.rad')
/** The salmon 5M-read run that bench/generate.ts repeats into salmon-1g.rad (15k barcodes, 4.7M pairs). */
const RUN = join(DATA, 'salmon-large.rad')
const MiB = 1 << 20
const RECORDS_PER_CHUNK = 5000

/** salmon's record shape (b u32, u u32, 1–3 compressed_ori_refid), every record a new barcode and UMI. */
function makeDistinct(out: string, bytes: number): void {
  const src = new Uint8Array(readFileSync(FIXTURE))
  const refs = parsePrelude(src, src.length).refNames
  const maxRecord = 12 + 3 * 4
  const chunkBytes = 8 + RECORDS_PER_CHUNK * maxRecord
  const chunks = Math.ceil(bytes / (8 + RECORDS_PER_CHUNK * 20))
  const prelude = buildRad({
    refs,
    fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16')],
    readTags: [tag('b', 'u32'), tag('u', 'u32')],
    alnTags: [tag('compressed_ori_refid', 'u32')],
    fileValues: [16, 12],
    numChunks: chunks,
  }).bytes
  const fd = openSync(out, 'w')
  writeSync(fd, prelude)
  const buf = new Uint8Array(chunkBytes)
  const dv = new DataView(buf.buffer)
  let n = 0
  for (let c = 0; c < chunks; c++) {
    let at = 8
    for (let r = 0; r < RECORDS_PER_CHUNK; r++, n++) {
      const naln = 1 + ((Math.imul(n, 0x9e3779b1) >>> 30) % 3)
      dv.setUint32(at, naln, true)
      dv.setUint32(at + 4, Math.imul(n, 0x9e3779b1) >>> 0, true) // a bijection: all different
      dv.setUint32(at + 8, Math.imul(n ^ 0x5bd1e995, 0x85ebca6b) & 0xffffff, true)
      at += 12
      for (let k = 0; k < naln; k++, at += 4) dv.setUint32(at, (0x80000000 + ((n + k) % refs.length)) >>> 0, true)
    }
    dv.setUint32(0, at, true)
    dv.setUint32(4, RECORDS_PER_CHUNK, true)
    writeSync(fd, buf, 0, at)
  }
  closeSync(fd)
}

function input(kind: string, mib: number): string {
  mkdirSync(DATA, { recursive: true })
  const out = join(DATA, `stats-${kind}-${mib}m.rad`)
  if (!existsSync(out) || statSync(out).size < mib * MiB * 0.9) {
    console.error(`[stats bench] writing ${out}…`)
    if (kind === 'distinct') makeDistinct(out, mib * MiB)
    else replicate(kind === 'run' ? RUN : FIXTURE, mib * MiB, out)
  }
  return out
}

interface Loaded {
  bytes: Uint8Array
  prelude: Prelude
  /** Chunk start offsets, then the end. */
  starts: number[]
}

function load(path: string): Loaded {
  const bytes = new Uint8Array(readFileSync(path))
  const prelude = parsePrelude(bytes, bytes.length)
  const starts: number[] = []
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = prelude.firstChunkOffset
  while (at + 8 <= bytes.length) {
    starts.push(at)
    at += view.getUint32(at, true) // salmon: header-inclusive nbytes
  }
  starts.push(at)
  return { bytes, prelude, starts }
}

/** Decodes chunks [from, to) in place, each into `add` when given; returns the records. */
function walk(f: Loaded, from: number, to: number, add?: StatsAccumulator): number {
  const layout = recordLayout(f.prelude)
  const scratch = new InPlaceScratch()
  const buffer = new Uint8Array(4 << 20)
  let records = 0
  for (let k = from; k < to; k++) {
    // In place decoding rearranges the bytes: each chunk is first copied, as a worker reads it.
    const n = f.starts[k + 1]! - f.starts[k]!
    buffer.set(f.bytes.subarray(f.starts[k], f.starts[k + 1]))
    const chunk = buffer.subarray(0, n)
    const cols = decodeChunkInPlace(chunk, f.starts[k]!, k, f.prelude, 'header-inclusive', layout, scratch)
    records += cols.recordCount
    add?.addChunk(cols)
  }
  return records
}

function speed(kind: string, mib: number): void {
  const f = load(input(kind, mib))
  const sem = inferSemantics(f.prelude)
  const chunks = f.starts.length - 1
  const mb = (f.bytes.length - f.prelude.firstChunkOffset) / 1e6
  walk(f, 0, Math.min(chunks, 50)) // warm-up: JIT
  walk(f, 0, Math.min(chunks, 50), createStatsAccumulator(f.prelude, sem))
  const rows: string[] = []
  for (let run = 0; run < 3; run++) {
    const t = cpuSeconds()
    const records = walk(f, 0, chunks)
    const decode = mb / (cpuSeconds() - t)
    const acc = createStatsAccumulator(f.prelude, sem)
    const t1 = cpuSeconds()
    walk(f, 0, chunks, acc)
    const pass = mb / (cpuSeconds() - t1)
    const t2 = cpuSeconds()
    const json = statsJson(acc.exportState(), f.prelude, sem)
    const jsonMs = 1000 * (cpuSeconds() - t2)
    rows.push(
      `| ${run + 1} | ${records.toLocaleString('en')} | ${decode.toFixed(0)} | ${pass.toFixed(0)} | ${(pass / decode).toFixed(2)} | ${jsonMs.toFixed(0)} | ${json.barcodes?.distinct ?? '-'} | ${json.umis?.distinct_pairs ?? '-'} |`,
    )
  }
  print(`stats pass vs decode, ${kind}, ${mb.toFixed(0)} MB, MB per CPU second (one thread; node ${process.version})`)
  print('| run | records | decode MB/s | pass MB/s | pass/decode | statsJson ms | distinct barcodes | distinct pairs |')
  print('| --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const r of rows) print(r)
}

/**
 * This thread's CPU time (user + system): the machine is shared, so wall time
 * would measure the other processes as much as this one.
 */
function cpuSeconds(): number {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

function mem(): { rss: number; heap: number; ab: number } {
  ;(globalThis as { gc?: () => void }).gc?.()
  const m = process.memoryUsage()
  return { rss: m.rss / 1e6, heap: m.heapUsed / 1e6, ab: m.arrayBuffers / 1e6 }
}

/**
 * Peak memory above idle of `workers` accumulators over the every-barcode-different
 * file (its bytes not counted: they are read in 32 MiB batches by the page). The file
 * is decoded batch by batch from disk, so only the accumulators grow.
 */
function memory(mib: number, workers: number, drainEvery: number): void {
  const path = input('distinct', mib)
  const head = new Uint8Array(1 << 16)
  const fd = openSync(path, 'r')
  readSyncAt(fd, head, 0)
  const prelude = parsePrelude(head, statSync(path).size)
  const sem = inferSemantics(prelude)
  const batch = new Uint8Array(32 * MiB) // a worker's read buffer: the bulk decode holds the same, not counted
  const idle = mem()
  let peak = idle
  const note = (what: string): void => {
    const m = mem()
    if (m.rss > peak.rss) peak = m
    print(
      `${what.padEnd(40)} rss ${(m.rss - idle.rss).toFixed(0)} MB, heap ${(m.heap - idle.heap).toFixed(0)} MB, arrayBuffers ${(m.ab - idle.ab).toFixed(0)} MB above idle`,
    )
  }
  onPeak = (what) => {
    const m = mem()
    if (m.rss > peak.rss) peak = m
    if (m.rss - idle.rss > 0.9 * (peak.rss - idle.rss)) note(what)
  }
  const accs = Array.from({ length: workers }, () => createStatsAccumulator(prelude, sem))
  const layout = recordLayout(prelude)
  const scratch = new InPlaceScratch()
  let pos = prelude.firstChunkOffset
  let k = 0
  let batches = 0
  for (;;) {
    const got = readSyncAt(fd, batch, pos)
    let at = 0
    while (at + 8 <= got) {
      const span = new DataView(batch.buffer, at, 8).getUint32(0, true)
      if (at + span > got) break
      const cols = decodeChunkInPlace(
        batch.subarray(at, at + span),
        pos + at,
        k,
        prelude,
        'header-inclusive',
        layout,
        scratch,
      )
      accs[batches % workers]!.addChunk(cols)
      at += span
      k++
    }
    if (at === 0) break
    pos += at
    batches++
    if (drainEvery > 0 && batches % drainEvery === 0) {
      // As statsPass.ts's reports: each other worker's state, one at a time, into worker 0's.
      for (let i = 1; i < workers; i++) drainInto(accs[0]!, accs, i, prelude, sem)
    }
    if (batches % 8 === 0) note(`${((pos - prelude.firstChunkOffset) / MiB).toFixed(0)} MiB read`)
  }
  closeSync(fd)
  note('all read')
  for (let i = 1; i < workers; i++) {
    drainInto(accs[0]!, accs, i, prelude, sem)
    note(`worker ${i} merged into worker 0`)
  }
  const json = statsJson(accs[0]!.exportState(), prelude, sem)
  note('statsJson')
  print(
    `peak rss ${(peak.rss - idle.rss).toFixed(0)} MB above idle (heap ${(peak.heap - idle.heap).toFixed(0)}, arrayBuffers ${(peak.ab - idle.ab).toFixed(0)}); ` +
      `${json.records.toLocaleString('en')} records, distinct ${json.barcodes?.distinct} ± ${json.barcodes?.distinct_error}, pairs ${json.umis?.distinct_pairs}`,
  )
}

/** Worker i's state merged into `into`; worker i starts again empty (statsDrain). */
function drainInto(
  into: StatsAccumulator,
  accs: StatsAccumulator[],
  i: number,
  prelude: Prelude,
  sem: ReturnType<typeof inferSemantics>,
): void {
  const state = accs[i]!.exportState()
  onPeak?.('state exported (worker still alive)')
  accs[i] = createStatsAccumulator(prelude, sem)
  into.merge(state)
  onPeak?.('state merged (state still alive)')
}

/** Samples memory at the merge's high points (set by memory()). */
let onPeak: ((what: string) => void) | undefined

function readSyncAt(fd: number, into: Uint8Array, pos: number): number {
  return readSync(fd, into, 0, into.length, pos)
}

const [mode = 'salmon', a, b] = process.argv.slice(2)
if (mode === 'memory') memory(Number(a ?? 1024), Number(b ?? 3), Number(process.argv[5] ?? 0))
else speed(mode, Number(a ?? 256))
