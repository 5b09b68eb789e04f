/**
 * The exact pair counting by radix partitioning against a plain Map of every record: distinct
 * pairs, Good–Toulmin parities, reads and UMIs per barcode, through flushes and merges.
 */
import { describe, expect, it } from 'vitest'
import {
  PairPartitions,
  barcodeOf,
  forEachPartitionPair,
  partitionBarcodes,
  partitionFigures,
  withoutPairs,
} from '../../../src/rad/stats/pairPartitions'
import { DIGEST_TOP } from '../../../src/rad/stats/barcodeDigest'
import { Histogram } from '../../../src/rad/stats/countTable'
import type { HistogramState, PartitionState } from '../../../src/rad/stats/statsTypes'
import { MemorySpillStore } from '../../helpers/memorySpill'

function random(seed: number): () => number {
  let s = seed
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** Rows of (barcode, 0, UMI, 0): few barcodes and UMIs, so pairs repeat. */
function rowsOf(n: number, seed: number): Uint32Array {
  const next = random(seed)
  const rows = new Uint32Array(4 * n)
  for (let r = 0; r < n; r++) {
    rows[4 * r] = next() < 0.5 ? Math.floor(next() * 50) : Math.floor(next() * 2 ** 32)
    rows[4 * r + 2] = next() < 0.5 ? Math.floor(next() * 8) : Math.floor(next() * 0x7fffffff)
  }
  return rows
}

function naive(rows: Uint32Array) {
  const pairs = new Map<string, number>()
  const reads = new Map<number, number>()
  const umis = new Map<number, number>()
  for (let at = 0; at < rows.length; at += 4) {
    const key = `${String(rows[at])}:${String(rows[at + 2])}`
    const seen = pairs.get(key) ?? 0
    if (seen === 0) umis.set(rows[at]!, (umis.get(rows[at]!) ?? 0) + 1)
    pairs.set(key, seen + 1)
    reads.set(rows[at]!, (reads.get(rows[at]!) ?? 0) + 1)
  }
  let gt = 0
  for (const c of pairs.values()) gt += c % 2 === 1 ? 1 : -1
  return { pairs, reads, umis, gt }
}

function check(p: PairPartitions, rows: Uint32Array): void {
  const want = naive(rows)
  const s = p.exportState()
  expect(s.pairCount).toBe(want.pairs.size)
  expect(s.barcodeCount).toBe(want.reads.size)
  const { keys, counts } = partitionBarcodes(s)
  const f = partitionFigures(s)
  expect(f.goodToulmin).toBe(want.gt)
  for (let i = 0; i < counts.length; i++) {
    expect(keys[2 * i + 1]).toBe(0)
    expect(counts[i]).toBe(want.reads.get(keys[2 * i]!))
    expect(f.umis[i]).toBe(want.umis.get(keys[2 * i]!))
  }
  let pairs = 0
  forEachPartitionPair(s, (barcode, umi, odd) => {
    const c = want.pairs.get(`${String(barcode)}:${String(umi)}`)
    expect(c).toBeDefined()
    expect(odd).toBe((c ?? 0) % 2 === 1)
    pairs++
  })
  expect(pairs).toBe(want.pairs.size)
}

describe('pair partitions', () => {
  it('recover every barcode exactly (the spreading is a bijection)', () => {
    for (const b of [0, 1, 0xffffffff, 0x12345678, 0x80000000]) {
      const p = new PairPartitions()
      p.addRows(Uint32Array.of(b, 0, 7, 0), 4, 0, 1)
      expect(partitionBarcodes(p.exportState()).keys[0]).toBe(b)
    }
    expect(barcodeOf(0, 0)).toBe(0)
  })

  it('count exactly, flushed once or many times', () => {
    const rows = rowsOf(20_000, 1)
    const once = new PairPartitions()
    once.addRows(rows, 4, 0, 20_000)
    check(once, rows)
    const often = new PairPartitions()
    for (let from = 0; from < 20_000; from += 1000) {
      often.addRows(rows, 4, from, from + 1000)
      often.flush()
    }
    check(often, rows)
  })

  it('merge to the same figures as one, and exported states do not change afterwards', () => {
    const rows = rowsOf(20_000, 2)
    const a = new PairPartitions()
    const b = new PairPartitions()
    a.addRows(rows, 4, 0, 12_000)
    b.addRows(rows, 4, 12_000, 20_000)
    const before = a.exportState()
    const pairsBefore = before.pairCount
    a.merge(b.exportState())
    check(a, rows)
    expect(before.pairCount).toBe(pairsBefore)
    check(a, rows)
  })

  it('stop at a key wider than 32 bits, or a UMI of 2^31 or more (a pair is UMI · 2 + parity)', () => {
    const p = new PairPartitions()
    expect(p.addRows(Uint32Array.of(1, 0, 2, 0, 3, 1, 4, 0), 4, 0, 2)).toBe(1)
    expect(p.exportState().pairCount).toBe(1)
    expect(p.addRows(Uint32Array.of(5, 0, 0x7fffffff, 0, 6, 0, 0x80000000, 0), 4, 0, 2)).toBe(1)
    expect(p.exportState().pairCount).toBe(2)
  })

  it('leave the pairs out of a partial report copy, which merges only into other buckets', () => {
    const rows = rowsOf(5000, 3)
    const whole = new PairPartitions()
    whole.addRows(rows, 4, 0, 5000)
    const owners = [new PairPartitions(2, 0), new PairPartitions(2, 1)]
    owners[0]!.addRows(rows, 4, 0, 2500)
    owners[1]!.addRows(rows, 4, 2500, 5000)
    owners.forEach((o, i) => {
      const theirs = o.takeOutbox()
      theirs.forEach((r, j) => {
        if (r) owners[j]!.addPairs(r)
      })
      expect(theirs[i]).toBeUndefined()
    })
    const sum = new PairPartitions()
    sum.merge(owners[0]!.exportState('partial'))
    sum.merge(withoutPairs(owners[1]!.exportState('partial')))
    const a = sum.exportState()
    const b = whole.exportState()
    expect([a.pairCount, a.barcodeCount]).toEqual([b.pairCount, b.barcodeCount])
    expect(partitionFigures(a)).toEqual(partitionFigures(b))
    expect(() => {
      sum.merge(withoutPairs(owners[1]!.exportState()))
    }).toThrow(/without its pairs/)
  })

  it('exchange their outboxes batch by batch and count the same as one counter', () => {
    const rows = rowsOf(20_000, 4)
    const whole = new PairPartitions()
    whole.addRows(rows, 4, 0, 20_000)
    const owners = [new PairPartitions(2, 0, 4096), new PairPartitions(2, 1, 4096)]
    const handed: ArrayBufferLike[] = []
    for (let from = 0; from < 20_000; from += 2500) {
      const o = (from / 2500) % 2
      owners[o]!.addRows(rows, 4, from, from + 2500)
      const outbox = owners[o]!.takeOutbox()
      expect(outbox[o]).toBeUndefined()
      // From the second batch on, each outbox is written into an array the other owner handed over.
      if (from >= 2500) expect(handed).toContain(outbox[1 - o]!.buffer)
      handed.push(outbox[1 - o]!.buffer)
      owners[1 - o]!.addPairs(outbox[1 - o]!)
      expect(owners[o]!.takeOutbox()).toEqual([undefined, undefined])
    }
    expect(new Set(handed).size).toBe(1) // one array goes back and forth
    const sum = new PairPartitions()
    for (const o of owners) sum.merge(o.exportState())
    expect(partitionFigures(sum.exportState())).toEqual(partitionFigures(whole.exportState()))
  })

  it('count rows after a state was merged in, the same buckets in both', () => {
    const rows = rowsOf(20_000, 5)
    const first = new PairPartitions()
    first.addRows(rows, 4, 0, 8000)
    const p = new PairPartitions(1, 0, 3000)
    p.merge(first.exportState())
    p.addRows(rows, 4, 8000, 20_000)
    check(p, rows)
    const partial = p.exportState('partial')
    expect(partial.pairCount).toBe(p.exportState().pairCount)
  })
})

describe('pair partitions past their memory budget (spilled to a store)', () => {
  it('count exactly whatever the budget, spilled many times', () => {
    const rows = rowsOf(30_000, 7)
    for (const budget of [1, 4096, 64 << 10]) {
      const store = new MemorySpillStore()
      const p = new PairPartitions(1, 0, 1000, { store, budget })
      for (let from = 0; from < 30_000; from += 1700) p.addRows(rows, 4, from, Math.min(from + 1700, 30_000))
      expect(p.spilled).toBe(true)
      expect(store.appends).toBeGreaterThan(budget === 1 ? 256 : 1)
      check(p, rows)
    }
  })

  it('export the figures without the pairs: the same figures as a counter that never spilled', () => {
    const rows = rowsOf(30_000, 8)
    const plain = new PairPartitions()
    plain.addRows(rows, 4, 0, 30_000)
    const p = new PairPartitions(1, 0, 2000, { store: new MemorySpillStore(), budget: 2048 })
    for (let from = 0; from < 30_000; from += 1000) p.addRows(rows, 4, from, from + 1000)
    const figures = p.exportState('figures')
    expect(figures.umis.every((u) => u.length === 0)).toBe(true)
    expect(partitionFigures(figures)).toEqual(partitionFigures(plain.exportState()))
    expect(partitionBarcodes(figures)).toEqual(partitionBarcodes(plain.exportState()))
  })

  it('merge a bucket`s spills in the core: each bucket`s lists copied out, a second export the same', () => {
    const rows = rowsOf(30_000, 11)
    const plain = new PairPartitions()
    plain.addRows(rows, 4, 0, 30_000)
    const p = new PairPartitions(1, 0, 500, { store: new MemorySpillStore(), budget: 1024 })
    for (let from = 0; from < 30_000; from += 700) p.addRows(rows, 4, from, Math.min(from + 700, 30_000))
    const first = p.exportState('whole')
    expect(partitionFigures(first)).toEqual(partitionFigures(plain.exportState()))
    expect(partitionBarcodes(first)).toEqual(partitionBarcodes(plain.exportState()))
    // Each bucket`s lists are copies out of the core`s memory: no two buckets share a buffer.
    const buffers = new Set(first.umis.filter((u) => u.length > 0).map((u) => u.buffer))
    expect(buffers.size).toBe(first.umis.filter((u) => u.length > 0).length)
    expect(partitionFigures(p.exportState('whole'))).toEqual(partitionFigures(first))
  })

  it('two owners, each spilling its own buckets, merge to one counter`s figures', () => {
    const rows = rowsOf(20_000, 9)
    const whole = new PairPartitions()
    whole.addRows(rows, 4, 0, 20_000)
    const owners = [0, 1].map((i) => new PairPartitions(2, i, 1000, { store: new MemorySpillStore(), budget: 1024 }))
    for (let from = 0; from < 20_000; from += 2500) {
      const o = (from / 2500) % 2
      owners[o]!.addRows(rows, 4, from, from + 2500)
      const outbox = owners[o]!.takeOutbox()
      owners[1 - o]!.addPairs(outbox[1 - o]!)
    }
    expect(owners.every((o) => o.spilled)).toBe(true)
    const sum = new PairPartitions()
    for (const o of owners) sum.merge(o.exportState('figures'))
    expect(partitionFigures(sum.exportState('figures'))).toEqual(partitionFigures(whole.exportState()))
  })
})

/** The naive figures as a digest holds them: histograms of reads and UMIs per barcode, the top 20. */
function naiveDigest(rows: Uint32Array) {
  const want = naive(rows)
  const histogram = (m: Map<number, number>): [number, number][] => {
    const h = new Map<number, number>()
    for (const v of m.values()) h.set(v, (h.get(v) ?? 0) + 1)
    return [...h].sort((a, b) => a[0] - b[0])
  }
  const top = [...want.reads].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, DIGEST_TOP)
  return { want, reads: histogram(want.reads), umis: histogram(want.umis), top }
}

function checkDigest(s: PartitionState, rows: Uint32Array): void {
  const { want, reads, umis, top } = naiveDigest(rows)
  const d = s.digest!
  expect(s.barcodes.every((b) => b.length === 0)).toBe(true)
  expect(d.barcodes).toBe(want.reads.size)
  expect(d.pairs).toBe(want.pairs.size)
  expect(s.pairCount).toBe(want.pairs.size)
  expect(2 * d.odd - s.pairCount).toBe(want.gt)
  const entries = (h: HistogramState): [number, number][] => {
    const hist = new Histogram(h.dense.length)
    hist.addState(h)
    return hist.entries()
  }
  expect(entries(d.reads)).toEqual(reads)
  expect(entries(d.umis)).toEqual(umis)
  expect([...d.topBarcodes].map((b, i) => [b, d.topReads[i]])).toEqual(top)
}

describe('pair partitions folded into a digest (ADR 0016)', () => {
  it('give the histograms, top list and Good–Toulmin of every barcode, spilled or not', () => {
    const rows = rowsOf(30_000, 11)
    const plain = new PairPartitions()
    plain.addRows(rows, 4, 0, 30_000)
    checkDigest(plain.exportState('digest'), rows)
    const spilled = new PairPartitions(1, 0, 1000, { store: new MemorySpillStore(), budget: 2048 })
    for (let from = 0; from < 30_000; from += 1500) spilled.addRows(rows, 4, from, from + 1500)
    expect(spilled.spilled).toBe(true)
    checkDigest(spilled.exportState('digest'), rows)
  })

  it('two owners` digests merge to one counter`s, and a second export gives it again', () => {
    const rows = rowsOf(20_000, 12)
    const owners = [0, 1].map((i) => new PairPartitions(2, i, 1000, { store: new MemorySpillStore(), budget: 1024 }))
    for (let from = 0; from < 20_000; from += 2500) {
      const o = (from / 2500) % 2
      owners[o]!.addRows(rows, 4, from, from + 2500)
      owners[1 - o]!.addPairs(owners[o]!.takeOutbox()[1 - o]!)
    }
    const sum = new PairPartitions()
    for (const o of owners) sum.merge(o.exportState('digest'))
    checkDigest(sum.exportState('digest'), rows)
    checkDigest(sum.exportState('digest'), rows)
  })
})

describe('partial reports of a counter that spilled (the page)', () => {
  it('barcodes and reads exact, pairs an upper bound flagged approximate; the end exact, and again when asked again', () => {
    const rows = rowsOf(30_000, 10)
    const plain = new PairPartitions()
    plain.addRows(rows, 4, 0, 20_000)
    const p = new PairPartitions(1, 0, 1500, { store: new MemorySpillStore(), budget: 2048, partialReports: true })
    for (let from = 0; from < 20_000; from += 1000) p.addRows(rows, 4, from, from + 1000)
    const partial = p.exportState('partial')
    expect(partial.approximate).toBe(true)
    const want = plain.exportState('figures')
    const got = partitionBarcodes(partial)
    // The core's waiting keys may be left out of a partial report: flush both to compare.
    p.flush()
    const flushed = p.exportState('partial')
    expect(partitionBarcodes(flushed)).toEqual(partitionBarcodes(want))
    expect(flushed.pairCount).toBeGreaterThanOrEqual(want.pairCount)
    expect(got.counts.length).toBeLessThanOrEqual(want.barcodeCount)
    for (let from = 20_000; from < 30_000; from += 1000) p.addRows(rows, 4, from, from + 1000)
    plain.addRows(rows, 4, 20_000, 30_000)
    const end = p.exportState('figures')
    expect(end.approximate).toBeUndefined()
    expect(partitionFigures(end)).toEqual(partitionFigures(plain.exportState()))
    expect(partitionFigures(p.exportState('figures'))).toEqual(partitionFigures(end))
    const sum = new PairPartitions()
    sum.merge(withoutPairs(partial))
    expect(sum.exportState('figures').approximate).toBe(true)
  })

  it('past partialBarcodesUpTo, count the barcodes in memory only (flagged), and end exact', () => {
    const rows = rowsOf(30_000, 13)
    const spill = { store: new MemorySpillStore(), budget: 2048, partialReports: true, partialBarcodesUpTo: 100 }
    const p = new PairPartitions(1, 0, 1500, spill)
    for (let from = 0; from < 30_000; from += 1000) p.addRows(rows, 4, from, from + 1000)
    expect(p.spilled).toBe(true)
    const partial = p.exportState('partial')
    expect(partial.barcodesIncomplete).toBe(true)
    expect(partial.barcodeCount).toBeLessThan(naive(rows).reads.size)
    const sum = new PairPartitions()
    sum.merge(withoutPairs(partial))
    expect(sum.exportState('figures').barcodesIncomplete).toBe(true)
    check(p, rows)
  })
})

describe('the end of a spilled counter with a bound on its rows (the page, ADR 0016)', () => {
  const spilledCounter = (rows: Uint32Array): PairPartitions => {
    const p = new PairPartitions(1, 0, 1000, { store: new MemorySpillStore(), budget: 2048 })
    for (let from = 0; from < rows.length / 4; from += 1500) p.addRows(rows, 4, from, from + 1500)
    expect(p.spilled).toBe(true)
    return p
  }

  it('keeps a row per barcode up to the bound', () => {
    const rows = rowsOf(30_000, 14)
    const p = spilledCounter(rows)
    p.settle('figures', naive(rows).reads.size)
    const s = p.exportState('figures')
    expect(s.digest).toBeUndefined()
    const plain = new PairPartitions()
    plain.addRows(rows, 4, 0, 30_000)
    expect(partitionFigures(s)).toEqual(partitionFigures(plain.exportState()))
  })

  it('folds them into a digest past it, with the same figures', () => {
    const rows = rowsOf(30_000, 15)
    const p = spilledCounter(rows)
    p.settle('figures', naive(rows).reads.size - 1)
    checkDigest(p.exportState('figures'), rows)
  })
})
