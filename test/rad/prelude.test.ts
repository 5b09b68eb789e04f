/** The prelude (§1–3): legacy vs v2, header, tag sections, roles, file tag values. */
import { describe, expect, it } from 'vitest'
import { NeedMoreBytes } from '../../src/rad/decode/cursor'
import { RadError } from '../../src/rad/errors'
import {
  EXT_LESS_NOTE,
  RAD_MAGIC,
  fileTagValue,
  hasRadMagic,
  looksLikeRadStart,
  parsePrelude,
} from '../../src/rad/prelude/prelude'
import { fileIssues } from '../../src/rad/checks/scanIssues'
import { BytesSource } from '../../src/io/byteSource'
import { readPrelude } from '../../src/io/readPrelude'
import { arrayTag, buildRad, role, tag } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'

const basic: RadSpec = {
  refs: ['t0', 'tx-one', ''],
  fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16')],
  readTags: [tag('b', 'u32'), tag('u', 'u32')],
  alnTags: [tag('compressed_ori_refid', 'u32')],
  fileValues: [16, 12],
}

function parse(spec: RadSpec): ReturnType<typeof parsePrelude> {
  const { bytes } = buildRad(spec)
  return parsePrelude(bytes, bytes.length)
}

describe('legacy prelude', () => {
  it('is read as version 0.0 with the header starting at byte 0', () => {
    const { bytes, layout } = buildRad({ ...basic, numChunks: 7 })
    expect(bytes[0]).toBe(0) // the paired flag, no magic
    const p = parsePrelude(bytes, bytes.length)
    expect(p).toMatchObject({
      version: [0, 0],
      extLen: 0,
      paired: false,
      refCount: 3,
      refNames: ['t0', 'tx-one', ''],
      numChunks: 7,
      numChunksOffset: layout.numChunksOffset,
      codec: 'none',
      warnings: [],
    })
    expect(layout.numChunksOffset).toBe(1 + 8 + (2 + 2) + (2 + 6) + 2)
    expect(p.fileTags.map((t) => [t.name, t.type.id, t.role.kind])).toEqual([
      ['cblen', 2, 'none'],
      ['ulen', 2, 'none'],
    ])
    expect(p.readTags.map((t) => t.name)).toEqual(['b', 'u'])
    expect(p.alnTags.map((t) => t.name)).toEqual(['compressed_ori_refid'])
    expect(p.fileTagValues).toEqual([16, 12])
    expect(fileTagValue(p, 'ulen')).toBe(12)
    expect(fileTagValue(p, 'nope')).toBeUndefined()
    expect(p.firstChunkOffset).toBe(bytes.length)
  })

  it('reads paired = 1, and warns about a paired byte above 1 but reads it as paired', () => {
    expect(parse({ ...basic, paired: true }).paired).toBe(true)
    expect(parse({ ...basic, paired: 1, numChunks: 1 }).warnings).toEqual([])
    const { bytes } = buildRad({ ...basic, v2: true, paired: 7 })
    const p = parsePrelude(bytes, bytes.length)
    expect(p.paired).toBe(true)
    expect(p.warnings.join()).toMatch(/paired flag at byte 14 is 7/)
  })

  it('warns that num_chunks = 0 means "read to the end of the file"', () => {
    const p = parse({ ...basic, numChunks: 0 })
    expect(p.numChunks).toBe(0)
    expect(p.warnings.join()).toMatch(/num_chunks is 0/)
  })

  it('accepts empty tag sections (just 00 00 each)', () => {
    const { bytes, layout } = buildRad({ refs: [] })
    expect(Array.from(bytes.subarray(layout.tagSectionsOffset))).toEqual([0, 0, 0, 0, 0, 0])
    const p = parsePrelude(bytes, bytes.length)
    expect([p.fileTags, p.readTags, p.alnTags, p.refNames]).toEqual([[], [], [], []])
  })

  it('decodes UTF-8 reference names and names of 65,535 bytes', () => {
    const long = 'x'.repeat(65535)
    const p = parse({ refs: ['gène-1', '基因', long, 'a'.repeat(64), 'b'.repeat(65)] })
    expect(p.refNames).toEqual(['gène-1', '基因', long, 'a'.repeat(64), 'b'.repeat(65)])
  })
})

describe('v2 prelude (§1.2, §2.3)', () => {
  it('puts magic, major 2, minor 0, ext_len 0 in bytes 0..14 and the paired flag at 14', () => {
    const { bytes } = buildRad({ ...basic, v2: true, paired: true })
    expect(Array.from(bytes.subarray(0, 8))).toEqual(Array.from(RAD_MAGIC))
    expect(Array.from(bytes.subarray(8, 15))).toEqual([2, 0, 0, 0, 0, 0, 1])
    const p = parsePrelude(bytes, bytes.length)
    expect(p).toMatchObject({ version: [2, 0], extLen: 0, paired: true, refCount: 3 })
  })

  it('skips exactly ext_len extension bytes, and accepts a newer minor', () => {
    const ext = [0xde, 0xad, 0xbe, 0xef, 0x01, 0x00, 0x52]
    const { bytes, layout } = buildRad({ ...basic, v2: { minor: 9, ext }, numChunks: 3 })
    const p = parsePrelude(bytes, bytes.length)
    expect(p).toMatchObject({ version: [2, 9], extLen: 7, numChunks: 3, refNames: basic.refs })
    expect(p.numChunksOffset).toBe(layout.numChunksOffset)
    expect(layout.numChunksOffset).toBe(14 + 7 + 1 + 8 + 4 + 8 + 2)
  })

  it('reads a role suffix on every descriptor of all three sections', () => {
    const p = parse({
      v2: true,
      fileTags: [tag('cblen', 'u16'), tag('known_rad_type', 'string')],
      readTags: [tag('b', 'u64', role.barcode(1, 20)), tag('u', 'u32', role.umi(10))],
      alnTags: [
        tag('ref', 'u32', role.reference),
        tag('ori', 'u8', role.orientation),
        tag('pos', 'u32', role.position),
        tag('fl', 'u16', role.fragmentLength),
        tag('type', 'u8', role.mappingType),
        arrayTag('none', 'u8', 'u8', role.none),
      ],
      fileValues: [16, 'sc_rna_basic'],
    })
    expect(p.fileTags.map((t) => t.role)).toEqual([
      { kind: 'none', code: 0 },
      { kind: 'none', code: 0 },
    ])
    expect(p.readTags.map((t) => t.role)).toEqual([
      { kind: 'barcode', code: 1, level: 1, len: 20 },
      { kind: 'umi', code: 2, len: 10 },
    ])
    expect(p.alnTags.map((t) => t.role.kind)).toEqual([
      'reference',
      'orientation',
      'mappingPosition',
      'fragmentLength',
      'mappingType',
      'none',
    ])
    expect(p.fileTagValues).toEqual([16, 'sc_rna_basic'])
  })

  it('treats an unknown role code as None, skips its payload, keeps the code and warns', () => {
    const p = parse({
      v2: true,
      readTags: [tag('b', 'u32', { code: 200, payload: [1, 2, 3, 4, 5] }), tag('u', 'u32', role.umi(12))],
      alnTags: [tag('x', 'u32', { code: 8 })],
    })
    expect(p.readTags[0]?.role).toEqual({ kind: 'none', code: 200 })
    expect(p.readTags[1]?.role).toEqual({ kind: 'umi', code: 2, len: 12 })
    expect(p.alnTags[0]?.role).toEqual({ kind: 'none', code: 8 })
    expect(p.warnings.join('\n')).toMatch(/tag "b" has role code 200/)
  })

  it('reads the known leading fields of a longer-than-expected role payload and skips the rest', () => {
    const p = parse({
      v2: true,
      readTags: [
        tag('b', 'u32', { code: 1, payload: [0, 16, 0xff, 0xff, 9] }),
        tag('u', 'u32', { code: 2, payload: [12, 1, 2] }),
      ],
      alnTags: [tag('ref', 'u32', { code: 3, payload: [7, 7, 7] })],
    })
    expect(p.readTags.map((t) => t.role)).toEqual([
      { kind: 'barcode', code: 1, level: 0, len: 16 },
      { kind: 'umi', code: 2, len: 12 },
    ])
    expect(p.alnTags[0]?.role).toEqual({ kind: 'reference', code: 3 })
  })

  it('reads the early ext-less v2 prefix (§1.2 history) when the current layout fails, and flags it', () => {
    const { bytes } = buildRad({ ...basic, v2: { omitExtLen: true }, numChunks: 1 })
    const current = buildRad({ ...basic, v2: true, numChunks: 1 }).bytes
    const early = parsePrelude(bytes, bytes.length)
    const expected = parsePrelude(current, current.length)
    expect(early.warnings).toEqual([EXT_LESS_NOTE, ...expected.warnings])
    expect(early.refNames).toEqual(expected.refNames)
    const shape = (p: typeof early): unknown =>
      p.readTags.map((t) => [t.name, t.type, t.role, (t.roleOffset ?? 0) - p.firstChunkOffset])
    expect(shape(early)).toEqual(shape(expected))
    expect(early.firstChunkOffset).toBe(expected.firstChunkOffset - 4)
    expect(fileIssues(early, 'header-inclusive')[0]).toMatchObject({ kind: 'ext-less-prefix', severity: 'warning' })
  })

  it('an ext-less reading that does not parse either keeps the first error', () => {
    const { bytes } = buildRad({ ...basic, v2: true, numChunks: 1, patches: [{ at: 15, bytes: [0xff, 0xff, 0xff] }] })
    expect(() => parsePrelude(bytes, bytes.length)).toThrow(RadError)
  })

  it('reads a role payload of 255 bytes', () => {
    const p = parse({ v2: true, readTags: [tag('b', 'u32', { code: 2, payload: new Array<number>(255).fill(5) })] })
    expect(p.readTags[0]?.role).toEqual({ kind: 'umi', code: 2, len: 5 })
  })

  it('legacy files have no role bytes: the same descriptors parse without them', () => {
    const legacy = buildRad({ ...basic, fileTags: [tag('cblen', 'u16', role.barcode(0, 16))], fileValues: [16] })
    const v2 = buildRad({ ...basic, v2: true, fileTags: [tag('cblen', 'u16', role.barcode(0, 16))], fileValues: [16] })
    // v2: 14-byte prefix + 4 role bytes (cblen) + 2 each for b, u, compressed_ori_refid
    expect(v2.bytes.length - legacy.bytes.length).toBe(14 + 4 + 2 * 3)
  })
})

describe('codec from the chunk_codec file tag (§6)', () => {
  for (const [value, codec] of [
    [0, 'none'],
    [1, 'lz4'],
    [2, 'zstd'],
  ] as const) {
    it(`chunk_codec = ${value} is ${codec}`, () => {
      expect(parse({ fileTags: [tag('x', 'u8'), tag('chunk_codec', 'u8')], fileValues: [9, value] }).codec).toBe(codec)
    })
  }
})

describe('many references (§1.3)', () => {
  const N = 300_000
  const name = (i: number): string => `ENST${String(i).padStart(11, '0')}.1|GENE${i % 60000}`

  it('parses 300,000 reference names, in order, through the growing prelude reader', async () => {
    const { bytes, layout } = buildRad({ ...basic, refs: { count: N, name } })
    expect(bytes.length).toBeGreaterThan(8_000_000)
    const started = performance.now()
    const p = await readPrelude(new BytesSource(bytes))
    const ms = performance.now() - started
    expect(p.refCount).toBe(N)
    expect(p.refNames).toHaveLength(N)
    expect(p.refNames[0]).toBe(name(0))
    expect(p.refNames[123_456]).toBe(name(123_456))
    expect(p.refNames[N - 1]).toBe(name(N - 1))
    expect(p.numChunksOffset).toBe(layout.numChunksOffset)
    expect(p.fileTagValues).toEqual([16, 12])
    // Linear work takes ~2 s here; a quadratic reader would take minutes. Generous for loaded CI machines.
    expect(ms).toBeLessThan(20_000)
  })

  it('asks for more bytes (NeedMoreBytes) when its window ends inside the names', () => {
    const { bytes } = buildRad({ ...basic, refs: { count: 1000, name } })
    expect(() => parsePrelude(bytes.subarray(0, 4096), bytes.length)).toThrow(NeedMoreBytes)
  })
})

describe('looksLikeRadStart (a second file after the chunks)', () => {
  it('knows the magic and legacy preludes, paired or not', () => {
    for (const spec of [{ ...basic, v2: true }, basic, { ...basic, paired: true }]) {
      const head = buildRad(spec).bytes.subarray(0, 8)
      expect(looksLikeRadStart(head)).toBe(true)
      expect(hasRadMagic(head)).toBe(spec.v2 === true)
    }
  })

  it('rejects a paired flag above 1, a ref_count of 2^32 or more, no references, and fewer than 8 bytes', () => {
    expect(looksLikeRadStart(Uint8Array.of(2, 1, 0, 0, 0, 0, 0, 0))).toBe(false)
    expect(looksLikeRadStart(Uint8Array.of(0, 1, 0, 0, 0, 1, 0, 0))).toBe(false)
    expect(looksLikeRadStart(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0))).toBe(false)
    expect(looksLikeRadStart(RAD_MAGIC.subarray(0, 7))).toBe(false)
  })
})
