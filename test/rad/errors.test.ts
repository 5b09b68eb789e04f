/** One test (or more) per error code the core can raise, each pinned to its byte offset (and chunk). */
import { beforeAll, describe, expect, it } from 'vitest'
import { RAD_ERROR_CODES, RadError, isRadErrorCode } from '../../src/rad/errors'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { BlobSource } from '../../src/io/blobSource'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { readPrelude } from '../../src/io/readPrelude'
import { scanChunks } from '../../src/io/scanChunks'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { ByteWriter, arrayTag, buildRad, loadZstd, snappyFrame, tag, zstdFrame } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'
import { expectRadError, expectRadErrorAsync, expectScanError, firstError, readRad } from '../helpers/read'
import { SparseSource } from '../helpers/sparseSource'
import { salmonScRna } from '../helpers/assays'

beforeAll(loadZstd)

function prelude(bytes: Uint8Array): () => unknown {
  return () => parsePrelude(bytes, bytes.length)
}

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s)

/** A minimal scRNA-shaped spec with N chunks of two records each. */
function sc(chunks = 3): RadSpec {
  const rec = { read: [1, 2], alns: [[3], [4]] }
  return {
    refs: ['a', 'b', 'c', 'd', 'e'],
    readTags: [tag('b', 'u32'), tag('u', 'u32')],
    alnTags: [tag('compressed_ori_refid', 'u32')],
    chunks: Array.from({ length: chunks }, () => ({ records: [rec, { read: [5, 6], alns: [[0]] }] })),
  }
}

describe('NOT_RAD: other formats are named, with a hint', () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ['gzip / BGZF (BAM)', Uint8Array.of(0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, 0x42, 0x43), /gzip.*BAM/],
    ['zstd', Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x05, 0x29, 0, 0, 0), /zstd-compressed.*zstd -d/],
    ['uncompressed BAM', ascii('BAM\x01\x10\x00\x00\x00@HD\tVN:1.6'), /uncompressed BAM/],
    ['SAM text', ascii('@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:chr1\tLN:100\n'), /SAM text file/],
    ['FASTQ text', ascii('@read1\nACGT\n+\nIIII\n'), /FASTQ/],
    ['FASTA text', ascii('>tx1\nACGT\n'), /FASTA/],
    ['plain text', ascii('hello, world\n'), /plain text/],
    ['JSON', ascii('{"num_chunks": 4}'), /JSON/],
    ['unknown binary', Uint8Array.of(0x07, 0, 0, 0, 0, 0, 0, 0, 0, 0xfe), /starts with byte 0x07/],
    ['a Snappy stream handed straight to the prelude parser', snappyFrame(ascii('x'.repeat(100))), /Snappy-framed/],
  ]
  for (const [what, bytes, message] of cases) {
    it(`${what} → NOT_RAD at byte 0`, () => {
      expectRadError(prelude(bytes), { code: 'NOT_RAD', offset: 0, message })
    })
  }

  it('a file starting "R" but not "RAD_FILE" is not RAD', () => {
    expectRadError(prelude(ascii('RIFF\x24\x00\x00\x00WAVEfmt ')), { code: 'NOT_RAD', offset: 0 })
  })
})

describe('UNSUPPORTED_VERSION at byte 8', () => {
  for (const major of [0, 1, 3, 255]) {
    it(`RAD_FILE magic with major ${major}`, () => {
      const { bytes } = buildRad({ v2: { major }, refs: ['a'] })
      expectRadError(prelude(bytes), {
        code: 'UNSUPPORTED_VERSION',
        offset: 8,
        message: major > 2 ? /newer than this viewer/ : /versioned files start at major 2/,
      })
    })
  }
})

describe('TRUNCATED (specific places; every prefix is in the truncation sweep)', () => {
  it('an empty file', () => {
    expectRadError(prelude(new Uint8Array(0)), { code: 'TRUNCATED', offset: 0, message: /empty/ })
  })

  it('a cut-off "RAD_F" is truncated, not foreign', () => {
    expectRadError(prelude(ascii('RAD_F')), { code: 'TRUNCATED', offset: 0 })
  })

  it('ref_count larger than the file could hold: at the first name', () => {
    const { bytes } = buildRad({ refs: ['a'], refCount: 1_000_000 })
    expectRadError(prelude(bytes), { code: 'TRUNCATED', offset: 9, message: /reference names \(1,000,000 declared\)/ })
  })

  it('a name running past the end: at its bytes', () => {
    const { bytes } = buildRad({ refs: ['abc', 'defgh'] })
    const cut = bytes.subarray(0, 9 + 5 + 2 + 3)
    expectRadError(prelude(cut), { code: 'TRUNCATED', offset: 9 + 5 + 2, message: /reference name 1/ })
  })

  it('num_chunks larger than the chunks present: at the end of the last chunk, with the next chunk number', async () => {
    const { bytes, layout } = buildRad({ ...sc(2), numChunks: 3 })
    const r = await readRad(bytes, true)
    expect(r.scan.index.count).toBe(2)
    expectScanError(r.scan, { code: 'TRUNCATED', offset: layout.size, chunk: 2, message: /after 2 of the 3 chunks/ })
  })

  it('a chunk whose nbytes runs past the end of the file: at its header', async () => {
    const { bytes, layout } = buildRad(sc(3))
    const cut = bytes.subarray(0, layout.size - 1)
    const r = await readRad(cut, true)
    expectScanError(r.scan, { code: 'TRUNCATED', offset: layout.chunks[2]?.offset, chunk: 2 })
  })
})

describe('BAD_TAG_TYPE at the offending type byte', () => {
  // File tag section: u16 count, then str16 name "x" (3 bytes): the type byte is 5 bytes in.
  it('type id 15', () => {
    const { bytes, layout } = buildRad({ fileTags: [tag('x', 15)] })
    expectRadError(prelude(bytes), {
      code: 'BAD_TAG_TYPE',
      offset: layout.tagSectionsOffset + 5,
      message: /type id 15.*0–14/,
    })
  })

  it('type id 255 in the alignment section of a v2 file', () => {
    const { bytes, layout } = buildRad({ v2: true, alnTags: [tag('zz', 255)] })
    expectRadError(prelude(bytes), { code: 'BAD_TAG_TYPE', offset: layout.tagSectionsOffset + 2 + 2 + 2 + 4 })
  })

  for (const [what, length] of [
    ['f32', 5],
    ['bool', 0],
    ['string', 8],
    ['array', 7],
    ['f64', 6],
  ] as const) {
    it(`an array whose length type is ${what}`, () => {
      const { bytes, layout } = buildRad({ readTags: [{ name: 'arr', type: 'array', length, element: 'u8' }] })
      expectRadError(prelude(bytes), {
        code: 'BAD_TAG_TYPE',
        offset: layout.tagSectionsOffset + 2 + 2 + 5 + 1,
        message: /length must be an integer type/,
      })
    })
  }

  it('an array whose element type is 99, or another array', () => {
    for (const element of [99, 7]) {
      const { bytes, layout } = buildRad({ fileTags: [{ name: 'arr', type: 'array', length: 'u32', element }] })
      expectRadError(prelude(bytes), { code: 'BAD_TAG_TYPE', offset: layout.tagSectionsOffset + 2 + 5 + 1 + 1 })
    }
  })
})

describe('BAD_HEADER', () => {
  it('a prelude that would exceed 512 MiB (ext_len ≈ 4 GiB in a 6 GiB file)', async () => {
    const { bytes } = buildRad({ v2: { extLen: 0xfffffff0 } })
    const source = new SparseSource(6 * 2 ** 30).place(0, bytes)
    await expectRadErrorAsync(readPrelude(source), { code: 'BAD_HEADER', offset: 0, message: /larger than/ })
    expect(source.bytesRead).toBeLessThan(1 << 20)
  })
})

describe('BAD_CHUNK_HEADER', () => {
  it('nbytes below 8 (header-inclusive)', async () => {
    const { bytes, layout } = buildRad({ ...sc(3), chunks: [...(sc(3).chunks ?? []).slice(0, 2), { nbytes: 4 }] })
    const r = await readRad(bytes, true)
    expectScanError(r.scan, { code: 'BAD_CHUNK_HEADER', offset: layout.chunks[2]?.offset, chunk: 2 })
    expect(r.scan.index.count).toBe(2)
  })

  it('an absurd nbytes (≥ 1 GiB)', async () => {
    const spec = sc(3)
    const { bytes, layout } = buildRad({ ...spec, patches: [] })
    const at = layout.chunks[1]?.offset ?? 0
    new DataView(bytes.buffer).setUint32(at, 0xfffffff0, true)
    const r = await readRad(bytes, true)
    expectScanError(r.scan, { code: 'BAD_CHUNK_HEADER', offset: at, chunk: 1, message: /absurd/ })
  })

  it('an absurd nrec for the bytes it has', async () => {
    const { bytes, layout } = buildRad(sc(3))
    const at = layout.chunks[1]?.offset ?? 0
    new DataView(bytes.buffer).setUint32(at + 4, 4_000_000_000, true)
    const r = await readRad(bytes, true)
    expectScanError(r.scan, { code: 'BAD_CHUNK_HEADER', offset: at, chunk: 1, message: /nrec is 4,000,000,000/ })
  })
})

describe('CHUNK_OVERRUN / CHUNK_UNDERRUN (exact-fill check of §5.4 on every chunk)', () => {
  for (const k of [0, 2]) {
    it(`a record whose naln runs past chunk ${k}: at that record`, async () => {
      const spec = sc(3)
      const chunks = [...(spec.chunks ?? [])]
      chunks[k] = {
        records: [
          { read: [1, 2], alns: [[3]] },
          { read: [5, 6], alns: [[0]], naln: 9 },
        ],
      }
      const { bytes, layout } = buildRad({ ...spec, chunks })
      const err = await firstError(bytes)
      const recordAt = layout.chunks[k]?.recordOffsets[1]
      expect(err?.toData()).toMatchObject({ code: 'CHUNK_OVERRUN', offset: recordAt, chunk: k })
      expect(err?.message).toMatch(new RegExp(`chunk ${k} .*record 1 at byte ${String(recordAt)}`))
    })

    it(`records ending before chunk ${k} does (an undeclared field): at the first extra byte`, async () => {
      const spec = sc(3)
      const chunks = [...(spec.chunks ?? [])]
      chunks[k] = { ...chunks[k], extra: [0xaa, 0xbb, 0xcc, 0xdd] }
      const { bytes, layout } = buildRad({ ...spec, chunks })
      const err = await firstError(bytes)
      const c = layout.chunks[k]
      const extraAt = (c?.payloadOffset ?? 0) + (c?.records.length ?? 0) - 4
      expect(err?.toData()).toMatchObject({ code: 'CHUNK_UNDERRUN', offset: extraAt, chunk: k })
      expect(err?.message).toMatch(/end 4 bytes before the chunk does/)
    })
  }

  it('a string in a record running past its chunk: at that record', async () => {
    const spec: RadSpec = {
      readTags: [tag('s', 'string')],
      chunks: [{ records: [{ read: ['ok'] }, { read: ['toolong'] }] }],
    }
    const { bytes, layout } = buildRad(spec)
    const c = layout.chunks[0]
    const rec1 = c?.recordOffsets[1] ?? 0
    new DataView(bytes.buffer).setUint16(rec1 + 4, 500, true)
    const err = await firstError(bytes)
    expect(err?.toData()).toMatchObject({ code: 'CHUNK_OVERRUN', offset: rec1, chunk: 0 })
  })

  it('decodeChunk itself reports the overrun at the same place as the CLI path (scanChunks onChunk)', async () => {
    const spec = sc(2)
    const chunks = [spec.chunks?.[0] ?? {}, { records: [{ read: [1, 2], alns: [[3]], naln: 9 }] }]
    const { bytes, layout } = buildRad({ ...spec, chunks })
    const opened = await openRad(new BytesSource(bytes))
    const scan = await scanChunks(opened.source, opened.prelude, {
      onChunk: (b, offset, k) => {
        decodeChunk(b, offset, k, opened.prelude, 'header-inclusive')
        return undefined
      },
    })
    // A problem inside one chunk's records is listed and the walk goes on (its header is sound).
    expect(scan.error).toBeUndefined()
    const issue = scan.issues.find((i) => i.severity === 'error')
    expect(issue).toMatchObject({
      code: 'CHUNK_OVERRUN',
      kind: 'corrupt-chunk',
      offset: layout.chunks[1]?.payloadOffset,
      chunk: 1,
    })
    expect(scan.index.count).toBe(2)
  })
})

describe('VALUE_TOO_LARGE', () => {
  it('ref_count of 2^53', () => {
    const { bytes } = buildRad({ refCount: 2n ** 53n })
    expectRadError(prelude(bytes), {
      code: 'VALUE_TOO_LARGE',
      offset: 1,
      message: /ref_count at byte 1 is 9007199254740992/,
    })
  })

  it('num_chunks of 2^60 in a v2 file', () => {
    const { bytes, layout } = buildRad({ v2: true, refs: ['a'], numChunks: 2n ** 60n })
    expectRadError(prelude(bytes), { code: 'VALUE_TOO_LARGE', offset: layout.numChunksOffset })
  })
})

describe('BAD_VALUE', () => {
  it('a negative array count (i8 length) in a file tag value: at the count', () => {
    const { bytes, layout } = buildRad({ fileTags: [arrayTag('a', 'i8', 'u8')], fileValues: [[]] })
    bytes[layout.tagValuesOffset] = 0xff
    expectRadError(prelude(bytes), { code: 'BAD_VALUE', offset: layout.tagValuesOffset, message: /is -1/ })
  })

  it('an array count beyond 2^53 (u64 length)', () => {
    const { bytes, layout } = buildRad({ fileTags: [tag('x', 'u8'), arrayTag('a', 'u64', 'u8')], fileValues: [1, []] })
    new DataView(bytes.buffer).setBigUint64(layout.tagValuesOffset + 1, 2n ** 60n, true)
    expectRadError(prelude(bytes), { code: 'BAD_VALUE', offset: layout.tagValuesOffset + 1 })
  })

  it('a negative array count inside a record: at its absolute file offset, with the chunk', async () => {
    const spec: RadSpec = {
      readTags: [arrayTag('a', 'i16', 'u8')],
      chunks: [{ records: [{ read: [[1]] }] }, { records: [{ read: [[1, 2]] }, { read: [[]] }] }],
    }
    const { bytes, layout } = buildRad(spec)
    const at = (layout.chunks[1]?.recordOffsets[1] ?? 0) + 4
    new DataView(bytes.buffer).setInt16(at, -2, true)
    const err = await firstError(bytes)
    expect(err?.toData()).toMatchObject({ code: 'BAD_VALUE', offset: at, chunk: 1 })
  })
})

describe('BAD_CODEC', () => {
  it('chunk_codec = 3 (a newer codec): the header and chunk table read; each chunk says it cannot be decoded', async () => {
    const spec: RadSpec = {
      fileTags: [tag('chunk_codec', 'u8')],
      fileValues: [3],
      readTags: [tag('b', 'u32')],
      alnTags: [],
      chunks: [0, 1, 2].map(() => ({ records: [{ read: [7], alns: [] }] })),
    }
    const { bytes, layout } = buildRad(spec)
    const opened = await openRad(new BytesSource(bytes))
    expect(opened.prelude.codec).toBe('unknown')
    const scan = await scanChunks(opened.source, opened.prelude, {
      check: makeCheckPlan(opened.prelude, inferSemantics(opened.prelude)),
    })
    expect(scan.error).toBeUndefined()
    expect(scan.index.count).toBe(3)
    expect(scan.records).toBe(3)
    expect(scan.issues).toContainEqual(
      expect.objectContaining({ kind: 'unknown-codec', severity: 'error', offset: layout.tagValuesOffset }),
    )
    expect(scan.issues.find((i) => i.kind === 'unknown-codec')?.message).toMatch(
      /is 3;.*the header and the chunk table are shown/,
    )
    const at = layout.chunks[1]?.offset ?? 0
    expectRadError(() => decodeChunk(bytes.subarray(at), at, 1, opened.prelude, scan.convention), {
      code: 'BAD_CODEC',
      offset: at,
      message: /chunk 1 at byte .* codec this reader does not know/,
    })
  })

  it('chunk_codec of type u16', () => {
    const { bytes, layout } = buildRad({ fileTags: [tag('chunk_codec', 'u16')], fileValues: [1] })
    expectRadError(prelude(bytes), { code: 'BAD_CODEC', offset: layout.tagValuesOffset, message: /must be u8/ })
  })
})

describe('DECOMPRESS_FAILED: at the chunk header, with the chunk', () => {
  function compressed(codec: 1 | 2, bad: Uint8Array | number[], k = 1): { bytes: Uint8Array; at: number } {
    const spec = salmonScRna()
    const chunks = [...(spec.chunks ?? [])]
    chunks[k] = { ...chunks[k], stored: bad }
    const { bytes, layout } = buildRad({
      ...spec,
      fileTags: [...(spec.fileTags ?? []), tag('chunk_codec', 'u8')],
      fileValues: { cblen: 16, ulen: 12, chunk_codec: codec },
      chunks,
    })
    return { bytes, at: layout.chunks[k]?.offset ?? -1 }
  }

  const lz4Cases: [string, number[], RegExp][] = [
    ['an lz4 payload shorter than its size prefix', [1, 0], /shorter than its 4-byte size prefix/],
    ['an lz4 size prefix that no block could reach', [0xff, 0xff, 0xff, 0x0f, 0x10, 0x41], /impossible/],
    ['an lz4 block that decodes to fewer bytes than its prefix', [40, 0, 0, 0, 0x30, 0x41, 0x42, 0x43], /decodes to 3/],
    ['an lz4 block with a match offset before its start', [40, 0, 0, 0, 0x1f, 0x41, 0xff, 0x7f, 0xff, 0xff], /lz4/],
  ]
  for (const [what, bad, message] of lz4Cases) {
    it(what, async () => {
      const { bytes, at } = compressed(1, bad)
      const err = await firstError(bytes)
      expect(err?.toData()).toMatchObject({ code: 'DECOMPRESS_FAILED', offset: at, chunk: 1 })
      expect(err?.message).toMatch(message)
    })
  }

  it('a zstd frame with a damaged body', async () => {
    const good = zstdFrame(new Uint8Array(4000).map((_, i) => (i * 31) % 251))
    const bad = good.slice()
    for (let i = 8; i < bad.length - 4; i += 3) bad[i] = (bad[i] ?? 0) ^ 0x5a
    const { bytes, at } = compressed(2, bad, 0)
    const err = await firstError(bytes)
    expect(err?.toData()).toMatchObject({ code: 'DECOMPRESS_FAILED', offset: at, chunk: 0 })
  })

  it('bytes that are not a zstd frame at all', async () => {
    const { bytes, at } = compressed(2, [1, 2, 3, 4, 5, 6, 7, 8, 9])
    const err = await firstError(bytes)
    expect(err?.toData()).toMatchObject({ code: 'DECOMPRESS_FAILED', offset: at, chunk: 1 })
    expect(err?.message).toMatch(/zstd frame is corrupt/)
  })

  it('a zstd frame header claiming more than 1 GiB', async () => {
    // magic, FHD = 0xa0 (8-byte content size, single segment), size 2^40
    const w = new ByteWriter()
      .bytes([0x28, 0xb5, 0x2f, 0xfd, 0xe0])
      .u64(2n ** 40n)
      .bytes([1, 0, 0])
    const { bytes, at } = compressed(2, w.finish())
    const err = await firstError(bytes)
    expect(err?.toData()).toMatchObject({ code: 'DECOMPRESS_FAILED', offset: at, chunk: 1 })
    expect(err?.message).toMatch(/claims 1,099,511,627,776/)
  })
})

describe('BAD_SNAPPY (whole-file .sz streams, §6.1)', () => {
  const plain = buildRad(salmonScRna()).bytes

  it('a reserved unskippable frame type: at that frame', async () => {
    const sz = snappyFrame(plain, { frameSize: 100 })
    const w = new ByteWriter()
      .bytes(sz.subarray(0, 10))
      .u32(0x02 | (3 << 8))
      .bytes([0, 0, 0])
    await expectRadErrorAsync(openRad(new BytesSource(w.bytes(sz.subarray(10)).finish())), {
      code: 'BAD_SNAPPY',
      offset: 10,
      message: /reserved type 0x2/,
    })
  })

  it('a compressed frame whose body is corrupt: at that frame, when read', async () => {
    const sz = snappyFrame(plain, { frameSize: 1000 })
    // frame 0 starts at 10: header 4 + crc 4, then the varint length; damage the data after it
    const bad = sz.slice()
    for (let i = 20; i < 60; i++) bad[i] = 0xff
    const err = await firstError(bad)
    expect(err?.toData()).toMatchObject({ code: 'BAD_SNAPPY', offset: 10 })
  })

  it('an uncompressed frame shorter than its CRC', async () => {
    const w = new ByteWriter()
      .bytes(snappyFrame(new Uint8Array(0)))
      .u32(0x01 | (2 << 8))
      .bytes([0, 0])
    await expectRadErrorAsync(openRad(new BytesSource(w.finish())), { code: 'BAD_SNAPPY', offset: 10 })
  })

  it('a frame claiming more than 64 KiB of data', async () => {
    const body = new Uint8Array(65537 + 4)
    const w = new ByteWriter()
      .bytes(snappyFrame(new Uint8Array(0)))
      .u32(0x01 | (body.length << 8))
      .bytes(body)
    await expectRadErrorAsync(openRad(new BytesSource(w.finish())), {
      code: 'BAD_SNAPPY',
      offset: 10,
      message: /length/,
    })
  })
})

describe('READ_FAILED', () => {
  it('a Blob that cannot be read (file moved): at the read offset', async () => {
    class GoneBlob extends Blob {
      override slice(): Blob {
        return { arrayBuffer: () => Promise.reject(new Error('NotReadableError')) } as unknown as Blob
      }
    }
    const source = new BlobSource(new GoneBlob([new Uint8Array(100)]))
    await expectRadErrorAsync(source.read(40, 10), { code: 'READ_FAILED', offset: 40, message: /NotReadableError/ })
  })
})

describe('RadError', () => {
  it('keeps code, offset and chunk through toData/fromData for every code', () => {
    for (const code of RAD_ERROR_CODES) {
      const e = new RadError(code, `m ${code}`, 2 ** 40 + 3, 17)
      const back = RadError.fromData(structuredClone(e.toData()))
      expect(back).toBeInstanceOf(RadError)
      expect([back.code, back.message, back.offset, back.chunk]).toEqual([code, `m ${code}`, 2 ** 40 + 3, 17])
      expect(isRadErrorCode(code)).toBe(true)
    }
    expect(isRadErrorCode('NOPE')).toBe(false)
    const noOffset = new RadError('TRUNCATED', 'x')
    expect(noOffset.toData()).toEqual({ code: 'TRUNCATED', message: 'x' })
    expect(noOffset.inChunk(3).chunk).toBe(3)
  })
})
