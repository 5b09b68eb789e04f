/**
 * CountTable's batch path (addRows, the accumulator's per-chunk loop) and
 * its one-key path (add, used by merges) must agree: they hash a key with
 * hash2/hash4 and hashWords respectively, so those must be equal, or a
 * worker that counts chunks and merges states would hold a key twice.
 */
import { describe, expect, it } from 'vitest'
import { CountTable, hash2, hash4, hashWords } from '../../../src/rad/stats/countTable'

function words(n: number, seed: number): Uint32Array {
  const w = new Uint32Array(n)
  let s = seed
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0
    w[i] = s
  }
  return w
}

describe('hashes', () => {
  it('hash2 and hash4 equal hashWords of 2 and 4 words', () => {
    const w = words(4000, 7)
    for (let at = 0; at + 4 <= w.length; at += 4) {
      expect(hash2(w[at]!, w[at + 1]!, 0x2545f491)).toBe(hashWords(w, at, 2, 0x2545f491))
      expect(hash4(w[at]!, w[at + 1]!, w[at + 2]!, w[at + 3]!, 0x1b873593)).toBe(hashWords(w, at, 4, 0x1b873593))
    }
  })

  it('spread keys over the slots and the top bits (used by sampling and the HyperLogLog)', () => {
    const low = new Uint32Array(1024)
    const top = new Uint32Array(16)
    const w = new Uint32Array(2)
    for (let i = 0; i < 1 << 16; i++) {
      w[0] = i // consecutive barcodes, high word 0: the common shape
      const h = hashWords(w, 0, 2, 0x2545f491)
      low[h & 1023]!++
      top[h >>> 28]!++
    }
    for (const n of low) expect(Math.abs(n - 64)).toBeLessThan(40)
    for (const n of top) expect(Math.abs(n - 4096)).toBeLessThan(400)
  })
})

describe('CountTable.addRows', () => {
  it('counts as add does, in one table, whichever path each key took', () => {
    const stride = 3 // two key words and one unrelated word per row
    const n = 5000
    const rows = new Uint32Array(n * stride)
    for (let r = 0; r < n; r++) {
      rows[r * stride] = r % 700
      rows[r * stride + 1] = r % 3
      rows[r * stride + 2] = 0xdeadbeef
    }
    const batch = new CountTable(2, 1 << 20)
    const hashes = new Uint32Array(n)
    for (let r = 0; r < n; r++) hashes[r] = hash2(rows[r * stride]!, rows[r * stride + 1]!, batch.seed)
    expect(batch.addRows(rows, stride, hashes, 0, n)).toBe(n)
    for (let r = 0; r < n; r++) batch.add(rows, r * stride, 1)
    const one = new CountTable(2, 1 << 20)
    for (let r = 0; r < n; r++) one.add(rows, r * stride, 2)
    expect(batch.size).toBe(one.size)
    for (let id = 0; id < one.size; id++) expect(batch.find(one.keys, 2 * id)).toBeGreaterThanOrEqual(0)
    expect([...batch.counts.slice(0, batch.size)].sort()).toEqual([...one.counts.slice(0, one.size)].sort())
  })

  it('stops at the first key a full table refuses and skips keys outside the sample', () => {
    const rows = Uint32Array.from([1, 0, 2, 0, 3, 0, 1, 0])
    const t = new CountTable(2, 2)
    const hashes = Uint32Array.from([0, 1, 2, 3].map((r) => hash2(rows[2 * r]!, 0, t.seed)))
    expect(t.addRows(rows, 2, hashes, 0, 4)).toBe(2)
    expect(t.addRows(rows, 2, hashes, 3, 4)).toBe(4)
    expect(t.counts[t.find(rows, 0)]).toBe(2)
    const sampled = new CountTable(2, 100)
    expect(sampled.addRows(rows, 2, Uint32Array.of(0xffffffff, 1, 0xffffffff, 1), 0, 4, 1)).toBe(4)
    expect(sampled.size).toBe(2) // only rows 1 and 3 (top bit 0): keys 2 and 1
  })
})

describe('a table given room up front (reserve: a merge into an empty table)', () => {
  it('holds the same entries in the same order, and does not grow while the room lasts', () => {
    const keys = words(2 * 50_000, 7)
    const plain = new CountTable(2, 1_000_000)
    const reserved = new CountTable(2, 1_000_000)
    reserved.reserve(50_000)
    const room = reserved.bytes
    for (let i = 0; i < 50_000; i++) {
      plain.add(keys, 2 * i, i % 5)
      reserved.add(keys, 2 * i, i % 5)
    }
    expect(reserved.bytes).toBe(room)
    expect(reserved.exportState()).toEqual(plain.exportState())
    expect(reserved.find(keys, 2 * 49_999)).toBe(49_999)
  })

  it('never past its cap', () => {
    const t = new CountTable(1, 100)
    t.reserve(1_000_000)
    const keys = words(200, 3)
    for (let i = 0; i < 200; i++) t.add(keys, i, 1)
    expect(t.size).toBe(100)
  })
})
