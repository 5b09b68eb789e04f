/**
 * Truncation sweep (docs/architecture.md §6): every prefix of a valid file, opened
 * and walked with every chunk decoded, ends in RadError TRUNCATED — never
 * another code, never a RangeError/TypeError, never a hang.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { RadError } from '../../src/rad/errors'
import type { NbytesConvention } from '../../src/rad/types'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { arrayTag, buildRad, role, snappyFrame, tag } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'
import { firstError } from '../helpers/read'
import { atacPiscemCpp, piscemScRnaV2, salmonScRna } from '../helpers/assays'
import { SALMON_V3 } from '../helpers/fixtures'

/** The CLI's way: decode each chunk inside the walk (onChunk). Returns the error code, or 'ok'. */
async function walkDecoding(bytes: Uint8Array): Promise<string> {
  try {
    const { source, prelude } = await openRad(new BytesSource(bytes))
    let convention: NbytesConvention = 'header-inclusive'
    const scan = await scanChunks(source, prelude, {
      onIndex: (_a, c) => (convention = c),
      onChunk: (b, offset, k) => {
        decodeChunk(b, offset, k, prelude, convention)
        return undefined
      },
    })
    // Chunk-local faults are listed as issues and the walk goes on: they count too.
    const local = scan.issues.find((i) => i.severity === 'error' && i.code !== undefined)
    return scan.error?.code ?? local?.code ?? 'ok'
  } catch (e) {
    if (e instanceof RadError) return e.code
    throw e
  }
}

/** Index-then-decode (the viewer's way). */
async function indexThenDecode(bytes: Uint8Array): Promise<string> {
  const err = await firstError(bytes)
  return err?.code ?? 'ok'
}

/**
 * Sweeps prefixes. `expected(len)` gives the outcome when it is not TRUNCATED
 * (e.g. 'ok' for a num_chunks = 0 file cut at a chunk boundary).
 */
async function sweep(
  bytes: Uint8Array,
  lengths: Iterable<number>,
  expected: (len: number) => string[] | undefined = () => undefined,
): Promise<number> {
  const bad: string[] = []
  let count = 0
  for (const len of lengths) {
    const prefix = bytes.subarray(0, len)
    const want = expected(len) ?? ['TRUNCATED']
    for (const [how, run] of [
      ['index-then-decode', indexThenDecode],
      ['walk-decoding', walkDecoding],
    ] as const) {
      const got = await run(prefix)
      if (!want.includes(got)) bad.push(`${how}: prefix ${len}: ${got}, expected ${want.join(' or ')}`)
    }
    count++
  }
  expect(bad.slice(0, 10)).toEqual([])
  return count
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i)
}

const richLegacy: RadSpec = {
  refs: ['a', 'bb', 'ccc'],
  fileTags: [
    tag('cblen', 'u16'),
    tag('note', 'string'),
    arrayTag('lens', 'u16', 'u64'),
    arrayTag('names', 'u8', 'string'),
  ],
  readTags: [tag('b', 'u64'), tag('label', 'string'), arrayTag('xs', 'u8', 'i16')],
  alnTags: [tag('ref', 'u32'), tag('score', 'f32'), tag('flag', 'bool')],
  fileValues: [20, 'hello', [1n, 2n ** 60n], ['x', 'yz']],
  chunks: [
    {
      records: [
        { read: [5n, 'r0', [1, -1]], alns: [[0, 1.5, 1]] },
        { read: [6n, '', []], alns: [] },
      ],
    },
    {},
    {
      records: [
        {
          read: [7n, 'r2', [3]],
          alns: [
            [2, -2, 0],
            [1, 0, 1],
          ],
        },
      ],
    },
  ],
}

describe('truncation sweep: writer-made files', () => {
  const files: [string, RadSpec][] = [
    ['legacy salmon scRNA', salmonScRna()],
    ['v2 sc_rna_pos with an extension block and roles', { ...piscemScRnaV2(true), v2: { minor: 1, ext: [1, 2, 3] } }],
    ['legacy with strings and arrays in every section (variable-width records)', richLegacy],
    [
      'v2 with lz4 chunks',
      {
        ...salmonScRna(),
        v2: true,
        fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16'), tag('chunk_codec', 'u8', role.none)],
        fileValues: { cblen: 16, ulen: 12, chunk_codec: 1 },
      },
    ],
  ]
  for (const [what, spec] of files) {
    it(`${what}: every prefix ends in TRUNCATED`, async () => {
      const { bytes } = buildRad(spec)
      expect(await indexThenDecode(bytes)).toBe('ok')
      const n = await sweep(bytes, range(0, bytes.length))
      expect(n).toBe(bytes.length)
    })
  }

  it('payload-only scATAC: every prefix ends in TRUNCATED, except maybe cuts in the last 8 bytes of chunk 0', async () => {
    // There chunk 0 fits neither convention (§4.2 needs a whole chunk 0), so a reader that keeps
    // header-inclusive sees a shorter chunk 0 that fails its exact-fill check instead.
    const { bytes, layout } = buildRad(atacPiscemCpp('payload-only'))
    const c0 = layout.chunks[0]!
    const ambiguous = (len: number): boolean => len >= c0.offset + c0.nbytes && len < c0.offset + c0.span
    await sweep(bytes, range(0, bytes.length), (len) => (ambiguous(len) ? ['TRUNCATED', 'CHUNK_OVERRUN'] : undefined))
  })

  it('num_chunks = 0: prefixes ending at a chunk boundary are complete files, all others TRUNCATED', async () => {
    const { bytes, layout } = buildRad({ ...salmonScRna(), numChunks: 0 })
    const boundaries = new Set([...layout.chunks.map((c) => c.offset), layout.size])
    await sweep(bytes, range(layout.firstChunkOffset, bytes.length), (len) =>
      boundaries.has(len) ? ['ok'] : undefined,
    )
    // before the first chunk: the prelude itself is cut
    await sweep(bytes, range(0, layout.firstChunkOffset))
  })

  it('a Snappy-framed (.sz) file: every prefix ends in TRUNCATED', async () => {
    const sz = snappyFrame(buildRad(salmonScRna()).bytes, { frameSize: 40, mode: 'alternate' })
    await sweep(sz, range(0, sz.length))
  })
})

describe('truncation sweep: the real salmon fixture', () => {
  const bytes = readFileSync(SALMON_V3)

  it('every prefix of the first 6,000 bytes (prelude, tags, start of chunk 0) ends in TRUNCATED', async () => {
    await sweep(bytes, range(0, 6000))
  })

  it('prefixes around every chunk boundary and a sample across the file end in TRUNCATED', async () => {
    const { source, prelude } = await openRad(new BytesSource(bytes))
    const scan = await scanChunks(source, prelude)
    expect(scan.index.count).toBe(4)
    const lengths = new Set<number>()
    for (const at of [...Array.from(scan.index.offset), bytes.length]) {
      for (const len of range(at - 24, at + 24)) if (len > 0 && len < bytes.length) lengths.add(len)
    }
    for (let len = 6000; len < bytes.length; len += 4999) lengths.add(len)
    const n = await sweep(
      bytes,
      [...lengths].sort((a, b) => a - b),
    )
    expect(n).toBeGreaterThan(200)
  })
})
