/** Kept cells passes (src/rad/cells/cellsSection.ts): the keying, the section's round trip in a `.rdx`, old sidecars. */
import { describe, expect, it } from 'vitest'
import {
  MAX_KEPT_CELLS,
  cellsKeyOf,
  cellsSectionFromJson,
  cellsSectionToJson,
  findKeptCells,
  withKeptCells,
} from '../../../src/rad/cells/cellsSection'
import type { KeptCells } from '../../../src/rad/cells/cellsSection'
import type { CellsJson } from '../../../src/rad/cells'
import { decodeSidecar, encodeSidecar } from '../../../src/rad/sidecar/sidecar'
import type { KnownIndex } from '../../../src/rad/sidecar/sidecar'

const mm = (v: number): { mean: number; median: number } => ({ mean: v, median: v })
const json: CellsJson = {
  cells: {
    count: 2,
    cutoff: 'knee',
    min_reads: 7,
    reads: mm(10),
    umis: mm(5),
    genes: mm(4),
    mito_fraction: mm(0.125),
  },
  genes: { detected: 3, top: [['MT-CO1', 4]], unmapped_alignments: 1, mito_pattern: '^(MT|mt)-', mito_genes: 1 },
  permit: null,
  umi_duplication: { histogram: [[1, 3]], reads_per_umi: mm(1), cells: 2, of_cells: 2 },
}
const T2G = '100-aaaaaaaabbbbbbbb~cccccccc'
const NAMES = '200-dddddddd00000000~11111111'

function kept(key = cellsKeyOf([T2G, NAMES], '^(MT|mt)-', 'knee', 7)): KeptCells {
  return {
    key,
    json,
    rows: {
      barcodes: ['AAAA', 'CCCC'],
      reads: Float64Array.of(12, 8),
      umis: Float64Array.of(6, 4),
      genes: Float64Array.of(5, 3),
      mito: Float64Array.of(0.1, 1 / 3),
    },
    files: [
      { fingerprint: T2G, kind: 't2g', why: 'names references' },
      { fingerprint: NAMES, kind: 'gene-names', why: 'two columns' },
    ],
  }
}

const known: KnownIndex = {
  fingerprint: { size: 1000, headCrc: 1, tailCrc: 2 },
  container: 'none',
  convention: 'header-inclusive',
  index: {
    count: 1,
    offset: Float64Array.of(100),
    nbytes: Uint32Array.of(900),
    nrec: Uint32Array.of(3),
    firstRecord: Float64Array.of(0),
  },
  records: 3,
  endOffset: 1000,
  verdict: { status: 'clean', alignments: 3, issues: [], damagedChunks: [], error: undefined },
  stats: { json: { any: 1 } },
}

describe('kept cells: the key', () => {
  it('the same files (in any order) at the same cut-off hit; another file, cut-off or mito pattern misses', () => {
    const entries = [kept()]
    expect(findKeptCells(entries, cellsKeyOf([NAMES, T2G], '^(MT|mt)-', 'knee', 7))).toBe(entries[0])
    const otherT2g = '100-aaaaaaaabbbbbbbb~cccccccd'
    expect(findKeptCells(entries, cellsKeyOf([otherT2g, NAMES], '^(MT|mt)-', 'knee', 7))).toBeUndefined()
    expect(findKeptCells(entries, cellsKeyOf([T2G], '^(MT|mt)-', 'knee', 7))).toBeUndefined()
    expect(findKeptCells(entries, cellsKeyOf([T2G, NAMES, 'x'], '^(MT|mt)-', 'knee', 7))).toBeUndefined()
    expect(findKeptCells(entries, cellsKeyOf([T2G, NAMES], '^(MT|mt)-', 'chosen', 9))).toBeUndefined()
    expect(findKeptCells(entries, cellsKeyOf([T2G, NAMES], '^mt-', 'knee', 7))).toBeUndefined()
  })

  it('keeps the newest first, one per key, at most MAX_KEPT_CELLS', () => {
    let entries: KeptCells[] = []
    for (let m = 1; m <= MAX_KEPT_CELLS + 2; m++) {
      entries = withKeptCells(entries, kept(cellsKeyOf([T2G], '', 'chosen', m)))
    }
    expect(entries.map((e) => e.key.minReads)).toEqual([6, 5, 4, 3])
    entries = withKeptCells(entries, kept(cellsKeyOf([T2G], '', 'chosen', 4)))
    expect(entries.map((e) => e.key.minReads)).toEqual([4, 6, 5, 3])
  })
})

describe('kept cells: the section', () => {
  it('round-trips through a .rdx, typed arrays and all', () => {
    const entry = { ...kept(), writer: 'rad index' }
    const decoded = decodeSidecar(encodeSidecar({ ...known, cells: cellsSectionToJson([entry]) }))
    expect(decoded.stats).toEqual(known.stats)
    const { kept: back, dropped } = cellsSectionFromJson(decoded.cells)
    expect(dropped).toEqual([])
    expect(back).toEqual([entry])
    expect(back[0]?.rows.mito).toBeInstanceOf(Float64Array)
  })

  it('a sidecar without cells is byte for byte what it was (no third section), and reads with none', () => {
    const bytes = encodeSidecar(known)
    const withEmpty = encodeSidecar({ ...known, cells: cellsSectionToJson([]) })
    expect(withEmpty.length).toBeGreaterThan(bytes.length)
    const decoded = decodeSidecar(bytes)
    expect(decoded.cells).toBeUndefined()
    expect(cellsSectionFromJson(decoded.cells)).toEqual({ kept: [], dropped: [] })
  })

  it('drops an entry of another shape, or whose rows disagree with its count, and keeps the others', () => {
    const good = cellsSectionToJson([kept()]) as { entries: Record<string, unknown>[] }
    const entry = good.entries[0]!
    const rows = entry.rows as Record<string, unknown>
    const bad = [
      { ...entry, json: { ...json, cells: { ...json.cells, count: 'two' } } },
      { ...entry, rows: { ...rows, umis: [1] } },
      { ...entry, json: { ...json, cells: { ...json.cells, count: 3 } } },
      entry,
    ]
    const { kept: back, dropped } = cellsSectionFromJson({ entries: bad })
    expect(back).toHaveLength(1)
    expect(dropped).toEqual([
      'entry.json.cells.count is a string, not a number',
      'its rows are lists of unequal lengths',
      'it counts 3 cells but has 2 rows',
    ])
    expect(cellsSectionFromJson('nonsense').kept).toEqual([])
    expect(cellsSectionFromJson({ entries: 5 }).dropped).toEqual(['entries is a number, not a list'])
  })
})
