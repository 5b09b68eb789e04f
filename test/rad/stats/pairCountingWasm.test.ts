/**
 * The committed WebAssembly module is what its AssemblyScript source compiles to (scripts/build-wasm.mjs),
 * and the constants the JavaScript side shares with it (partitionLists.ts: SPREAD, BUCKETS, LOW_BITS)
 * are the ones it uses: each barcode lands in the bucket and with the low bits JavaScript computes.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { PairCountingCore } from '../../../src/rad/stats/pairCountingCore'
import { BUCKETS, LOW_BITS, SPREAD, barcodeOf } from '../../../src/rad/stats/partitionLists'

describe('the pair counting core', () => {
  it('is built from its source (npm run build:wasm)', () => {
    expect(() => execFileSync('node', ['scripts/build-wasm.mjs', '--check'], { stdio: 'pipe' })).not.toThrow()
  }, 60_000)

  it('puts each barcode in the bucket, with the low bits, that the JavaScript constants give', () => {
    const barcodes = [0, 1, 7, 0x12345678, 0x80000000, 0xffffffff, 0x9e3779b1, 123456789]
    const core = new PairCountingCore(1, 0, 16)
    const rows = new Uint32Array(4 * barcodes.length)
    barcodes.forEach((b, i) => (rows[4 * i] = b))
    core.addRows(rows, 4, 0, barcodes.length)
    core.flush()
    for (const barcode of barcodes) {
      const spread = Math.imul(barcode, SPREAD) >>> 0
      const bucket = spread >>> LOW_BITS
      expect(bucket).toBeLessThan(BUCKETS)
      const lists = core.bucketLists(bucket, false)
      const low = spread & ((1 << LOW_BITS) - 1)
      expect([...lists.barcodes]).toContain(low)
      expect(barcodeOf(bucket, low)).toBe(barcode)
    }
  })
  it('frees its rooms in one piece once the lists are dropped: the end`s merges fit without growing it', () => {
    const n = 200_000
    const rows = new Uint32Array(4 * n)
    let seed = 13
    const next = (): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0
      return seed / 2 ** 32
    }
    for (let r = 0; r < n; r++) {
      rows[4 * r] = Math.floor(next() * 2000)
      rows[4 * r + 2] = Math.floor(next() * 0x7fffffff)
    }
    const counted = (release: boolean): { before: number; after: number } => {
      const core = new PairCountingCore(1, 0, 1024)
      for (let from = 0; from < n; from += 50_000) core.addRows(rows, 4, from, from + 50_000)
      core.flush()
      for (let b = 0; b < BUCKETS; b++) core.dropBucket(b)
      if (release) core.releaseRooms()
      const before = core.memoryBytes
      core.allocRoom(Math.floor(0.8 * before))
      return { before, after: core.memoryBytes }
    }
    const released = counted(true)
    expect(released.after).toBe(released.before)
    // Without it, the keys' rooms, the input and the sort's scratch split the free memory.
    const kept = counted(false)
    expect(kept.after).toBeGreaterThan(kept.before)
  })
})
