/**
 * Real salmon 1.10.1 `alevin --rad` output (test/fixtures/salmon/README.md):
 * counts pinned to the README table, and decoded values checked against the
 * simulation's truth tables.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decode2bit } from '../../src/rad/text/display'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { viewLines } from '../../src/rad/text/viewLine'
import {
  SALMON_V2,
  SALMON_V3,
  SALMON_V3_P3,
  SALMON_V3_SKETCH,
  UNMAPPED_V3,
  readNames,
  readTruth,
} from '../helpers/fixtures'
import type { TruthRow } from '../helpers/fixtures'
import { flatRecords, readRad } from '../helpers/read'
import type { FlatRecord, ReadResult } from '../helpers/read'

interface Expected {
  path: string
  bytes: number
  records: number
  alignments: number
  perChunk: number[]
  ulen: number
  chemistry: 'v2' | 'v3'
}

const FILES: Record<string, Expected> = {
  'rad-chromium-v3-small.rad': {
    path: SALMON_V3,
    bytes: 377413,
    records: 18949,
    alignments: 36199,
    perChunk: [5001, 5001, 5001, 3946],
    ulen: 12,
    chemistry: 'v3',
  },
  'sketch-chromium-v3-small.rad': {
    path: SALMON_V3_SKETCH,
    bytes: 378005,
    records: 18962,
    alignments: 36308,
    perChunk: [5001, 5001, 5001, 3959],
    ulen: 12,
    chemistry: 'v3',
  },
  'rad-chromium-v2-small.rad': {
    path: SALMON_V2,
    bytes: 376457,
    records: 18919,
    alignments: 36050,
    perChunk: [5001, 5001, 5001, 3916],
    ulen: 10,
    chemistry: 'v2',
  },
  'rad-chromium-v3-small-p3.rad': {
    path: SALMON_V3_P3,
    bytes: 377413,
    records: 18949,
    alignments: 36199,
    perChunk: [5001, 5001, 4456, 4491],
    ulen: 12,
    chemistry: 'v3',
  },
}

const cache = new Map<string, Promise<ReadResult>>()
function read(path: string): Promise<ReadResult> {
  let p = cache.get(path)
  if (!p) {
    p = readRad(new Uint8Array(readFileSync(path)))
    cache.set(path, p)
  }
  return p
}

const truthCache = new Map<string, TruthRow[]>()
function truth(chemistry: 'v2' | 'v3'): TruthRow[] {
  let t = truthCache.get(chemistry)
  if (!t) {
    t = readTruth(chemistry)
    truthCache.set(chemistry, t)
  }
  return t
}

const pair = (f: FlatRecord): string => `${f.record.barcodes[0] ?? ''}:${f.record.umi ?? ''}`

describe.each(Object.entries(FILES))('%s', (_name, want) => {
  it('has the size, chunk, record and alignment counts of the README table', async () => {
    const r = await read(want.path)
    expect(r.source.size).toBe(want.bytes)
    expect(r.prelude.numChunks).toBe(4)
    expect(r.scan.index.count).toBe(4)
    expect(Array.from(r.scan.index.nrec)).toEqual(want.perChunk)
    expect(r.scan.records).toBe(want.records)
    expect(r.chunks.reduce((n, c) => n + c.alignmentCount, 0)).toBe(want.alignments)
    expect(r.scan.convention).toBe('header-inclusive')
    expect(r.scan.endOffset).toBe(want.bytes) // chunks end exactly at EOF
    expect(r.scan.warnings).toEqual([])
  })

  it('has the documented prelude: legacy, unpaired, 244 references, cblen/ulen, chunk 0 at 5197', async () => {
    const r = await read(want.path)
    expect(r.prelude).toMatchObject({
      version: [0, 0],
      paired: false,
      refCount: 244,
      numChunksOffset: 5133,
      firstChunkOffset: 5197,
      codec: 'none',
      fileTagValues: [16, want.ulen],
    })
    const names = (tags: typeof r.prelude.fileTags): [string, number][] => tags.map((t) => [t.name, t.type.id])
    expect(names(r.prelude.fileTags)).toEqual([
      ['cblen', 2],
      ['ulen', 2],
    ])
    expect(names(r.prelude.readTags)).toEqual([
      ['b', 3],
      ['u', 3],
    ])
    expect(names(r.prelude.alnTags)).toEqual([['compressed_ori_refid', 3]])
    expect(r.prelude.refNames).toEqual(readNames())
    expect(r.sem.assay).toBe('scRNA')
    expect(r.scan.index.offset[0]).toBe(5197)
  })

  it('every record is a read of the truth table: same CB and UMI, true transcript among its alignments, same strand', async () => {
    const r = await read(want.path)
    const rows = truth(want.chemistry)
    const byPair = new Map<string, TruthRow[]>()
    for (const row of rows) {
      const key = `${row.cb}:${row.umi}`
      byPair.set(key, [...(byPair.get(key) ?? []), row])
    }
    let hits = 0
    let strandAgrees = 0
    const notInTruth: string[] = []
    const badLength: string[] = []
    const records = flatRecords(r)
    for (const f of records) {
      const candidates = byPair.get(pair(f))
      if (!candidates) notInTruth.push(pair(f))
      const row = candidates?.find((c) => c.kind === 'tx' && f.alns.some((a) => a.refId === c.tx))
      if (row) {
        hits++
        const aln = f.alns.find((a) => a.refId === row.tx)
        if ((aln?.ori === 'fw') === (row.strand === '+')) strandAgrees++
      }
      if (f.record.barcodes[0]?.length !== 16 || f.record.umi?.length !== want.ulen) badLength.push(pair(f))
    }
    expect(notInTruth).toEqual([])
    expect(badLength).toEqual([])
    // Simulated reads map back to their transcript (sense reads forward, antisense rc).
    expect(hits / records.length).toBeGreaterThan(0.99)
    expect(strandAgrees / hits).toBeGreaterThan(0.99)
  })
})

describe('rad-chromium-v3-small.rad against the truth, read by read', () => {
  it('with one mapping thread, records are the mapped reads in read order', async () => {
    const r = await read(SALMON_V3)
    const rows = truth('v3')
    const names = readNames()
    let t = 0
    let skippedTx = 0
    const mismatches: string[] = []
    for (const f of flatRecords(r)) {
      while (t < rows.length && `${rows[t]?.cb}:${rows[t]?.umi}` !== pair(f)) {
        if (rows[t]?.kind === 'tx') skippedTx++
        t++
      }
      const row = rows[t++]
      if (!row) throw new Error('ran out of truth rows')
      const aln = f.alns.find((a) => a.refId === row.tx)
      if (row.kind !== 'tx' || !aln || (aln.ori === 'fw') !== (row.strand === '+') || aln.refName !== names[row.tx]) {
        mismatches.push(row.read)
      }
    }
    expect(mismatches).toEqual([])
    expect(skippedTx).toBeLessThan(100) // tx reads salmon could not map
  })

  it('prints the first alevin-fry view lines', async () => {
    const r = await read(SALMON_V3)
    const lines = viewLines(r.chunks[0]!, 0, r.prelude, r.sem).slice(0, 4)
    expect(lines).toEqual([
      'ID:0\tHI:1\tNH:3\tCB:CTACGACAGACCAAGT\tUMI:GCTTAATTCCAT\tDIR:true\tTX00104-1|GENE00104',
      'ID:0\tHI:2\tNH:3\tCB:CTACGACAGACCAAGT\tUMI:GCTTAATTCCAT\tDIR:true\tTX00104-2|GENE00104',
      'ID:0\tHI:3\tNH:3\tCB:CTACGACAGACCAAGT\tUMI:GCTTAATTCCAT\tDIR:true\tTX00104-3|GENE00104',
      'ID:1\tHI:1\tNH:1\tCB:TTCATTCAAACAAAGC\tUMI:ATGTAACAACGA\tDIR:false\tTX00047-1|GENE00047',
    ])
    expect(readTruth('v3')[0]).toMatchObject({ cb: 'CTACGACAGACCAAGT', umi: 'GCTTAATTCCAT', kind: 'tx' })
  })

  it('the -p 3 file holds the same records, in another order', async () => {
    const [a, b] = await Promise.all([read(SALMON_V3), read(SALMON_V3_P3)])
    const key = (f: FlatRecord): string => `${pair(f)}>${f.alns.map((x) => `${x.refId}${x.ori}`).join(',')}`
    const sorted = (r: ReadResult): string[] => flatRecords(r).map(key).sort()
    expect(sorted(b)).toEqual(sorted(a))
  })
})

describe('rad-chromium-v3-small.unmapped_bc_count.bin (legacy sidecar, §8)', () => {
  const bin = readFileSync(UNMAPPED_V3)
  const view = new DataView(bin.buffer, bin.byteOffset, bin.byteLength)
  const entries = Array.from({ length: bin.length / 12 }, (_, i) => ({
    barcode: decode2bit(view.getBigUint64(12 * i, true), 16),
    count: view.getUint32(12 * i + 8, true),
  }))

  it('holds 198 (u64 barcode, u32 count) entries whose counts add to 20,000 − 18,949', async () => {
    expect(bin.length).toBe(2376)
    expect(entries).toHaveLength(198)
    const total = entries.reduce((n, e) => n + e.count, 0)
    const r = await read(SALMON_V3)
    expect(total).toBe(20_000 - r.scan.records)
    expect(total).toBe(1051)
  })

  it('its barcodes are cell barcodes of the simulated reads', () => {
    const cbs = new Set(truth('v3').map((t) => t.cb))
    expect(entries.filter((e) => !cbs.has(e.barcode))).toEqual([])
  })
})

describe('header bytes', () => {
  it('num_chunks at byte 5133 is the little-endian u64 4', () => {
    const bytes = readFileSync(SALMON_V3)
    expect(Array.from(bytes.subarray(5133, 5141))).toEqual([4, 0, 0, 0, 0, 0, 0, 0])
    const p = parsePrelude(bytes.subarray(0, 6000), bytes.length)
    expect(p.firstChunkOffset).toBe(5197)
  })
})
