/**
 * The counting core's walk over a plain scRNA chunk's bytes (StatsAccumulator.addChunkBytes,
 * assembly/scRnaChunk.ts) against the ordinary way, its decode and addChunk: the same state, field
 * by field, on the real salmon fixtures and on writer-built files; and every chunk it must not take
 * (another shape, a fault, a record past the dense histogram, a UMI of 2^31) left untouched.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chunkSpan } from '../../../src/rad/decode/chunk'
import { decodeChunk } from '../../../src/rad/decode/decodeChunk'
import { createStatsAccumulator, statsJson } from '../../../src/rad/stats'
import type { StatsAccumulator, StatsOptions } from '../../../src/rad/stats'
import { SALMON_V2, SALMON_V3, SALMON_V3_P3, SALMON_V3_SKETCH } from '../../helpers/fixtures'
import { bulk, piscemScRnaV2, salmonScRna } from '../../helpers/assays'
import type { ScRead } from '../../helpers/assays'
import { radBytes } from '../../helpers/radWriter'
import { readRad } from '../../helpers/read'
import type { ReadResult } from '../../helpers/read'

/** Each chunk's bytes, header included, as a decode worker reads them (fresh copies: the walk may not change them). */
async function chunkBytesOf(r: ReadResult): Promise<Uint8Array[]> {
  const out: Uint8Array[] = []
  for (let k = 0; k < r.scan.index.count; k++) {
    const span = chunkSpan(r.scan.index.nbytes[k]!, r.scan.convention)
    out.push((await r.source.read(r.scan.index.offset[k]!, span)).slice())
  }
  return out
}

/** Owners' accumulators fed chunk by chunk in turn, rows handed over after each, as the page's workers. */
function feed(r: ReadResult, owners: number, add: (acc: StatsAccumulator, k: number) => void, opts?: StatsOptions) {
  const accs = Array.from({ length: owners }, (_, index) =>
    createStatsAccumulator(r.prelude, r.sem, { ...opts, bucketOwners: { count: owners, index } }),
  )
  for (let k = 0; k < r.scan.index.count; k++) {
    const acc = accs[k % owners]!
    add(acc, k)
    acc.takeForeignRows().forEach((rows, owner) => {
      if (rows) accs[owner]!.addForeignRows(rows)
    })
  }
  for (const acc of accs.slice(1)) accs[0]!.merge(acc.exportState('whole'))
  return accs[0]!.exportState('whole')
}

/** The state both ways, and how many chunks the bytes' walk took. */
async function bothWays(file: Uint8Array, owners = 1, opts?: StatsOptions) {
  const r = await readRad(file)
  const bytes = await chunkBytesOf(r)
  const decoded = feed(
    r,
    owners,
    (acc, k) => {
      acc.addChunk(r.chunks[k]!)
    },
    opts,
  )
  let taken = 0
  const walked = feed(
    r,
    owners,
    (acc, k) => {
      const chunk = bytes[k]!
      if (acc.addChunkBytes(chunk, k, r.scan.convention) >= 0) taken++
      else acc.addChunk(decodeChunk(chunk, r.scan.index.offset[k]!, k, r.prelude, r.scan.convention))
    },
    opts,
  )
  return { r, decoded, walked, taken, chunks: r.scan.index.count }
}

/** scRNA reads: `n` records over a few barcodes and UMIs, 1–4 alignments each, both strands. */
function reads(n: number, alns = (i: number) => 1 + (i % 4)): ScRead[] {
  const bases = 'ACGT'
  const seq = (v: number, len: number) => Array.from({ length: len }, (_, i) => bases[(v >> (2 * i)) & 3]).join('')
  return Array.from({ length: n }, (_, i) => ({
    cb: seq((i * 7) % 23, 16),
    umi: seq((i * 13) % 97, 12),
    alns: Array.from({ length: alns(i) }, (_, a) => ({ ref: (i + a) % 6, fw: (i + a) % 3 !== 0 })),
  }))
}

describe('a plain scRNA chunk counted from its bytes', () => {
  for (const [name, path] of [
    ['salmon v3', SALMON_V3],
    ['salmon v2', SALMON_V2],
    ['salmon v3, sketch', SALMON_V3_SKETCH],
    ['salmon v3, 3 threads', SALMON_V3_P3],
  ] as const) {
    it(`${name}: every chunk taken, the state equal to the decode's`, async () => {
      const { decoded, walked, taken, chunks } = await bothWays(new Uint8Array(readFileSync(path)))
      expect(taken).toBe(chunks)
      expect(walked).toEqual(decoded)
    })
  }

  it('two owners handing rows over: the same state as the decode', async () => {
    const { decoded, walked, taken, chunks } = await bothWays(new Uint8Array(readFileSync(SALMON_V3)), 2)
    expect(taken).toBe(chunks)
    expect(walked).toEqual(decoded)
  })

  it('writer-built files, either nbytes convention, and piscem v2 with roles', async () => {
    for (const spec of [
      salmonScRna(reads(500), 37),
      { ...salmonScRna(reads(300), 50), nbytes: 'payload-only' as const },
      piscemScRnaV2(false, reads(200)),
    ]) {
      const { r, decoded, walked, taken, chunks } = await bothWays(radBytes(spec))
      expect(taken).toBe(chunks)
      expect(walked).toEqual(decoded)
      expect(statsJson(walked, r.prelude, r.sem)).toEqual(statsJson(decoded, r.prelude, r.sem))
    }
  })

  it('a pass past the exact pairs it may hold leaves them with every alignment counted', async () => {
    const { decoded, walked, taken } = await bothWays(radBytes(salmonScRna(reads(400), 40)), 1, { maxExactPairs: 30 })
    expect(taken).toBeGreaterThan(0)
    expect(walked.partitions).toBeNull()
    expect(walked).toEqual(decoded)
  })

  it('other shapes are never taken: positions beside the alignments, bulk', async () => {
    for (const spec of [piscemScRnaV2(true, reads(50)), bulk(false), bulk(true)]) {
      const { decoded, walked, taken } = await bothWays(radBytes(spec))
      expect(taken).toBe(0)
      expect(walked).toEqual(decoded)
    }
  })

  it('a record of 4096 alignments or more is left to the decode, the chunks around it taken', async () => {
    const spec = salmonScRna(
      reads(60, (i) => (i === 31 ? 4100 : 2)),
      10,
    )
    const { decoded, walked, taken, chunks } = await bothWays(radBytes(spec))
    expect(taken).toBe(chunks - 1)
    expect(walked).toEqual(decoded)
  })

  it('a chunk cut short, or one whose records overrun it, is refused and left as it was', async () => {
    const r = await readRad(radBytes(salmonScRna(reads(40), 10)))
    const [first] = await chunkBytesOf(r)
    const acc = createStatsAccumulator(r.prelude, r.sem)
    const cut = first!.slice(0, first!.length - 4)
    expect(acc.addChunkBytes(cut, 0, r.scan.convention)).toBe(-1)
    const overrun = first!.slice()
    new DataView(overrun.buffer).setUint32(8, 9999, true) // the first record's num_aln
    const before = overrun.slice()
    expect(acc.addChunkBytes(overrun, 0, r.scan.convention)).toBe(-1)
    expect(overrun).toEqual(before)
    expect(acc.exportState().records).toBe(0)
  })

  it('a UMI of 2^31 or more is left to the decode (the exact pairs then left), with the same state', async () => {
    const file = radBytes(salmonScRna(reads(40), 10))
    const r = await readRad(file)
    const bytes = await chunkBytesOf(r)
    // The first record of chunk 2: num_aln, b, u; u set to 2^31 in both copies.
    new DataView(bytes[2]!.buffer).setUint32(16, 0x80000000, true)
    const decodedFirst = bytes.map((b) => b.slice())
    const viaDecode = createStatsAccumulator(r.prelude, r.sem)
    const viaBytes = createStatsAccumulator(r.prelude, r.sem)
    bytes.forEach((chunk, k) => {
      const off = r.scan.index.offset[k]!
      viaDecode.addChunk(decodeChunk(decodedFirst[k]!, off, k, r.prelude, r.scan.convention))
      if (viaBytes.addChunkBytes(chunk, k, r.scan.convention) < 0) {
        expect(k).toBeGreaterThanOrEqual(2) // from chunk 2 on the pairs are no longer exact: no more walks
        viaBytes.addChunk(decodeChunk(chunk, off, k, r.prelude, r.scan.convention))
      }
    })
    expect(viaBytes.exportState()).toEqual(viaDecode.exportState())
  })
})
