/**
 * The end of a counter that spilled (spilledRuns.ts): a bucket's segments on disk and the lists
 * still in memory merged in rounds between two rooms of the counting core's memory, against
 * partitionLists.ts's mergeLists folded in JavaScript; and the rooms kept from bucket to bucket,
 * so the core's memory does not grow with the segments.
 */
import { describe, expect, it } from 'vitest'
import { SpilledRuns } from '../../../src/rad/stats/spilledRuns'
import { PairCountingCore } from '../../../src/rad/stats/pairCountingCore'
import { mergeLists } from '../../../src/rad/stats/partitionLists'
import type { BucketLists } from '../../../src/rad/stats/partitionLists'
import { MemorySpillStore } from '../../helpers/memorySpill'

function random(seed: number): () => number {
  let s = seed
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

/** Lists of a few hundred barcodes drawn from `range` low bits, each a sorted run of UMIs from a small set (so they repeat across lists). */
function someLists(next: () => number, range: number): BucketLists {
  const lows = [...new Set(Array.from({ length: 300 }, () => Math.floor(next() * range)))].sort((a, b) => a - b)
  const umis: number[] = []
  const umiCounts = lows.map(() => {
    const run = [...new Set(Array.from({ length: 1 + Math.floor(next() * 40) }, () => Math.floor(next() * 500)))]
    run.sort((a, b) => a - b)
    for (const u of run) umis.push(2 * u + (next() < 0.5 ? 1 : 0))
    return run.length
  })
  return {
    barcodes: Uint32Array.from(lows),
    reads: Float64Array.from(umiCounts, (n) => n + Math.floor(next() * 5)),
    umiCounts: Uint32Array.from(umiCounts),
    umis: Uint32Array.from(umis),
  }
}

function copied(l: BucketLists): BucketLists {
  return { barcodes: l.barcodes.slice(), reads: l.reads.slice(), umiCounts: l.umiCounts.slice(), umis: l.umis.slice() }
}

describe('a spilled bucket merged at the end', () => {
  it('gives what merging its lists two by two in JavaScript gives, for any number of segments', () => {
    for (const segments of [1, 2, 3, 5, 8, 9]) {
      const next = random(segments)
      const runs = new SpilledRuns(new MemorySpillStore())
      const core = new PairCountingCore(1, 0, 64)
      const written = Array.from({ length: segments }, () => someLists(next, 2000))
      for (const l of written) runs.write(7, l)
      const inMemory = someLists(next, 2000)
      const expected = [...written, inMemory].reduce((a, b) => mergeLists(a, b))
      let got: BucketLists | undefined
      runs.merged(7, core, [inMemory], (l) => (got = copied(l)))
      expect(got).toEqual(expected)
      expect(runs.has(7)).toBe(false)
    }
  })

  it('keeps its two rooms from bucket to bucket: the core does not grow with more segments', () => {
    const next = random(42)
    const runs = new SpilledRuns(new MemorySpillStore())
    const core = new PairCountingCore(1, 0, 64)
    const bucketOf = (segments: number): BucketLists[] =>
      Array.from({ length: segments }, () => someLists(next, 100_000))
    // A first bucket of 8 segments sets the rooms; later buckets of about its size merge in them.
    for (const l of bucketOf(8)) runs.write(0, l)
    runs.merged(0, core, [], () => undefined)
    const after = core.memoryBytes
    for (let b = 1; b < 6; b++) {
      for (const l of bucketOf(8)) runs.write(b, l)
      runs.merged(b, core, [], () => undefined)
    }
    expect(core.memoryBytes).toBe(after)
    runs.releaseRooms()
  })
})
