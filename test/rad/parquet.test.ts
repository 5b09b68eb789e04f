/** The Parquet table's core (docs/engines.md): its columns, its values' forms, its sequences as view decodes them. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decode2bit } from '../../src/rad/text/display'
import { DictionaryValues } from '../../src/rad/parquet/parquetDictionary'
import type { EncodedPages } from '../../src/rad/parquet/parquetDictionary'
import { ParquetRows } from '../../src/rad/parquet/parquetRows'
import { parquetPlan } from '../../src/rad/parquet/parquetSchema'
import { writeBases } from '../../src/rad/parquet/parquetSequences'
import { ColumnValues } from '../../src/rad/parquet/parquetValues'
import type { ParquetData } from '../../src/rad/parquet/parquetValues'
import { multiBarcodeV2, salmonScRna } from '../helpers/assays'
import { readRad } from '../helpers/read'
import { buildRad, tag } from '../helpers/radWriter'

/** PLAIN values: byte arrays (length, then the bytes) as text, or INT32s. */
function plainValues(bytes: Uint8Array, count: number, int32: boolean): (string | number)[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  const out: (string | number)[] = []
  for (let at = 0; out.length < count;) {
    const n = view.getInt32(at, true)
    if (int32) {
      out.push(n)
      at += 4
    } else {
      out.push(new TextDecoder().decode(bytes.subarray(at + 4, at + 4 + n)))
      at += 4 + n
    }
  }
  return out
}

/** The rows of pages encoded by the export, read back as a reader would (one bit-packed run of indices). */
function decodePages(p: EncodedPages, int32 = false): (string | number)[] {
  if (!p.dictionary) return plainValues(p.data, p.rows, int32)
  const dict = plainValues(p.dictionary.bytes, p.dictionary.count, int32)
  const width = p.data[0] ?? 0
  let at = 1
  let header = 0
  for (let shift = 0; ; shift += 7) {
    const b = p.data[at++] ?? 0
    header += (b & 127) * 2 ** shift
    if (b < 128) break
  }
  expect(header & 1).toBe(1)
  expect(Math.floor(header / 2)).toBe(Math.ceil(p.rows / 8))
  return Array.from({ length: p.rows }, (_, i) => {
    let index = 0
    for (let bit = 0; bit < width; bit++) {
      const pos = i * width + bit
      index |= (((p.data[at + (pos >> 3)] ?? 0) >> (pos & 7)) & 1) << bit
    }
    return dict[index] ?? '?'
  })
}

function values(data: ParquetData | undefined, int32 = false): unknown[] {
  if (data === undefined) return []
  return Array.isArray(data) || ArrayBuffer.isView(data)
    ? Array.from(data as ArrayLike<unknown>)
    : decodePages(data, int32)
}

describe('parquetPlan', () => {
  it('gives a multi-barcode file one column per barcode tag, in level order, named after it', async () => {
    const { prelude, sem } = await readRad(buildRad(multiBarcodeV2()).bytes)
    const plan = parquetPlan(prelude, sem)
    expect(plan.columns.map((c) => `${c.name}:${c.element.type ?? ''}`)).toEqual([
      'record:INT64',
      'chunk:INT32',
      'alignment:INT32',
      'n_alignments:INT32',
      'b0:BYTE_ARRAY',
      'b1:BYTE_ARRAY',
      'umi:BYTE_ARRAY',
      'reference:BYTE_ARRAY',
      'orientation:BYTE_ARRAY',
    ])
    expect(plan.schema[0]).toMatchObject({ name: 'root', num_children: 9 })
  })

  it('renames a tag whose name a fixed column has taken', async () => {
    const spec = { ...salmonScRna(), readTags: [tag('b', 'u32'), tag('u', 'u32'), tag('record', 'u8')] }
    const chunks = spec.chunks?.map((c) => ({
      records: c.records?.map((r) => ({ ...r, read: { ...(r.read as Record<string, number>), record: 7 } })),
    }))
    const { prelude, sem } = await readRad(buildRad({ ...spec, chunks }).bytes)
    const names = parquetPlan(prelude, sem).columns.map((c) => c.name)
    expect(names.filter((n) => n.startsWith('record'))).toEqual(['record', 'record_tag'])
  })

  it('per record: the alignment fields become a LIST of structs', async () => {
    const { prelude, sem } = await readRad(buildRad(salmonScRna()).bytes)
    const plan = parquetPlan(prelude, sem, true)
    expect(plan.columns.map((c) => c.name)).toEqual(['record', 'chunk', 'n_alignments', 'barcode', 'umi'])
    expect(plan.schema.slice(-5).map((e) => e.name)).toEqual([
      'alignments',
      'list',
      'element',
      'reference',
      'orientation',
    ])
  })
})

describe('ParquetRows', () => {
  it('gives one row per alignment with view’s barcodes, UMIs and reference names', async () => {
    const file = await readRad(buildRad(salmonScRna()).bytes)
    const rows = new ParquetRows(parquetPlan(file.prelude, file.sem), file.prelude, file.sem, 4)
    let first = 0
    for (const cols of file.chunks) {
      rows.addChunk(
        cols,
        first,
        Uint32Array.from({ length: cols.recordCount }, (_, i) => i),
      )
      first += cols.recordCount
    }
    expect(rows.rows).toBe(8)
    const taken = Object.fromEntries(rows.take().map((c) => [c.name, c.data]))
    const data = Object.fromEntries(
      Object.entries(taken).map(([name, d]) => [name, values(d, name === 'alignment' || name === 'n_alignments')]),
    )
    expect(data.record).toEqual([0, 0, 1, 2, 3, 3, 3, 4])
    expect(data.alignment).toEqual([0, 1, 0, 0, 0, 1, 2, 0])
    expect(data.n_alignments).toEqual([2, 2, 1, 1, 3, 3, 3, 1])
    expect(data.barcode?.[0]).toBe('ACGTACGTACGTACGT')
    expect(data.umi?.[0]).toBe('TTTTGGGGCCCC')
    expect(data.reference?.slice(0, 3)).toEqual(['ENST0001|GeneA', 'ENST0002|GeneA', 'ENST0006|GeneΩ'])
    expect(data.orientation?.slice(0, 3)).toEqual(['fw', 'fw', 'rc'])
    expect(rows.rows).toBe(0)
  })
})

/** The index of the value keyed (lo, hi), added by `add` when new. */
function indexOf(dict: DictionaryValues, lo: number, hi: number, add: () => number): number {
  const e = dict.find(lo, hi)
  return e >= 0 ? e : add()
}

describe('DictionaryValues', () => {
  it('gives each row its value back, whatever the keys and however many (the table grows)', () => {
    const key = fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 3 }))
    fc.assert(
      fc.property(fc.array(fc.oneof(key, fc.constantFrom('x', 'yz')), { maxLength: 3000 }), (keys) => {
        const dict = new DictionaryValues()
        for (let round = 0; round < 2; round++) {
          const idx = dict.reserve(keys.length)
          keys.forEach((k, i) => {
            if (typeof k === 'string') idx[i] = dict.text(k)
            else idx[i] = indexOf(dict, k[0] * 977, k[1], () => dict.addSequence(k[0] * 977, k[1], 20))
          })
          dict.length = keys.length
          const text = (k: string | [number, number]): string =>
            typeof k === 'string' ? k : decode2bit((BigInt(k[1]) << 32n) | BigInt(k[0] * 977), 20)
          expect(decodePages(dict.take())).toEqual(keys.map(text))
        }
      }),
    )
  })

  it('keys many distinct values, the indices as wide as the dictionary needs', () => {
    const dict = new DictionaryValues()
    const n = 70_000
    const idx = dict.reserve(n)
    for (let i = 0; i < n; i++) idx[i] = indexOf(dict, i % 40_000, 0, () => dict.addInt32(i % 40_000))
    dict.length = n
    const pages = dict.take()
    expect(pages.dictionary?.count).toBe(40_000)
    expect(pages.data[0]).toBe(16)
    expect(decodePages(pages, true)).toEqual(Array.from({ length: n }, (_, i) => i % 40_000))
  })
})

describe('writeBases', () => {
  it('writes what decode2bit (view) reads, for every length a 64-bit word holds', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.integer({ min: 1, max: 32 }), (value, len) => {
        const out = new Uint8Array(len)
        writeBases(out, 0, Number(value & 0xffffffffn), Number(value >> 32n), len)
        expect(new TextDecoder().decode(out)).toBe(decode2bit(value, len))
      }),
    )
  })
})

describe('ColumnValues', () => {
  it('hands record numbers as an Int32Array below 2^31 and as Numbers above', () => {
    const small = new ColumnValues('n64', 2)
    const smallValues = small.reserve(3) as Float64Array
    smallValues.set([0, 1, 2 ** 31 - 1])
    small.length = 3
    expect(small.take()).toEqual(Int32Array.of(0, 1, 2 ** 31 - 1))
    const large = new ColumnValues('n64', 2)
    const largeValues = large.reserve(2) as Float64Array
    largeValues.set([5, 2 ** 40])
    large.length = 2
    expect(large.take()).toEqual(Float64Array.of(5, 2 ** 40))
  })

  it('hands u32 values as plain Numbers (the writer rejects a Uint32Array’s values ≥ 2^31)', () => {
    const col = new ColumnValues('u32', 1)
    const values = col.reserve(2) as Uint32Array
    values.set([1, 4_294_967_295])
    col.length = 2
    expect(col.take()).toEqual([1, 4_294_967_295])
  })
})
