/**
 * RAD subsets (docs/subsets.md; rad/subsetWriter.ts, io/exportSelection.ts): the
 * subset re-reads through our reader with no issue, record for record equal
 * to the chosen records of the source, and byte for byte equal to what the
 * test-only writer (written from the spec, not from src/) makes of those
 * records: a check that does not share our reader's reading of the format.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { exportSelection, writeSubset } from '../../src/io/exportSelection'
import type { ExportOptions } from '../../src/io/exportSelection'
import { openRad } from '../../src/io/openRad'
import type { RecordSelection } from '../../src/io/selectedRecords'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { SUBSET_MAX_RECORDS } from '../../src/rad/subsetWriter'
import {
  atacPiscemCpp,
  atacPiscemRs,
  bulk,
  multiBarcodeV2,
  piscemScRnaV2,
  salmonScRna,
  scLongRead,
} from '../helpers/assays'
import { SALMON_V2, SALMON_V3, SALMON_V3_P3, SALMON_V3_SKETCH } from '../helpers/fixtures'
import { MemorySink } from '../helpers/memorySink'
import { arrayTag, buildRad, loadZstd, snappyFrame, tag } from '../helpers/radWriter'
import type { CodecName, RadSpec, RecordSpec } from '../helpers/radWriter'
import { flatRecords, readRad } from '../helpers/read'

await loadZstd()

async function subsetOf(file: Uint8Array, sel: RecordSelection, opts: ExportOptions = {}): Promise<Uint8Array> {
  const { source, prelude } = await openRad(new BytesSource(file, 'in.rad'))
  const sink = new MemorySink()
  await writeSubset(source, prelude, sel, sink, opts)
  return sink.bytes()
}

/** Records of a read file, without their chunk numbers (a subset regroups them). */
async function records(file: Uint8Array): Promise<unknown[]> {
  const read = await readRad(file)
  expect(read.scan.issues.filter((i) => i.severity !== 'info')).toEqual([])
  return flatRecords(read).map(({ record, alns }) => ({ record, alns }))
}

/** Global record numbers of chunks [from, to] and record range, as the selection means them. */
async function chosen(file: Uint8Array, sel: RecordSelection): Promise<number[]> {
  const read = await readRad(file)
  const out: number[] = []
  for (let k = 0; k < read.scan.index.count; k++) {
    if (sel.chunks && (k < sel.chunks[0] || k > sel.chunks[1])) continue
    const first = read.scan.index.firstRecord[k] ?? 0
    for (let r = first; r < first + (read.scan.index.nrec[k] ?? 0); r++) {
      if (!sel.records || (r >= sel.records[0] && r <= sel.records[1])) out.push(r)
    }
  }
  return out
}

async function expectSubset(file: Uint8Array, sel: RecordSelection, opts: ExportOptions = {}): Promise<Uint8Array> {
  const out = await subsetOf(file, sel, opts)
  const all = await records(file)
  const want = (await chosen(file, sel)).map((r) => all[r])
  expect(await records(out)).toEqual(want)
  return out
}

const SALMON = {
  'salmon v3': SALMON_V3,
  'salmon v2': SALMON_V2,
  'salmon sketch': SALMON_V3_SKETCH,
  'salmon p3': SALMON_V3_P3,
}

describe('subsets of the salmon fixtures', () => {
  it.each(Object.entries(SALMON))('%s: a chunk range, a record range across chunks, and both', async (_name, path) => {
    const file = new Uint8Array(readFileSync(path))
    const count = (await readRad(file)).scan.index.count
    expect(count).toBeGreaterThan(1)
    await expectSubset(file, { chunks: [1, count - 1] })
    await expectSubset(file, { records: [4990, 5020] })
    await expectSubset(file, { chunks: [0, 1], records: [100, 7000] })
  })

  it('the whole file regrouped: same prelude but num_chunks, chunks of SUBSET_MAX_RECORDS', async () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const out = await expectSubset(file, {})
    const source = await readRad(file)
    const subset = await readRad(out)
    const head = source.prelude.firstChunkOffset
    expect(subset.prelude.firstChunkOffset).toBe(head)
    const n = source.prelude.numChunksOffset
    expect(out.subarray(0, n)).toEqual(file.subarray(0, n))
    expect(out.subarray(n + 8, head)).toEqual(file.subarray(n + 8, head))
    expect(subset.prelude.numChunks).toBe(subset.scan.index.count)
    expect(subset.scan.index.count).toBe(Math.ceil(source.scan.records / SUBSET_MAX_RECORDS))
    expect(subset.scan.convention).toBe('header-inclusive')
  })

  it('streams: every piece written is a prelude or one chunk, never the whole file', async () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const { source, prelude } = await openRad(new BytesSource(file, 'in.rad'))
    const sink = new MemorySink()
    const summary = await writeSubset(source, prelude, {}, sink, { maxRecords: 1000 })
    expect(sink.pieces).toHaveLength(1 + summary.chunks)
    expect(Math.max(...sink.pieces.map((p) => p.length))).toBeLessThan(file.length / 4)
  })

  it('an empty selection is a valid file with no chunks', async () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const out = await subsetOf(file, { chunks: [100, 200] })
    const read = await readRad(out)
    expect(read.scan.index.count).toBe(0)
    expect(read.scan.issues.filter((i) => i.severity !== 'info')).toEqual([])
  })
})

/** The spec's records, in file order. */
function specRecords(spec: RadSpec): RecordSpec[] {
  return (spec.chunks ?? []).flatMap((c) => c.records ?? [])
}

function withCodec(spec: RadSpec, codec: CodecName | 0): RadSpec {
  const id = codec === 'lz4' ? 1 : codec === 'zstd' ? 2 : 0
  const values = spec.fileValues ?? {}
  if (Array.isArray(values)) throw new Error('test specs name their file values')
  return {
    ...spec,
    fileTags: [...(spec.fileTags ?? []), tag('chunk_codec', 'u8')],
    fileValues: { ...(values as Record<string, unknown>), chunk_codec: id },
  }
}

/** What the test-only writer makes of `records` in chunks of `per` (header-inclusive, uncompressed). */
function expectedFile(spec: RadSpec, records: readonly RecordSpec[], per: number): Uint8Array {
  const chunks = []
  for (let i = 0; i < records.length; i += per) chunks.push({ records: records.slice(i, i + per) })
  return buildRad({ ...spec, chunks, nbytes: 'header-inclusive', numChunks: undefined }).bytes
}

const VARIABLE: RadSpec = {
  refs: ['r0', 'r1', 'r2'],
  fileTags: [tag('note', 'string')],
  readTags: [tag('b', 'u32'), tag('name', 'string'), arrayTag('quals', 'u8', 'u16')],
  alnTags: [tag('ref', 'u32'), arrayTag('cigar', 'u16', 'u32')],
  fileValues: { note: 'variable-width records' },
  chunks: [0, 1, 2].map((c) => ({
    records: [0, 1, 2].map((i) => ({
      read: { b: c * 10 + i, name: `read-${String(c)}-${String(i)}${'x'.repeat(i * 7)}`, quals: Array(i + c).fill(30) },
      alns: Array.from({ length: (i + c) % 3 }, (_, a) => ({ ref: a % 3, cigar: [a, i, c].slice(0, a + 1) })),
    })),
  })),
}

const ASSAYS: [string, RadSpec][] = [
  ['salmon scRNA (legacy)', salmonScRna()],
  ['piscem-rs scRNA with positions (v2)', piscemScRnaV2(true)],
  ['multi-barcode (v2)', multiBarcodeV2()],
  ['bulk (legacy)', bulk(false)],
  ['bulk (v2)', bulk(true)],
  ['scATAC, payload-only nbytes', atacPiscemCpp('payload-only')],
  ['scATAC (v2)', atacPiscemRs()],
  ['single-cell long read', scLongRead()],
  ['strings and arrays', VARIABLE],
]

describe('subsets of writer-made files equal what the independent writer makes of the chosen records', () => {
  const cases = ASSAYS.flatMap(([name, spec]) =>
    (['none', 'lz4', 'zstd'] as const).map((codec) => ({ name: `${name}, ${codec}`, spec, codec })),
  )
  it.each(cases)('$name', async ({ spec, codec }) => {
    const source = codec === 'none' ? spec : withCodec(spec, codec)
    const file = buildRad(source).bytes
    const all = specRecords(spec)
    const last = all.length - 1
    for (const sel of [
      {},
      { records: [1, last] as const },
      { chunks: [1, 1] as const },
      { records: [last, last] as const },
    ]) {
      const out = await expectSubset(file, sel, { maxRecords: 2 })
      const picked = (await chosen(file, sel)).map((r) => all[r] as RecordSpec)
      const plain = codec === 'none' ? spec : withCodec(spec, 0)
      expect(Buffer.from(out).equals(Buffer.from(expectedFile(plain, picked, 2)))).toBe(true)
    }
  })

  it('a .sz (Snappy-framed) input is written as a plain RAD file', async () => {
    const file = buildRad(salmonScRna()).bytes
    const out = await expectSubset(snappyFrame(file), { records: [1, 3] }, { maxRecords: 2 })
    expect(
      Buffer.from(out).equals(Buffer.from(expectedFile(salmonScRna(), specRecords(salmonScRna()).slice(1, 4), 2))),
    ).toBe(true)
  })
})

describe('regrouping', () => {
  const spec = salmonScRna(undefined, 2)
  const file = buildRad(spec).bytes

  it('maxBytes splits chunks by size; a record larger than it gets a chunk alone', async () => {
    const read = await readRad(await expectSubset(file, {}, { maxBytes: 1 }))
    expect(read.scan.index.count).toBe(specRecords(spec).length)
  })

  it('keepSourceChunks (collated files): one output chunk per source chunk kept, never merged or split', async () => {
    const out = await expectSubset(file, { records: [1, 4] }, { keepSourceChunks: true, maxRecords: 1 })
    const read = await readRad(out)
    expect([...read.scan.index.nrec.subarray(0, read.scan.index.count)]).toEqual([1, 2, 1])
  })

  it('the writer writes header-inclusive nbytes for a payload-only source', async () => {
    const src = buildRad(atacPiscemCpp('payload-only')).bytes
    const read = await readRad(await expectSubset(src, {}))
    const { index, convention } = read.scan
    expect(convention).toBe('header-inclusive')
    expect(chunkSpan(index.nbytes[0] ?? 0, convention)).toBe(index.nbytes[0])
  })
})

describe('text exports', () => {
  it('tsv is the view lines and jsonl the dump lines of the chosen records', async () => {
    const file = new Uint8Array(readFileSync(SALMON_V3))
    const { source, prelude } = await openRad(new BytesSource(file, 'in.rad'))
    const tsv = new MemorySink()
    await exportSelection('tsv', source, prelude, { records: [4999, 5001] }, tsv)
    const lines = new TextDecoder().decode(tsv.bytes()).trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID:4999\tHI:1\tNH:\d+\tCB:[ACGT]{16}\tUMI:[ACGT]{12}\tDIR:(true|false)\t/)
    expect(new Set(lines.map((l) => l.split('\t')[0]))).toEqual(new Set(['ID:4999', 'ID:5000', 'ID:5001']))
    const jsonl = new MemorySink()
    await exportSelection('jsonl', source, prelude, { chunks: [1, 1], records: [0, 6000] }, jsonl)
    const objects = new TextDecoder()
      .decode(jsonl.bytes())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { chunk: number; rec: number })
    expect(objects[0]).toMatchObject({ chunk: 1, rec: 0 })
    expect(objects.every((o, i) => o.chunk === 1 && o.rec === i)).toBe(true)
  })
})

describe('the scanned walk (scanNumberedChunks) stops right after the selection, as view does', () => {
  // One record per chunk; the file ends inside chunk 3's records (§4.1: TRUNCATED).
  const built = buildRad(salmonScRna(undefined, 1))
  const cut = built.bytes.subarray(0, (built.layout.chunks[3]?.payloadOffset ?? 0) + 2)

  it.each([{ chunks: [1, 2] }, { records: [0, 2] }] satisfies RecordSelection[])(
    'a fault after the selection is never read: %o',
    async (sel) => {
      const out = await subsetOf(cut, sel)
      const read = await readRad(out)
      expect(read.scan.records).toBe(sel.chunks ? 2 : 3)
    },
  )

  it('a fault inside it stops the subset with its error', async () => {
    await expect(subsetOf(cut, { chunks: [2, 3] })).rejects.toThrow(/file ends inside chunk 3/)
  })
})
