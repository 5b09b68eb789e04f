/** The index's hot path (§4.1): whole, aligned, clean chunks only; it stops before anything else. */
import { describe, expect, it } from 'vitest'
import { chunkBounds } from '../../src/rad/decode/chunkHeader'
import { ChunkIndexBuilder } from '../../src/rad/chunkIndex'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import { canScanCleanRuns, scanCleanRun } from '../../src/rad/checks/cleanRun'
import type { CleanRun } from '../../src/rad/checks/cleanRun'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import type { NbytesConvention, Prelude } from '../../src/rad/types'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import type { CheckPlan } from '../../src/rad/checks/checkPlan'
import { buildRad, tag } from '../helpers/radWriter'
import type { BuiltRad, ChunkSpec, RadSpec } from '../helpers/radWriter'

/** n chunks of 2 records, each with one alignment to reference k % 3 (naln, b, ref: 12 bytes a record). */
function chunks(n: number): ChunkSpec[] {
  return Array.from({ length: n }, (_, k) => ({
    records: [
      { read: [k], alns: [[k % 3]] },
      { read: [k + 1], alns: [[(k + 1) % 3]] },
    ],
  }))
}

function spec(list: ChunkSpec[], nbytes: NbytesConvention): RadSpec {
  return {
    refs: ['r0', 'r1', 'r2'],
    readTags: [tag('b', 'u32')],
    alnTags: [tag('compressed_ori_refid', 'u32')],
    chunks: list,
    nbytes,
  }
}

interface Fixture {
  built: BuiltRad
  prelude: Prelude
  convention: NbytesConvention
  plan: CheckPlan
  /** The chunks' bytes as words, from the first chunk (copied so they are 4-byte aligned). */
  words: Uint32Array
  start: number
}

function fixture(list: ChunkSpec[], convention: NbytesConvention = 'header-inclusive'): Fixture {
  const built = buildRad(spec(list, convention))
  const prelude = parsePrelude(built.bytes, built.bytes.length)
  const start = prelude.firstChunkOffset
  const body = built.bytes.slice(start)
  const words = new Uint32Array(body.buffer, 0, body.length >>> 2)
  return { built, prelude, convention, plan: makeCheckPlan(prelude, inferSemantics(prelude)), words, start }
}

interface RunOptions {
  pos?: number
  maxChunks?: number
  plan?: boolean
  words?: Uint32Array
}

function run(f: Fixture, opts: RunOptions = {}): { result: CleanRun; index: ChunkIndex } {
  const index = new ChunkIndexBuilder()
  const bounds = chunkBounds(f.prelude, f.convention, f.built.bytes.length)
  const result = scanCleanRun(
    opts.words ?? f.words,
    f.start,
    opts.pos ?? f.start,
    opts.maxChunks ?? Infinity,
    bounds,
    opts.plan === false ? undefined : f.plan,
    index,
  )
  return { result, index: index.finish() }
}

describe('scanCleanRun', () => {
  it('indexes every clean chunk of the block, counting alignments', () => {
    const f = fixture(chunks(10))
    const { result, index } = run(f)
    expect(result).toEqual({ chunks: 10, end: f.built.bytes.length, alignments: 20 })
    expect(Array.from(index.offset)).toEqual(f.built.layout.chunks.map((c) => c.offset))
    expect(Array.from(index.nrec)).toEqual(f.built.layout.chunks.map(() => 2))
  })

  it('counts no alignments without a plan', () => {
    expect(run(fixture(chunks(3)), { plan: false }).result.alignments).toBe(0)
  })

  it('takes at most maxChunks, and at most 4096 in one run', () => {
    const f = fixture(chunks(10))
    expect(run(f, { maxChunks: 4 }).result).toMatchObject({ chunks: 4, end: f.built.layout.chunks[4]!.offset })
    const many = fixture(Array.from({ length: 5000 }, () => ({ records: [] })))
    expect(run(many).result.chunks).toBe(4096)
  })

  it('starts anywhere in the block, and stops before a chunk not 4-byte aligned in it', () => {
    const f = fixture(chunks(5))
    const third = f.built.layout.chunks[2]!.offset
    expect(run(f, { pos: third }).result).toMatchObject({ chunks: 3, end: f.built.bytes.length })
    expect(run(f, { pos: third + 2 }).result).toEqual({ chunks: 0, end: third + 2, alignments: 0 })
  })

  it('stops before a chunk that straddles the end of the block', () => {
    const f = fixture(chunks(5))
    const cut = f.built.layout.chunks[3]!.offset + 12 - f.start
    const { result } = run(f, { words: f.words.subarray(0, cut / 4) })
    expect(result).toMatchObject({ chunks: 3, end: f.built.layout.chunks[3]!.offset })
  })

  it('stops before a chunk whose records fail the word scan, or that a plan-less run lets through', () => {
    const list = chunks(5)
    list[2] = {
      records: [
        { read: [1], alns: [[7]] },
        { read: [2], alns: [[0]] },
      ],
    } // reference 7 of 3
    const f = fixture(list)
    expect(run(f).result).toEqual({ chunks: 2, end: f.built.layout.chunks[2]!.offset, alignments: 4 })
    expect(run(f, { plan: false }).result.chunks).toBe(5)
  })

  it('stops before a header the careful path must explain', () => {
    const list = chunks(4)
    list[1] = { ...list[1]!, nbytes: 4 } // below its own header
    const f = fixture(list)
    expect(run(f, { plan: false }).result).toMatchObject({ chunks: 1, end: f.built.layout.chunks[1]!.offset })
  })

  it('reads payload-only nbytes (§4.2) through the bounds', () => {
    const f = fixture(chunks(4), 'payload-only')
    const { result, index } = run(f)
    expect(result).toEqual({ chunks: 4, end: f.built.bytes.length, alignments: 8 })
    expect(Array.from(index.nbytes)).toEqual([24, 24, 24, 24])
  })
})

describe('canScanCleanRuns', () => {
  it('needs plain records and a plan that scans words', () => {
    const f = fixture(chunks(1))
    expect(canScanCleanRuns(f.prelude, undefined)).toBe(true)
    expect(canScanCleanRuns(f.prelude, f.plan)).toBe(true)
    expect(canScanCleanRuns(f.prelude, { ...f.plan, words: undefined })).toBe(false)
    expect(canScanCleanRuns({ ...f.prelude, codec: 'zstd' }, undefined)).toBe(false)
  })
})
