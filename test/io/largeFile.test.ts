/**
 * Files over 4 GiB without a 4 GiB fixture (docs/architecture.md §5): a SparseSource
 * serves a writer-made prelude, legit ~915 MiB chunks whose records are a
 * repeated 16-byte record generated on demand, and small real chunks, one of
 * them straddling 2^32 and others past 6 GiB. Offsets must be exact.
 */
import { describe, expect, it } from 'vitest'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { chunkForRecord } from '../../src/rad/chunkIndex'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { RadError } from '../../src/rad/errors'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { ByteWriter, buildRad, oriRefId, pack2bitNumber } from '../helpers/radWriter'
import type { ChunkSpec } from '../helpers/radWriter'
import { flatRecords } from '../helpers/read'
import type { ReadResult } from '../helpers/read'
import { SparseSource } from '../helpers/sparseSource'
import { REFS, salmonScRna } from '../helpers/assays'

const TWO_32 = 2 ** 32
const GIB = 2 ** 30

/** The repeated record: naln 1, b, u, one alignment (16 bytes). */
const UNIT = new ByteWriter()
  .u32(1)
  .u32(pack2bitNumber('GATTACAGATTACAGA'))
  .u32(pack2bitNumber('ACGTACGTACGT'))
  .u32(oriRefId(4, true))
  .finish()
const BIG_RECORDS = 60_000_000 // 960,000,008-byte chunks: legit (< 1 GiB)

interface Piece {
  kind: 'big' | 'small'
  offset: number
  nbytes: number
  nrec: number
  bytes?: Uint8Array
}

/** Small real chunks, built by the writer with the same tags. */
function smallChunks(chunks: ChunkSpec[]): Uint8Array[] {
  const { bytes, layout } = buildRad({ ...salmonScRna(), chunks })
  return layout.chunks.map((c) => bytes.subarray(c.offset, c.offset + c.span))
}

const SMALL = smallChunks([
  {
    records: [
      { read: [pack2bitNumber('AAAACCCCGGGGTTTT'), pack2bitNumber('TTTTTTTTTTTT')], alns: [[oriRefId(0, false)]] },
    ],
  },
  {
    records: [
      {
        read: [pack2bitNumber('CCCCCCCCCCCCCCCC'), pack2bitNumber('GGGGGGGGGGGG')],
        alns: [[oriRefId(1, true)], [oriRefId(2, true)]],
      },
      { read: [pack2bitNumber('ACACACACACACACAC'), pack2bitNumber('CACACACACACA')], alns: [] },
    ],
  },
  {
    records: [
      { read: [pack2bitNumber('TTTTGGGGCCCCAAAA'), pack2bitNumber('AAAAAAAAAAAA')], alns: [[oriRefId(5, true)]] },
    ],
  },
  { records: [{ read: [pack2bitNumber('GGGGGGGGGGGGGGGG'), pack2bitNumber('CCCCCCCCCCCC')], alns: [] }] },
])

/**
 * small, big ×4, a big one sized so the next (small) chunk straddles 2^32, small, big ×3, small, small.
 * Chunk 0 is small: the reader reads chunk 0 whole to tell the nbytes convention (§4.2).
 */
function layoutPieces(first: number, lastSmall: Uint8Array = SMALL[2]!): Piece[] {
  const pieces: Piece[] = []
  let pos = first
  const big = (nrec: number): void => {
    pieces.push({ kind: 'big', offset: pos, nbytes: 8 + 16 * nrec, nrec })
    pos += 8 + 16 * nrec
  }
  const small = (bytes: Uint8Array): void => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, 8)
    pieces.push({ kind: 'small', offset: pos, nbytes: view.getUint32(0, true), nrec: view.getUint32(4, true), bytes })
    pos += bytes.length
  }
  small(SMALL[3]!)
  for (let i = 0; i < 4; i++) big(BIG_RECORDS)
  big(Math.floor((TWO_32 - 13 - pos - 8) / 16)) // the small chunk then starts a few bytes below 2^32
  small(SMALL[0]!)
  for (let i = 0; i < 3; i++) big(BIG_RECORDS)
  small(SMALL[1]!)
  small(lastSmall)
  return pieces
}

function sparseFile(lastSmall?: Uint8Array, cut = 0): { source: SparseSource; pieces: Piece[] } {
  const pieces0 = layoutPieces(0)
  const { bytes: prelude } = buildRad({ ...salmonScRna(), chunks: [], numChunks: pieces0.length })
  const pieces = layoutPieces(prelude.length, lastSmall)
  const last = pieces.at(-1)!
  const size = last.offset + (last.bytes?.length ?? 0) - cut
  const source = new SparseSource(size).place(0, prelude)
  for (const p of pieces) {
    if (p.kind === 'big') {
      source.place(p.offset, new ByteWriter().u32(p.nbytes).u32(p.nrec).finish())
      source.repeat(p.offset + 8, p.nbytes - 8, UNIT)
    } else if (p.bytes) {
      source.place(p.offset, p.offset + p.bytes.length <= size ? p.bytes : p.bytes.subarray(0, size - p.offset))
    }
  }
  return { source, pieces }
}

describe('files over 4 GiB (SparseSource)', () => {
  it('lays out chunks past 2^32 and past 6 GiB (a sanity check of the test itself)', () => {
    const { source, pieces } = sparseFile()
    expect(source.size).toBeGreaterThan(6 * GIB)
    const straddler = pieces[6]!
    expect(straddler.kind).toBe('small')
    expect(straddler.offset).toBeLessThan(TWO_32)
    expect(straddler.offset + (straddler.bytes?.length ?? 0)).toBeGreaterThan(TWO_32)
    expect(pieces.every((p) => p.nbytes < GIB)).toBe(true)
  })

  it('indexes every chunk at its exact offset, hopping header to header without reading the file', async () => {
    const { source, pieces } = sparseFile()
    const { prelude } = await openRad(source)
    const scan = await scanChunks(source, prelude)
    expect(scan.error).toBeUndefined()
    expect(scan.index.count).toBe(pieces.length)
    expect(Array.from(scan.index.offset)).toEqual(pieces.map((p) => p.offset))
    expect(Array.from(scan.index.nbytes)).toEqual(pieces.map((p) => p.nbytes))
    const offsets = Array.from(scan.index.offset)
    expect(offsets.filter((o) => o > TWO_32)).toHaveLength(5)
    expect(offsets.some((o) => o > 6 * GIB)).toBe(true)
    // records: exact beyond 2^32 as well
    const totalRecords = pieces.reduce((n, p) => n + p.nrec, 0)
    expect(scan.records).toBe(totalRecords)
    expect(totalRecords).toBeGreaterThan(TWO_32 / 16)
    let first = 0
    pieces.forEach((p, k) => {
      expect(scan.index.firstRecord[k]).toBe(first)
      first += p.nrec
    })
    expect(chunkForRecord(scan.index, totalRecords - 1)).toBe(pieces.length - 1)
    expect(chunkForRecord(scan.index, scan.index.firstRecord[6] ?? 0)).toBe(6)
    expect(chunkForRecord(scan.index, (scan.index.firstRecord[6] ?? 0) - 1)).toBe(5)
    expect(scan.endOffset).toBe(source.size)
    // no whole-file read: only the prelude window and chunk-header hops
    expect(source.bytesRead).toBeLessThan(64 << 20)
  })

  it('decodes the chunk straddling 2^32 and those past 6 GiB from (offset, nbytes) alone', async () => {
    const { source } = sparseFile()
    const { prelude } = await openRad(source)
    const scan = await scanChunks(source, prelude)
    const chunks = []
    for (const k of [6, 10, 11]) {
      const offset = scan.index.offset[k] ?? 0
      const bytes = await source.read(offset, chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention))
      chunks.push(decodeChunk(bytes, offset, k, prelude, scan.convention))
    }
    expect(chunks.map((c) => c.offset)).toEqual([6, 10, 11].map((k) => scan.index.offset[k]))
    const r = { prelude, chunks, scan, sem: (await import('../../src/rad/prelude/semantics')).inferSemantics(prelude) }
    const got = flatRecords(r as ReadResult).map((f) => [
      f.record.barcodes[0],
      f.record.umi,
      f.alns.map((a) => a.refName),
    ])
    expect(got).toEqual([
      ['AAAACCCCGGGGTTTT', 'TTTTTTTTTTTT', [REFS[0]]],
      ['CCCCCCCCCCCCCCCC', 'GGGGGGGGGGGG', [REFS[1], REFS[2]]],
      ['ACACACACACACACAC', 'CACACACACACA', []],
      ['TTTTGGGGCCCCAAAA', 'AAAAAAAAAAAA', [REFS[5]]],
    ])
  })

  it('decodes a slice of a big generated chunk beyond 2^32 as its repeated record', async () => {
    const { source, pieces } = sparseFile()
    const big = pieces[8]!
    expect(big.offset).toBeGreaterThan(TWO_32)
    // A chunk made of the first 1,000 records of that chunk, re-headed: same bytes, same records.
    const head = new ByteWriter()
      .u32(8 + 16 * 1000)
      .u32(1000)
      .finish()
    const payload = await source.read(big.offset + 8, 16 * 1000)
    const { prelude } = await openRad(source)
    const cols = decodeChunk(new Uint8Array([...head, ...payload]), big.offset, 8, prelude, 'header-inclusive')
    expect(cols.recordCount).toBe(1000)
    expect(cols.alignmentCount).toBe(1000)
    expect(cols.readColumns[0]?.values[999]).toBe(pack2bitNumber('GATTACAGATTACAGA'))
  })

  it('reports a bad chunk past 6 GiB at its exact byte offset', async () => {
    const broken = smallChunks([{ records: [{ read: [1, 2], alns: [[3]] }], extra: [0, 0, 0, 0] }])[0]!
    const { source, pieces } = sparseFile(broken)
    const { prelude } = await openRad(source)
    const scan = await scanChunks(source, prelude)
    const k = pieces.length - 1
    const offset = scan.index.offset[k] ?? 0
    expect(offset).toBeGreaterThan(6 * GIB)
    const bytes = await source.read(offset, chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention))
    let err: unknown
    try {
      decodeChunk(bytes, offset, k, prelude, scan.convention)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(RadError)
    // 8-byte header + one 16-byte record, then the 4 undeclared bytes
    expect((err as RadError).toData()).toMatchObject({ code: 'CHUNK_UNDERRUN', offset: offset + 8 + 16, chunk: k })
    expect((err as RadError).message).toContain(offset.toLocaleString('en-US'))
  })

  it('reports a file cut inside its last chunk as TRUNCATED at that chunk, past 6 GiB', async () => {
    const { source, pieces } = sparseFile(undefined, 3)
    const { prelude } = await openRad(source)
    const scan = await scanChunks(source, prelude)
    const last = pieces.at(-1)!
    expect(scan.index.count).toBe(pieces.length - 1)
    expect(scan.error).toMatchObject({ code: 'TRUNCATED', offset: last.offset, chunk: pieces.length - 1 })
  })
})

describe('SparseSource (the test helper itself)', () => {
  it('serves placed bytes over repeating patterns over zeros, at any offset', async () => {
    const unit = Uint8Array.of(1, 2, 3, 4, 5, 6, 7)
    const src = new SparseSource(10 * GIB).repeat(100, 1000, unit).place(150, Uint8Array.of(9, 9))
    const naive = (at: number): number =>
      at === 150 || at === 151 ? 9 : at >= 100 && at < 1100 ? (unit[(at - 100) % 7] ?? -1) : 0
    for (const [offset, length] of [
      [0, 1200],
      [97, 10],
      [103, 500],
      [1095, 10],
      [8 * GIB, 16],
    ] as const) {
      const got = await src.read(offset, length)
      expect(Array.from(got)).toEqual(Array.from({ length }, (_, i) => naive(offset + i)))
    }
    expect(await src.read(10 * GIB - 2, 10)).toHaveLength(2)
    await expect(src.read(0, 65 << 20)).rejects.toThrow(/exceeds/)
    await expect(src.read(0.5, 2)).rejects.toThrow(RangeError)
  })
})
