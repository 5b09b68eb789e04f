/** Per-chunk lz4/zstd compression (§6) and whole-file Snappy framing (§6.1). */
import { beforeAll, describe, expect, it } from 'vitest'
import { decompressChunk } from '../../src/rad/decode/codec'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { SnappyFramedSource } from '../../src/io/snappySource'
import { RecordingSource } from '../helpers/recordingSource'
import {
  SNAPPY_STREAM_IDENTIFIER,
  buildRad,
  crc32c,
  lz4Payload,
  loadZstd,
  maskedCrc32c,
  snappyFrame,
  tag,
  zstdFrame,
} from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'
import { firstError, flatRecords, readRad } from '../helpers/read'
import { bulk, multiBarcodeV2, piscemScRnaV2, salmonScRna } from '../helpers/assays'

beforeAll(loadZstd)

/** Byte equality without the deep-equality diff machinery (fast on MBs). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(a, b) === 0
}

function withCodec(spec: RadSpec, codec: number): RadSpec {
  return {
    ...spec,
    fileTags: [...(spec.fileTags ?? []), tag('chunk_codec', 'u8')],
    fileValues: { ...(spec.fileValues as Record<string, never>), chunk_codec: codec },
  }
}

/** Many records with varied values, so chunks are tens of KB. */
function manyRecords(n: number, seed = 1): RadSpec {
  let x = seed
  const rnd = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0)
  const records = Array.from({ length: n }, () => ({
    read: [rnd(), rnd() & 0xffffff],
    alns: Array.from({ length: 1 + (rnd() % 4) }, () => [(rnd() & 0x80000000) | (rnd() % 6)]),
  }))
  const spec = salmonScRna()
  const chunks = []
  for (let i = 0; i < n; i += 2500) chunks.push({ records: records.slice(i, i + 2500) })
  return { ...spec, chunks }
}

describe('lz4 and zstd chunks (chunk_codec 1 and 2)', () => {
  const assays: [string, RadSpec][] = [
    ['salmon scRNA', salmonScRna()],
    ['piscem sc_rna_pos v2', piscemScRnaV2(true)],
    ['multi-barcode v2', multiBarcodeV2()],
    ['bulk v2', bulk(true)],
    ['10,000 random records', manyRecords(10_000)],
  ]
  for (const [codec, name] of [
    [1, 'lz4'],
    [2, 'zstd'],
  ] as const) {
    for (const [what, spec] of assays) {
      it(`${name}: ${what} decodes to the same records as the plain file`, async () => {
        const plain = await readRad(buildRad(spec).bytes)
        const built = buildRad(withCodec(spec, codec))
        const packed = await readRad(built.bytes)
        expect(packed.prelude.codec).toBe(name)
        expect(flatRecords(packed)).toEqual(flatRecords(plain))
        // nbytes = 8 + compressed length; nrec is stored uncompressed
        expect(Array.from(packed.scan.index.nbytes)).toEqual(built.layout.chunks.map((c) => c.span))
        expect(Array.from(packed.scan.index.nrec)).toEqual(Array.from(plain.scan.index.nrec))
      })
    }

    it(`${name}: empty chunks and records without alignments`, async () => {
      const spec = salmonScRna()
      const chunks = [{}, { records: [{ read: [1, 2], alns: [] }] }, ...(spec.chunks ?? []), {}]
      const r = await readRad(buildRad(withCodec({ ...spec, chunks }, codec)).bytes)
      expect(r.chunks.map((c) => c.recordCount)).toEqual([0, 1, 2, 2, 1, 0])
      expect(r.chunks[1]?.alignmentCount).toBe(0)
    })
  }

  for (const [codec, name] of [
    [1, 'lz4'],
    [2, 'zstd'],
  ] as const) {
    it(`${name}: payload-only nbytes are detected through decompression`, async () => {
      const spec = withCodec({ ...salmonScRna(), nbytes: 'payload-only' }, codec)
      const r = await readRad(buildRad(spec).bytes)
      expect(r.scan.convention).toBe('payload-only')
      expect(r.chunks.map((c) => c.recordCount)).toEqual([2, 2, 1])
    })
  }

  it('chunk_codec 0 means plain chunks', async () => {
    const r = await readRad(buildRad(withCodec(salmonScRna(), 0)).bytes)
    expect(r.prelude.codec).toBe('none')
    expect(r.scan.index.count).toBe(3)
  })

  it('lz4: incompressible payloads (a literal-only block) and highly repetitive ones decode', () => {
    const noise = new Uint8Array(5000).map((_, i) => (Math.imul(i, 2654435761) >>> 13) & 0xff)
    expect(decompressChunk('lz4', lz4Payload(noise), 0, 0)).toEqual(noise)
    const zeros = new Uint8Array(1 << 20)
    const packed = lz4Payload(zeros)
    expect(packed.length).toBeLessThan(10_000)
    expect(same(decompressChunk('lz4', packed, 0, 0), zeros)).toBe(true)
    expect(decompressChunk('lz4', lz4Payload(new Uint8Array(0)), 0, 0)).toEqual(new Uint8Array(0))
    expect(decompressChunk('lz4', lz4Payload(Uint8Array.of(7)), 0, 0)).toEqual(Uint8Array.of(7))
  })

  it('lz4: random inputs round-trip through lz4js behind the structural check', () => {
    let x = 99
    const rnd = (): number => (x = (Math.imul(x, 1103515245) + 12345) >>> 0)
    for (let t = 0; t < 300; t++) {
      const n = rnd() % 3000
      const alphabet = 1 + (rnd() % 8) // few symbols: many (overlapping) matches
      const data = Uint8Array.from({ length: n }, () => (rnd() >>> 8) % alphabet)
      const out = decompressChunk('lz4', lz4Payload(data), 0, 0)
      expect(same(out, data), `input ${t} of ${n} bytes`).toBe(true)
    }
  })

  it('lz4: a cut or damaged block fails (DECOMPRESS_FAILED) instead of decoding to zeros', () => {
    const data = new Uint8Array(200).map((_, i) => (i < 100 ? 7 : (i * 37) & 0xff))
    const packed = lz4Payload(data)
    for (let cut = 1; cut < packed.length - 4; cut++) {
      expect(() => decompressChunk('lz4', packed.subarray(0, packed.length - cut), 3, 99)).toThrow(
        expect.objectContaining({ code: 'DECOMPRESS_FAILED', offset: 99, chunk: 3 }),
      )
    }
    let x = 7
    for (let t = 0; t < 500; t++) {
      const bad = packed.slice()
      x = (Math.imul(x, 1103515245) + 12345) >>> 0
      const at = 4 + (x % (bad.length - 4))
      bad[at] = (bad[at] ?? 0) ^ (1 + (x >>> 24))
      try {
        decompressChunk('lz4', bad, 0, 0)
      } catch (e) {
        expect(e).toMatchObject({ code: 'DECOMPRESS_FAILED' })
      }
    }
  })

  it('zstd: every cut of a frame fails with DECOMPRESS_FAILED', () => {
    const frame = zstdFrame(new Uint8Array(3000).map((_, i) => (i * i) & 0xff))
    const outcomes = new Set<string>()
    for (let cut = 1; cut < frame.length; cut++) {
      try {
        decompressChunk('zstd', frame.subarray(0, frame.length - cut), 1, 2)
        outcomes.add('decoded')
      } catch (e) {
        outcomes.add((e as { code?: string }).code ?? String(e))
      }
    }
    expect([...outcomes]).toEqual(['DECOMPRESS_FAILED'])
  })

  it('zstd: standard frames (magic 28 b5 2f fd) at several levels decode', () => {
    const data = new Uint8Array(100_000).map((_, i) => (i * 7) % 13)
    for (const level of [1, 3, 19]) {
      const frame = zstdFrame(data, level)
      expect(Array.from(frame.subarray(0, 4))).toEqual([0x28, 0xb5, 0x2f, 0xfd])
      expect(same(decompressChunk('zstd', frame, 0, 0), data)).toBe(true)
    }
  })

  it('a corrupt compressed chunk names its chunk; the chunks before it are indexed', async () => {
    const spec = withCodec(salmonScRna(), 1)
    const { bytes, layout } = buildRad({
      ...spec,
      chunks: [...(spec.chunks ?? []).slice(0, 2), { records: [], stored: [9, 9] }],
    })
    const err = await firstError(bytes)
    expect(err?.toData()).toMatchObject({ code: 'DECOMPRESS_FAILED', offset: layout.chunks[2]?.offset, chunk: 2 })
  })
})

describe('Snappy framing format (.sz, §6.1)', () => {
  it('the writer frames with CRC-32C (check value of "123456789" is 0xe3069283), masked', () => {
    const check = new TextEncoder().encode('123456789')
    expect(crc32c(check)).toBe(0xe3069283)
    const crc = 0xe3069283
    expect(maskedCrc32c(check)).toBe((((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0)
    const sz = snappyFrame(check)
    expect(Array.from(sz.subarray(0, 10))).toEqual(Array.from(SNAPPY_STREAM_IDENTIFIER))
    expect(sz[10]).toBe(0x00)
  })

  const plainSpec = manyRecords(12_000, 7)
  const plain = buildRad(plainSpec).bytes
  let plainCache: ReturnType<typeof readRad> | undefined
  const plainRead = (): ReturnType<typeof readRad> => (plainCache ??= readRad(plain))
  const variants: [string, Parameters<typeof snappyFrame>[1]][] = [
    ['64 KiB compressed frames', {}],
    ['64 KiB uncompressed frames', { mode: 'uncompressed' }],
    ['1,000-byte frames, alternating compressed/uncompressed', { frameSize: 1000, mode: 'alternate' }],
    ['padding and skippable frames between data frames', { frameSize: 4096, skippableFrames: true }],
    ['three concatenated Snappy streams', { frameSize: 20_000, streams: 3 }],
  ]

  it('the plain file spans many frames', () => {
    expect(plain.length).toBeGreaterThan(3 * 65536)
  })

  for (const [what, opts] of variants) {
    it(`${what}: opens as a Snappy container and gives the same records as the plain file`, async () => {
      const sz = snappyFrame(plain, opts)
      const want = await plainRead()
      const got = await readRad(sz)
      expect(got.container).toBe('snappy-framed')
      expect(got.source.size).toBe(plain.length)
      expect(got.prelude.warnings[0]).toMatch(/Snappy stream/)
      expect(Array.from(got.scan.index.offset)).toEqual(Array.from(want.scan.index.offset))
      expect(flatRecords(got)).toEqual(flatRecords(want))
    })
  }

  it('reads any byte range of the unwrapped stream exactly (random access across frames)', async () => {
    const src = await SnappyFramedSource.open(
      new BytesSource(snappyFrame(plain, { frameSize: 777, mode: 'alternate' })),
    )
    expect(src.size).toBe(plain.length)
    for (const [offset, length] of [
      [0, 10],
      [770, 20],
      [776, 1],
      [777, 777],
      [5000, 40_000],
      [plain.length - 5, 100],
      [plain.length, 10],
    ] as const) {
      expect(await src.read(offset, length)).toEqual(plain.subarray(offset, Math.min(plain.length, offset + length)))
    }
  })

  it('readInto decodes the frames of a range into the given memory, and declines memory too small', async () => {
    const src = await SnappyFramedSource.open(new BytesSource(snappyFrame(plain, { frameSize: 777 })))
    const into = new ArrayBuffer(50_000)
    const got = await src.readInto(770, 40_000, into)
    expect(got?.buffer).toBe(into)
    expect(got).toEqual(plain.subarray(770, 40_770))
    expect(await src.readInto(plain.length - 5, 100, new ArrayBuffer(5))).toEqual(plain.subarray(plain.length - 5))
    expect(await src.readInto(0, 100, new ArrayBuffer(99))).toBeUndefined()
  })

  it("a second reader built from the first one's frame table reads the same bytes without walking the file", async () => {
    const file = new RecordingSource(snappyFrame(plain, { frameSize: 777 }))
    const walked = await SnappyFramedSource.open(file)
    const before = file.reads.length
    const shared = SnappyFramedSource.fromTable(file, structuredClone(walked.frameTable()))
    expect(file.reads.length).toBe(before)
    expect(shared.size).toBe(plain.length)
    expect(await shared.read(770, 40_000)).toEqual(plain.subarray(770, 40_770))
    expect(await shared.read(plain.length - 3, 10)).toEqual(plain.subarray(plain.length - 3))
  })

  it('an .sz of a v2 file with lz4 chunks inside still decodes', async () => {
    const spec = withCodec(piscemScRnaV2(true), 1)
    const r = await readRad(snappyFrame(buildRad(spec).bytes, { frameSize: 50 }))
    const direct = await readRad(buildRad(spec).bytes)
    expect(r.prelude.codec).toBe('lz4')
    expect(flatRecords(r)).toEqual(flatRecords(direct))
  })

  it('a truncated .sz fails with TRUNCATED at the cut frame', async () => {
    const sz = snappyFrame(plain, { frameSize: 1000 })
    const err = await firstError(sz.subarray(0, sz.length - 10))
    expect(err?.code).toBe('TRUNCATED')
    const stray = await firstError(new Uint8Array([...snappyFrame(new Uint8Array(10)), 0x00, 0x01]))
    expect(stray?.code).toBe('TRUNCATED')
  })

  it('openRad reports the container and keeps the outer file size', async () => {
    const sz = snappyFrame(plain)
    const opened = await openRad(new BytesSource(sz))
    expect(opened).toMatchObject({ container: 'snappy-framed', fileSize: sz.length })
    expect(opened.source.size).toBe(plain.length)
  })
})
