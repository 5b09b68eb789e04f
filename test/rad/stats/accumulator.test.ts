/**
 * The statistics pass on files whose figures are known exactly: writer-built
 * files of every assay (test/helpers/assays.ts), the real salmon fixtures
 * (checked against the display path, an independent decode of the same
 * records), merges, and the caps' approximations (docs/stats.md).
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  barcodeRuns,
  barcodeTsv,
  createStatsAccumulator,
  mergeStates,
  reportState,
  DEFAULT_TOP,
  statsJson,
  statsTransferables,
  umisPerBarcode,
} from '../../../src/rad/stats'
import type { StatsOptions } from '../../../src/rad/stats'
import { SALMON_V2, SALMON_V3 } from '../../helpers/fixtures'
import { ATAC_READS, atacPiscemRs, bulk, multiBarcodeV2, salmonScRna } from '../../helpers/assays'
import type { ScRead } from '../../helpers/assays'
import { MemorySpillStore } from '../../helpers/memorySpill'
import { radBytes } from '../../helpers/radWriter'
import { flatRecords, readRad } from '../../helpers/read'
import type { ReadResult } from '../../helpers/read'

function accumulate(r: ReadResult, opts?: StatsOptions, chunks = r.chunks) {
  const acc = createStatsAccumulator(r.prelude, r.sem, opts)
  for (const c of chunks) acc.addChunk(c)
  return acc.exportState()
}

async function statsOf(bytes: Uint8Array, opts?: StatsOptions) {
  const r = await readRad(bytes)
  return statsJson(accumulate(r, opts), r.prelude, r.sem, opts)
}

const A = 'AAAAAAAAAAAAAAAA'
const C = 'CCCCCCCCCCCCCCCC'
const G = 'GGGGGGGGGGGGGGGG'
const T = 'TTTTTTTTTTTTTTTT'
const X = 'ACGTACGTACGT'
const Y = 'TTTTGGGGCCCC'
const Z = 'CATCATCATCAT'

/**
 * Barcode A: UMIs X, X, Y (3 records, 2 pairs); G: Z, Z (2, 1); T: X, Y (2, 2); C: X (1, 1).
 * 8 records, 6 pairs; pair counts 2,1,2,1,1,1 → n1 = 4, n2 = 2.
 */
const READS: ScRead[] = [
  { cb: A, umi: X, alns: [{ ref: 0, fw: true }] },
  { cb: G, umi: Z, alns: [{ ref: 2, fw: false }] },
  {
    cb: A,
    umi: X,
    alns: [
      { ref: 0, fw: true },
      { ref: 1, fw: true },
    ],
  },
  { cb: T, umi: X, alns: [] },
  { cb: A, umi: Y, alns: [{ ref: 2, fw: true }] },
  {
    cb: C,
    umi: X,
    alns: [
      { ref: 1, fw: false },
      { ref: 2, fw: true },
      { ref: 3, fw: true },
    ],
  },
  { cb: G, umi: Z, alns: [{ ref: 2, fw: true }] },
  { cb: T, umi: Y, alns: [{ ref: 5, fw: false }] },
]

describe('single-cell statistics on a file with known figures', () => {
  it('gives every figure of the contract', async () => {
    const s = await statsOf(radBytes(salmonScRna(READS, 3)))
    expect(s.assay).toBe('scRNA')
    expect(s.records).toBe(8)
    expect(s.alignments).toBe(10)
    expect(s.alignments_per_record).toEqual([
      [0, 1],
      [1, 5],
      [2, 1],
      [3, 1],
    ])
    expect(s.orientation).toEqual({ fw: 7, rc: 3 })
    expect(s.barcodes).toMatchObject({
      tag: 'b',
      distinct: 4,
      reads_per_barcode: { mean: 2, median: 2 },
      // G and T tie on 2: key ascending.
      top: [
        [A, 3],
        [G, 2],
        [T, 2],
        [C, 1],
      ],
      exact: true,
      distinct_error: 0,
      untracked_records: 0,
      top_exact: true,
    })
    expect(s.umis).toEqual({
      distinct_pairs: 6,
      // per barcode: A 2, G 1, T 2, C 1
      per_barcode: { mean: 1.5, median: 1.5 },
      duplication_rate: 8 / 6,
      sequencing_saturation: 1 - 6 / 8,
      // Good–Toulmin at 2×: n1 − n2 = 4 − 2
      good_toulmin_2x: 2,
      exact: true,
      sampling_rate: 1,
      relative_error: 0,
    })
    expect(s.references).toEqual({
      with_alignments: 5,
      top: {
        // ref 2: unique 3 (G, A-Y, G) + multi 1 (C); ref 0: unique 1 + multi 1; ties by name ascending.
        all: [
          ['ENST0003|GeneB', 4],
          ['ENST0001|GeneA', 2],
          ['ENST0002|GeneA', 2],
          ['ENST0006|GeneΩ', 1],
          ['chr1', 1],
        ],
        unique: [
          ['ENST0003|GeneB', 3],
          ['ENST0001|GeneA', 1],
          ['ENST0006|GeneΩ', 1],
        ],
        multi: [
          ['ENST0002|GeneA', 2],
          ['ENST0001|GeneA', 1],
          ['ENST0003|GeneB', 1],
          ['chr1', 1],
        ],
      },
      alignments_unique: 5,
      alignments_multi: 5,
    })
    expect(s.chunks).toEqual({
      count: 3,
      records_per_chunk: { mean: 8 / 3, median: 3, min: 2, max: 3 },
      collated: false,
    })
    expect(s.exact).toBe(true)
    expect(s.notes).toEqual([])
  })

  it('knee and cut-offs come from the barcode counts, descending', async () => {
    const r = await readRad(radBytes(salmonScRna(READS, 3)))
    const state = accumulate(r)
    const runs = barcodeRuns(state)
    expect([...runs.values]).toEqual([3, 2, 1])
    expect([...runs.lengths]).toEqual([1, 2, 1])
    const s = statsJson(state, r.prelude, r.sem, { expectCells: 1, forceCells: 1 })
    expect(s.knee).toBe(s.cutoffs?.knee?.cells)
    expect(s.cutoffs?.force_cells).toMatchObject({ index: 0, cells: 1, minCount: 3 })
  })

  it('writes the MultiQC TSV: barcode, reads, distinct UMIs, above-knee flag', async () => {
    const r = await readRad(radBytes(salmonScRna(READS, 3)))
    const state = accumulate(r)
    expect(barcodeTsv(state, r.sem, 2)).toEqual([
      'barcode\treads\tdistinct_umis\tabove_knee',
      `${A}\t3\t2\t1`,
      `${G}\t2\t1\t1`,
      `${T}\t2\t2\t1`,
      `${C}\t1\t1\t0`,
    ])
  })
})

describe('other assays', () => {
  it('multi-barcode: per level and for the combined identity', async () => {
    const s = await statsOf(radBytes(multiBarcodeV2()))
    expect(s.assay).toBe('scRNA-multi-barcode')
    expect(s.barcodes?.tag).toBe('b0+b1')
    expect(s.barcodes?.distinct).toBe(3)
    expect(s.barcodes?.top).toEqual([
      ['AAAAAAAA+AAAAAAAAAAAAAAAAAAAA', 1],
      ['ACGTACGT+TTTTTTTTTTTTTTTTTTTT', 1],
      ['TTTTAAAA+GATTACAGATTACAGATTAC', 1],
    ])
    expect(s.barcodes?.levels?.map((l) => [l.tag, l.distinct, l.top[0]])).toEqual([
      ['b0', 3, ['AAAAAAAA', 1]],
      ['b1', 3, ['AAAAAAAAAAAAAAAAAAAA', 1]],
    ])
    expect(s.umis?.distinct_pairs).toBe(3)
    expect(s.alignments_per_record).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ])
  })

  it('bulk: frag_map_type, fragment lengths, orientations by pair type', async () => {
    for (const v2 of [false, true]) {
      const s = await statsOf(radBytes(bulk(v2)))
      expect(s.assay).toBe('bulk')
      expect(s.barcodes).toBeNull()
      expect(s.umis).toBeNull()
      expect(s.knee).toBeNull()
      expect(s.records).toBe(5)
      expect(s.alignments).toBe(8)
      expect(s.frag_map_type).toEqual([
        [0, 1],
        [1, 1],
        [2, 1],
        [3, 1],
        [4, 1],
      ])
      expect(s.fragment_length).toEqual([
        [300, 1],
        [301, 1],
        [302, 1],
        [303, 1],
      ])
      expect(s.fragment_length_unavailable).toBe(4)
      expect(s.orientation).toEqual({ fw: 2, rc: 2, ff: 1, fr: 1, rf: 1, rr: 1 })
      expect(s.orientation_by_type).toEqual({
        pair: { ff: 1, fr: 1, rf: 1, rr: 1 },
        single: { fw: 1, rc: 1 },
        'orphan (read 1)': { fw: 1 },
        'orphan (read 2)': { rc: 1 },
      })
      expect(s.references?.with_alignments).toBe(6)
    }
  })

  it('scATAC: barcodes, references, alignment mapping types, fragment lengths', async () => {
    const s = await statsOf(radBytes(atacPiscemRs()))
    expect(s.assay).toBe('scATAC')
    expect(s.barcodes?.distinct).toBe(ATAC_READS.length)
    expect(s.umis).toBeNull()
    expect(s.mapping_type).toEqual([
      [1, 1],
      [2, 1],
      [4, 2],
    ])
    expect(s.fragment_length).toEqual([
      [180, 1],
      [212, 1],
    ])
    expect(s.fragment_length_unavailable).toBe(2)
    expect(s.references?.top.all).toEqual([
      ['chr1', 2],
      ['chr2', 2],
    ])
    expect(s.orientation).toBeNull()
  })

  it('collated: one barcode per chunk gives per-cell figures from the chunks', async () => {
    const reads = [...READS].sort((a, b) => (a.cb < b.cb ? -1 : a.cb > b.cb ? 1 : 0))
    const spec = salmonScRna(reads, 100)
    const byCell = [A, C, G, T].map((cb) => ({
      records: (spec.chunks?.[0]?.records ?? []).filter((_, i) => reads[i]!.cb === cb),
    }))
    const s = await statsOf(radBytes({ ...spec, chunks: byCell }))
    expect(s.chunks).toEqual({
      count: 4,
      records_per_chunk: { mean: 2, median: 2, min: 1, max: 3 },
      collated: true,
      records_per_cell: { mean: 2, median: 2 },
    })
    // The same records in mixed chunks are not collated.
    expect((await statsOf(radBytes(salmonScRna(READS, 2)))).chunks.collated).toBe(false)
  })
})

/** Independent figures from the display path (recordView / alignmentView), with Maps: fine in a test. */
function expectedFromDisplay(r: ReadResult) {
  const perBarcode = new Map<string, number>()
  const pairs = new Map<string, number>()
  const perRef = new Map<string, number>()
  const ori = { fw: 0, rc: 0 }
  for (const { record, alns } of flatRecords(r)) {
    const cb = record.barcodes[0]!
    perBarcode.set(cb, (perBarcode.get(cb) ?? 0) + 1)
    const pair = `${cb}:${record.umi ?? ''}`
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1)
    for (const a of alns) {
      ori[a.ori as 'fw' | 'rc']++
      perRef.set(a.refName, (perRef.get(a.refName) ?? 0) + 1)
    }
  }
  const rank = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20)
  let gt = 0
  for (const n of pairs.values()) gt += n % 2 === 1 ? 1 : -1
  return { perBarcode, pairs, ori, top: rank(perBarcode), refTop: rank(perRef), refs: perRef.size, gt }
}

describe('the real salmon fixtures', () => {
  it.each([
    ['v3', SALMON_V3],
    ['v2', SALMON_V2],
  ])('%s: the same figures as the display path', async (_name, path) => {
    const r = await readRad(new Uint8Array(readFileSync(path)))
    const s = statsJson(accumulate(r), r.prelude, r.sem)
    const want = expectedFromDisplay(r)
    expect(s.barcodes?.distinct).toBe(want.perBarcode.size)
    expect(s.barcodes?.top).toEqual(want.top)
    expect(s.umis?.distinct_pairs).toBe(want.pairs.size)
    expect(s.umis?.good_toulmin_2x).toBe(want.gt)
    expect(s.orientation).toEqual(want.ori)
    expect(s.references?.top.all).toEqual(want.refTop)
    expect(s.references?.with_alignments).toBe(want.refs)
    expect(s.exact).toBe(true)
    expect(s.knee).toBeGreaterThan(0)
  })

  it('two accumulators with the chunks split between them merge to the same JSON as one', async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const one = statsJson(accumulate(r), r.prelude, r.sem)
    const even = accumulate(
      r,
      undefined,
      r.chunks.filter((_, k) => k % 2 === 0),
    )
    const odd = accumulate(
      r,
      undefined,
      r.chunks.filter((_, k) => k % 2 === 1),
    )
    // Through structured cloning with the buffers transferred, as between workers.
    const moved = structuredClone(odd, { transfer: statsTransferables(odd) })
    expect(statsJson(mergeStates(r.prelude, r.sem, even, moved), r.prelude, r.sem)).toEqual(one)
    expect(statsJson(mergeStates(r.prelude, r.sem, moved, even), r.prelude, r.sem)).toEqual(one)
  })

  it("a partial report's states carry their barcodes folded into a digest, and their sum has every figure of the whole", async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const one = statsJson(accumulate(r), r.prelude, r.sem)
    const owners = [0, 1].map((index) =>
      createStatsAccumulator(r.prelude, r.sem, { bucketOwners: { count: 2, index } }),
    )
    r.chunks.forEach((c, k) => {
      const acc = owners[k % 2]!
      acc.addChunk(c)
      acc.takeForeignRows().forEach((rows, o) => {
        if (rows) owners[o]!.addForeignRows(rows)
      })
    })
    // As statsWorker.ts's sumSoFar: worker 0's own state and worker 1's snapshot summed in a fresh accumulator.
    const states = [owners[0]!.exportState('partial'), reportState(owners[1]!.exportState('partial'))]
    for (const s of states) {
      // No row per barcode (ADR 0016): the digest, and its top barcodes as the table.
      expect(s.partitions?.digest?.barcodes).toBeGreaterThan(0)
      expect(s.partitions?.barcodes.every((codes) => codes.length === 0)).toBe(true)
      expect(s.barcodes[0]!.table.size).toBeLessThanOrEqual(DEFAULT_TOP)
    }
    const sum = createStatsAccumulator(r.prelude, r.sem)
    for (const s of states) sum.merge(structuredClone(s, { transfer: statsTransferables(s) }))
    expect(statsJson(sum.exportState('figures'), r.prelude, r.sem)).toEqual(one)
  })
})

describe('a file with a UMI tag and no records', () => {
  it('has UMI figures, all zeros, not null', async () => {
    const s = await statsOf(radBytes({ ...salmonScRna(), chunks: [] }))
    expect(s.records).toBe(0)
    expect(s.umis).toMatchObject({
      distinct_pairs: 0,
      per_barcode: { mean: 0, median: 0 },
      duplication_rate: 0,
      sequencing_saturation: 0,
      good_toulmin_2x: 0,
      exact: true,
    })
  })
})

describe('a collated run of a million chunks', () => {
  it('gives its per-chunk figures (no call with a million arguments)', async () => {
    const r = await readRad(radBytes({ ...salmonScRna(), chunks: [] }))
    const n = 1_000_000
    const state = {
      ...accumulate(r),
      chunkRecords: new Float64Array(n).fill(2),
      chunkBarcodes: new Uint8Array(n).fill(1),
    }
    expect(statsJson(state, r.prelude, r.sem).chunks.records_per_chunk).toMatchObject({ min: 2, max: 2 })
  })
})

describe('past the memory budget: spilled, and exact', () => {
  it('the salmon fixture with a budget of a few KB: the same JSON as in memory, pairs or not in the export', async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const exact = statsJson(accumulate(r), r.prelude, r.sem)
    for (const what of ['whole', 'figures', 'digest'] as const) {
      const store = new MemorySpillStore()
      // maxExactPairs would sample the pairs past 3,000 without a spill store.
      const acc = createStatsAccumulator(r.prelude, r.sem, {
        spill: { store, budget: 8192 },
        pendingKeys: 2000,
        maxExactPairs: 3000,
      })
      for (const c of r.chunks) acc.addChunk(c)
      expect(store.size).toBeGreaterThan(0)
      expect(statsJson(acc.exportState(what), r.prelude, r.sem)).toEqual(exact)
    }
    expect(exact.exact).toBe(true)
  })

  it('folded into a digest (ADR 0016): the same JSON and rank curve, and no row per barcode kept', async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const whole = accumulate(r)
    const acc = createStatsAccumulator(r.prelude, r.sem, { spill: { store: new MemorySpillStore(), budget: 8192 } })
    for (const c of r.chunks) acc.addChunk(c)
    const digest = acc.exportState('digest')
    expect(statsJson(digest, r.prelude, r.sem)).toEqual(statsJson(whole, r.prelude, r.sem))
    expect(barcodeRuns(digest)).toEqual(barcodeRuns(whole))
    expect(digest.partitions?.digest?.barcodes).toBe(statsJson(whole, r.prelude, r.sem).barcodes?.distinct)
    // The table keeps the top list's barcodes only; the per-barcode TSV cannot be made of it.
    expect(digest.barcodes[0]!.table.size).toBeLessThanOrEqual(DEFAULT_TOP)
    expect(() => barcodeTsv(digest, r.sem, null)).toThrow(/digest/)
  })
})

describe('caps: past them, documented estimates', () => {
  it('pairs past maxPairs are sampled by hash; the estimate is within its stated error', async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const exact = statsJson(accumulate(r), r.prelude, r.sem)
    // The table from the start, or after the exact partitions' budget is spent midway.
    for (const maxExactPairs of [0, 3000]) {
      const s = statsJson(accumulate(r, { maxPairs: 2000, maxExactPairs }), r.prelude, r.sem)
      const u = s.umis!
      expect(u.exact).toBe(false)
      expect(s.exact).toBe(false)
      expect(u.sampling_rate).toBeLessThan(1)
      expect(u.relative_error).toBeGreaterThan(0)
      const truth = exact.umis!.distinct_pairs
      expect(Math.abs(u.distinct_pairs - truth) / truth).toBeLessThan(4 * u.relative_error)
      // Barcodes stay exact.
      expect(s.barcodes).toEqual(exact.barcodes)
    }
  })

  it('sampled pairs: every barcode counts between 1 UMI and its reads, so the median is never 0', async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const state = accumulate(r, { maxPairs: 2000, maxExactPairs: 0 })
    const s = statsJson(state, r.prelude, r.sem)
    expect(s.umis?.exact).toBe(false)
    const umis = umisPerBarcode(state)
    const reads = state.barcodes[0]?.table.counts ?? new Float64Array(0)
    expect(umis.length).toBe(s.barcodes?.distinct)
    for (let i = 0; i < umis.length; i++) {
      expect(umis[i]).toBeGreaterThanOrEqual(1)
      expect(umis[i]).toBeLessThanOrEqual(reads[i] ?? 0)
    }
    expect(s.umis?.per_barcode.median).toBeGreaterThanOrEqual(1)
  })

  it('barcodes past maxBarcodes: counted as untracked, distinct by HyperLogLog', async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const exact = statsJson(accumulate(r), r.prelude, r.sem)
    const s = statsJson(accumulate(r, { maxBarcodes: 100, maxExactPairs: 0 }), r.prelude, r.sem)
    const b = s.barcodes!
    expect(b.exact).toBe(false)
    expect(b.top_exact).toBe(false)
    expect(b.untracked_records).toBeGreaterThan(0)
    expect(b.distinct_error).toBeGreaterThan(0)
    expect(Math.abs(b.distinct - exact.barcodes!.distinct)).toBeLessThanOrEqual(4 * b.distinct_error + 1)
    expect(s.records).toBe(exact.records)
  })

  it("barcodes stay exact and pairs the same through the page's schedule: reports, drains and merges, the pair cap reached midway", async () => {
    // Barcodes are counted through their pairs until the pair table could
    // refuse one (docs/adr/0009): every hand-over between the two ways is crossed here.
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const exact = statsJson(accumulate(r), r.prelude, r.sem)
    // maxExactPairs: exact partitions throughout; spent midway (a worker's or worker 0's); tables only.
    for (const [maxPairs, maxExactPairs] of [
      [1 << 20, undefined],
      [5000, 4000],
      [800, 4000],
      [5000, 0],
      [800, 0],
    ] as const) {
      const opts = { maxPairs, maxExactPairs }
      const workers = [0, 1, 2].map(() => createStatsAccumulator(r.prelude, r.sem, opts))
      r.chunks.forEach((c, k) => {
        workers[k % 3]!.addChunk(c)
        if (k % 2 === 0) workers[0]!.exportState() // a report
        if (k % 3 === 2) {
          // statsPass.ts's drain: each other worker's state merged into worker 0's, one at a time
          for (let i = 1; i < 3; i++) {
            const state = workers[i]!.exportState()
            workers[0]!.merge(state)
            // statsWorker.ts: a drained worker resumes at its sampling rate
            workers[i] = createStatsAccumulator(r.prelude, r.sem, { ...opts, pairShift: state.pairShift })
          }
        }
      })
      for (let i = 1; i < 3; i++) workers[0]!.merge(workers[i]!.exportState())
      const s = statsJson(workers[0]!.exportState(), r.prelude, r.sem, opts)
      expect(s.barcodes).toEqual(exact.barcodes)
      expect(s.records).toBe(exact.records)
      // Hash sampling keeps the same pairs whatever the schedule.
      expect(s.umis).toEqual(statsJson(accumulate(r, opts), r.prelude, r.sem, opts).umis)
      if (maxPairs === 1 << 20) expect(s).toEqual(exact)
    }
  })

  it('a merge past the pair cap samples both sides alike', async () => {
    const r = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const opts = { maxPairs: 3000, maxExactPairs: 0 }
    const one = statsJson(accumulate(r, opts), r.prelude, r.sem)
    const a = accumulate(
      r,
      opts,
      r.chunks.filter((_, k) => k % 2 === 0),
    )
    const b = accumulate(
      r,
      opts,
      r.chunks.filter((_, k) => k % 2 === 1),
    )
    const merged = statsJson(mergeStates(r.prelude, r.sem, a, b, opts), r.prelude, r.sem)
    // Hash sampling keeps the same pairs whichever way the chunks went, once at the same rate.
    expect(merged.umis?.sampling_rate).toBe(one.umis?.sampling_rate)
    expect(merged.umis?.distinct_pairs).toBe(one.umis?.distinct_pairs)
  })
})
