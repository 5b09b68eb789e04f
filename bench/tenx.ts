/**
 * 10x-shaped benchmark inputs (bench/results.md, ADR 0009's fourth round): the shape of a
 * real droplet run, which salmon-1g.rad (15k barcodes) is not.
 * - K cells (default 10,000) with log-normal read counts take 80 % of the reads; each cell draws
 *   its UMIs from a pool of 1.2× its expected reads (PCR duplicates), so some pairs repeat;
 * - 1,000,000 ambient barcodes share the other 20 %, uniformly, each read a fresh random UMI;
 * - 16-nt barcodes (b u32), 12-nt UMIs (u u32), 1–4 alignments per record, the same for every read of a molecule (compressed_ori_refid,
 *   docs/format.md §5.3), 5,000 records a chunk, records in random barcode order;
 * - the collated variant holds the same records with each barcode's records contiguous, one chunk
 *   a barcode (as alevin-fry's collate writes them);
 * - the BUS variant (bus.ts) holds the same records, in the same order, for bustools.
 *
 *   npx tsx bench/tenx.ts [MiB…]    writes bench/data/tenx-<MiB>m{.rad,-collated.rad,.bus} (kept when present)
 *
 * The prelude comes from the project's RAD writer (test/helpers/radWriter.ts buildRad); records are
 * packed here with a DataView in the layout writeRecord uses (num_aln u32, b, u, then one u32 per
 * alignment), since a RecordSpec object per record would take minutes for 47M records.
 */
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { buildRad, tag } from '../test/helpers/radWriter'
import { writeBus } from './bus'

export const DATA = join(import.meta.dirname, 'data')
const MiB = 1 << 20
const RECORDS_PER_CHUNK = 5000
const REF_COUNT = 20_000
const CELL_SHARE = 0.8
const UMI_POOL_PER_READ = 1.2
/** Mean record bytes: 12 (num_aln, b, u) + 2.5 alignments × 4. */
const MEAN_RECORD_BYTES = 22

export interface TenxShape {
  cells: number
  ambient: number
  /** Log-normal σ of the cells' read counts. */
  sigma: number
  seed: number
}

export const DEFAULT_SHAPE: TenxShape = { cells: 10_000, ambient: 1_000_000, sigma: 1, seed: 2026 }

/** The records, column by column: barcode value, UMI value, alignment count, and a seed for the alignments. */
export interface TenxRecords {
  barcode: Uint32Array
  umi: Uint32Array
  naln: Uint8Array
  count: number
}

/** splitmix32-style generator: deterministic, fast, uniform in [0, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s + 0x9e3779b9) | 0
    let z = s
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return ((z ^ (z >>> 16)) >>> 0) / 2 ** 32
  }
}

function mix(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d)
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b)
  return (x ^ (x >>> 16)) >>> 0
}

/** K + ambient distinct random 32-bit barcodes (16 nt, 2-bit packed, docs/format.md §7.8). */
function distinctBarcodes(n: number, random: () => number): Uint32Array {
  const seen = new Set<number>()
  const out = new Uint32Array(n)
  for (let i = 0; i < n;) {
    const b = Math.floor(random() * 2 ** 32)
    if (seen.has(b)) continue
    seen.add(b)
    out[i++] = b
  }
  return out
}

/** Generates `records` records of the shape (same seed, same records). */
export function tenxRecords(records: number, shape: TenxShape = DEFAULT_SHAPE): TenxRecords {
  const random = rng(shape.seed)
  const { cells, ambient } = shape
  const barcodes = distinctBarcodes(cells + ambient, random)
  const weights = new Float64Array(cells)
  let total = 0
  for (let c = 0; c < cells; c++) {
    const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
    weights[c] = Math.exp(shape.sigma * normal)
    total += weights[c]!
  }
  const cumulative = new Float64Array(cells)
  const pool = new Uint32Array(cells)
  let acc = 0
  for (let c = 0; c < cells; c++) {
    acc += weights[c]! / total
    cumulative[c] = acc
    pool[c] = Math.max(1, Math.round(UMI_POOL_PER_READ * CELL_SHARE * records * (weights[c]! / total)))
  }
  const out: TenxRecords = {
    barcode: new Uint32Array(records),
    umi: new Uint32Array(records),
    naln: new Uint8Array(records),
    count: records,
  }
  for (let r = 0; r < records; r++) {
    if (random() < CELL_SHARE) {
      const c = pickCell(cumulative, random())
      out.barcode[r] = barcodes[c]!
      out.umi[r] = mix(Math.imul(c + 1, 0x9e3779b1) + Math.floor(random() * pool[c]!)) & 0xffffff
    } else {
      out.barcode[r] = barcodes[cells + Math.floor(random() * ambient)]!
      out.umi[r] = Math.floor(random() * 2 ** 24)
    }
    out.naln[r] = 1 + (moleculeHash(out.barcode[r]!, out.umi[r]!, 0) % 4)
  }
  return out
}

function pickCell(cumulative: Float64Array, u: number): number {
  let lo = 0
  let hi = cumulative.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (cumulative[mid]! < u) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** A hash of (barcode, UMI, k): the reads of one molecule (PCR duplicates) align alike. */
function moleculeHash(barcode: number, umi: number, k: number): number {
  return mix(Math.imul(barcode, 0x9e3779b1) ^ Math.imul(umi + 0x632be5ab, 0x85ebca77) ^ Math.imul(k + 1, 0xc2b2ae3d))
}

/**
 * Alignment k of a molecule: forward 85 % of the time, a reference drawn from (barcode, UMI), so
 * that every read of a molecule aligns the same way and a BUS file's ec (the first reference) is
 * one per (barcode, UMI) pair, as it is for real molecules.
 */
export function alignmentWord(barcode: number, umi: number, k: number): number {
  const h = moleculeHash(barcode, umi, k + 1)
  const forward = (h & 0xff) < 217 ? 0x80000000 : 0
  return (forward | ((h >>> 8) % REF_COUNT)) >>> 0
}

function preludeBytes(chunks: number): Uint8Array {
  return buildRad({
    refs: { count: REF_COUNT, name: (i) => `T${String(i).padStart(6, '0')}` },
    fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16')],
    readTags: [tag('b', 'u32'), tag('u', 'u32')],
    alnTags: [tag('compressed_ori_refid', 'u32')],
    fileValues: [16, 12],
    numChunks: chunks,
  }).bytes
}

/** Writes the records in `order` as RAD chunks; chunk c holds order[chunkStarts[c] … chunkStarts[c + 1]). */
function writeRad(out: string, recs: TenxRecords, order: Uint32Array, chunkStarts: Uint32Array): void {
  const tmp = `${out}.tmp`
  const fd = openSync(tmp, 'w')
  writeSync(fd, preludeBytes(chunkStarts.length - 1))
  const buf = new Uint8Array(16 * MiB)
  const dv = new DataView(buf.buffer)
  let at = 0
  for (let c = 0; c + 1 < chunkStarts.length; c++) {
    const from = chunkStarts[c]!
    const to = chunkStarts[c + 1]!
    if (at + 8 + (to - from) * 28 > buf.length) {
      writeSync(fd, buf, 0, at)
      at = 0
    }
    const head = at
    at += 8
    for (let i = from; i < to; i++) {
      const r = order[i]!
      const n = recs.naln[r]!
      dv.setUint32(at, n, true)
      dv.setUint32(at + 4, recs.barcode[r]!, true)
      dv.setUint32(at + 8, recs.umi[r]!, true)
      at += 12
      for (let k = 0; k < n; k++, at += 4) dv.setUint32(at, alignmentWord(recs.barcode[r]!, recs.umi[r]!, k), true)
    }
    dv.setUint32(head, at - head, true)
    dv.setUint32(head + 4, to - from, true)
  }
  writeSync(fd, buf, 0, at)
  closeSync(fd)
  renameSync(tmp, out)
}

/** Chunk boundaries every RECORDS_PER_CHUNK records. */
function fixedChunks(n: number): Uint32Array {
  const starts = new Uint32Array(Math.ceil(n / RECORDS_PER_CHUNK) + 1)
  for (let c = 0; c < starts.length; c++) starts[c] = Math.min(n, c * RECORDS_PER_CHUNK)
  return starts
}

/** The records ordered by barcode (stable), and one chunk a barcode. */
function collatedOrder(recs: TenxRecords): { order: Uint32Array; starts: Uint32Array } {
  const order = Uint32Array.from({ length: recs.count }, (_, i) => i)
  const keys = recs.barcode
  const sorted = order.sort((a, b) => keys[a]! - keys[b]! || a - b)
  const starts: number[] = [0]
  for (let i = 1; i < sorted.length; i++) if (keys[sorted[i]!] !== keys[sorted[i - 1]!]) starts.push(i)
  starts.push(sorted.length)
  return { order: sorted, starts: Uint32Array.from(starts) }
}

export interface TenxFiles {
  rad: string
  collated: string
  bus: string
}

export function tenxPaths(mib: number): TenxFiles {
  const base = join(DATA, `tenx-${String(mib)}m`)
  return { rad: `${base}.rad`, collated: `${base}-collated.rad`, bus: `${base}.bus` }
}

/** Writes the files of `mib` MiB that are not there yet (the collated and BUS ones only when asked). */
export function writeTenx(mib: number, want: { collated: boolean; bus: boolean }): TenxFiles {
  mkdirSync(DATA, { recursive: true })
  const files = tenxPaths(mib)
  const missing =
    !existsSync(files.rad) || (want.collated && !existsSync(files.collated)) || (want.bus && !existsSync(files.bus))
  if (!missing) return files
  console.error(`[bench] writing the ${String(mib)} MiB 10x-shaped files in bench/data…`)
  const recs = tenxRecords(Math.round((mib * MiB) / MEAN_RECORD_BYTES))
  const identity = Uint32Array.from({ length: recs.count }, (_, i) => i)
  if (!existsSync(files.rad)) writeRad(files.rad, recs, identity, fixedChunks(recs.count))
  if (want.bus && !existsSync(files.bus)) {
    writeBus(files.bus, recs, (r) => alignmentWord(recs.barcode[r]!, recs.umi[r]!, 0) & 0x7fffffff)
  }
  if (want.collated && !existsSync(files.collated)) {
    const { order, starts } = collatedOrder(recs)
    writeRad(files.collated, recs, order, starts)
  }
  return files
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const sizes = process.argv.slice(2).map(Number)
  for (const mib of sizes.length > 0 ? sizes : [200, 1024]) {
    const files = writeTenx(mib, { collated: mib <= 200, bus: mib <= 200 })
    process.stdout.write(`${JSON.stringify(files)}\n`)
  }
}
