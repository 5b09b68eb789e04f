/** Every type id 0–14 (§3) as file, read and alignment tags; arrays of every element type (§3.1). */
import { describe, expect, it } from 'vitest'
import { columnNumber, columnValue } from '../../src/rad/decode/columns'
import { canonicalJson, valueText } from '../../src/rad/text/display'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { describeType, fixedWidth, typeName } from '../../src/rad/prelude/tags'
import type { Column, TagValue } from '../../src/rad/types'
import { T, arrayTag, buildRad, tag } from '../helpers/radWriter'
import type { TagSpec, TypeName, WValue } from '../helpers/radWriter'
import { readRad } from '../helpers/read'

const MAX_U64 = (1n << 64n) - 1n
const MAX_U128 = (1n << 128n) - 1n
const MIN_I128 = -(1n << 127n)

/** For each scalar type: values to write and what the reader must return. */
const SCALARS: { type: TypeName; write: WValue[]; read: TagValue[] }[] = [
  { type: 'bool', write: [0, 1, 2, 255], read: [false, true, true, true] },
  { type: 'u8', write: [0, 255], read: [0, 255] },
  { type: 'u16', write: [1, 65535], read: [1, 65535] },
  { type: 'u32', write: [2 ** 31, 4294967295], read: [2 ** 31, 4294967295] },
  {
    type: 'u64',
    write: [0n, 2n ** 53n - 1n, 2n ** 53n + 1n, MAX_U64],
    read: [0n, 2n ** 53n - 1n, 2n ** 53n + 1n, MAX_U64],
  },
  { type: 'f32', write: [1.5, -0.25], read: [1.5, -0.25] },
  { type: 'f64', write: [Math.PI, -1e308], read: [Math.PI, -1e308] },
  { type: 'string', write: ['', 'héllo ∆ wörld'], read: ['', 'héllo ∆ wörld'] },
  { type: 'u128', write: [0n, 2n ** 64n, MAX_U128], read: [0n, 2n ** 64n, MAX_U128] },
  { type: 'i8', write: [-128, 127, -1], read: [-128, 127, -1] },
  { type: 'i16', write: [-32768, 32767], read: [-32768, 32767] },
  { type: 'i32', write: [-2147483648, 2147483647], read: [-2147483648, 2147483647] },
  {
    type: 'i64',
    write: [-(2n ** 63n), 2n ** 63n - 1n, -1n, -(2n ** 53n) - 3n],
    read: [-(2n ** 63n), 2n ** 63n - 1n, -1n, -(2n ** 53n) - 3n],
  },
  { type: 'i128', write: [MIN_I128, -1n, (1n << 127n) - 1n], read: [MIN_I128, -1n, (1n << 127n) - 1n] },
]

const WIDTHS: Record<TypeName, number> = {
  bool: 1,
  u8: 1,
  u16: 2,
  u32: 4,
  u64: 8,
  f32: 4,
  f64: 8,
  array: 0,
  string: 0,
  u128: 16,
  i8: 1,
  i16: 2,
  i32: 4,
  i64: 8,
  i128: 16,
}

describe('type table (§3)', () => {
  it('names and widths of ids 0–14', () => {
    for (const [name, id] of Object.entries(T)) {
      expect(typeName(id)).toBe(name)
      expect(fixedWidth({ id })).toBe(WIDTHS[name as TypeName])
    }
    expect(describeType({ id: 7, lengthType: 3, elementType: 8 })).toBe('array<u32,string>')
  })
})

describe('file tag values of every type', () => {
  it('decodes each scalar type exactly (64/128-bit as bigint, bool as byte != 0)', () => {
    const fileTags: TagSpec[] = []
    const values: WValue[] = []
    const expected: TagValue[] = []
    for (const s of SCALARS) {
      s.write.forEach((v, i) => {
        fileTags.push(tag(`${s.type}_${i}`, s.type))
        values.push(v)
        expected.push(s.read[i] as TagValue)
      })
    }
    const { bytes, layout } = buildRad({ fileTags, fileValues: values })
    const p = parsePrelude(bytes, bytes.length)
    expect(p.fileTags.map((t) => t.name)).toEqual(fileTags.map((t) => t.name))
    expect(p.fileTagValues).toEqual(expected)
    expect(p.firstChunkOffset).toBe(layout.firstChunkOffset)
    expect(p.tagValuesOffset).toBe(layout.tagValuesOffset)
  })

  it('f32 NaN and infinities read back as such', () => {
    const { bytes } = buildRad({
      fileTags: [tag('a', 'f32'), tag('b', 'f64'), tag('c', 'f64')],
      fileValues: [NaN, Infinity, -Infinity],
    })
    const p = parsePrelude(bytes, bytes.length)
    expect(p.fileTagValues).toEqual([NaN, Infinity, -Infinity])
    expect(p.fileTagValues.map(canonicalJson)).toEqual(['NaN', 'Infinity', '-Infinity'])
  })

  const LENGTH_TYPES: TypeName[] = ['u8', 'u16', 'u32', 'u64', 'u128', 'i8', 'i16', 'i32', 'i64', 'i128']
  it('arrays with every integer length type and every element type, incl. strings (count + str16 each)', () => {
    const fileTags: TagSpec[] = []
    const values: WValue[] = []
    const expected: TagValue[] = []
    for (const s of SCALARS) {
      for (const len of LENGTH_TYPES) {
        fileTags.push(arrayTag(`${s.type}_by_${len}`, len, s.type))
        values.push(s.write)
        expected.push(s.read)
      }
      fileTags.push(arrayTag(`${s.type}_empty`, 'u32', s.type))
      values.push([])
      expected.push([])
    }
    const { bytes } = buildRad({ fileTags, fileValues: values })
    const p = parsePrelude(bytes, bytes.length)
    expect(p.fileTagValues).toEqual(expected)
    expect(describeType(p.fileTags[0]!.type)).toBe('array<u8,bool>')
  })

  it('an array of 70,000 u16 with a u32 count', () => {
    const big = Array.from({ length: 70_000 }, (_, i) => i % 65536)
    const { bytes } = buildRad({ fileTags: [arrayTag('many', 'u32', 'u16')], fileValues: [big] })
    const p = parsePrelude(bytes, bytes.length)
    expect(p.fileTagValues[0]).toEqual(big)
  })
})

/** Read and alignment tags of every scalar type; `extra` forces the variable-width decoding path. */
function columnsSpec(withString: boolean): { readTags: TagSpec[]; alnTags: TagSpec[]; records: number } {
  const fixed = SCALARS.filter((s) => s.type !== 'string')
  const readTags = fixed.map((s) => tag(`r_${s.type}`, s.type))
  const alnTags = fixed.map((s) => tag(`a_${s.type}`, s.type))
  if (withString) {
    readTags.push(tag('r_string', 'string'), arrayTag('r_strings', 'u16', 'string'))
    alnTags.push(arrayTag('a_u64s', 'u8', 'u64'))
  }
  return { readTags, alnTags, records: 4 }
}

function valueFor(type: TypeName, i: number): [WValue, TagValue] {
  const s = SCALARS.find((x) => x.type === type)
  if (!s) throw new Error(type)
  const k = i % s.write.length
  return [s.write[k] as WValue, s.read[k] as TagValue]
}

function entry(col: Column, i: number): TagValue {
  return columnValue(col, i)
}

describe('read and alignment columns of every type', () => {
  for (const withString of [false, true]) {
    it(`decode exactly through the ${withString ? 'variable-width' : 'fixed-width'} path`, async () => {
      const { readTags, alnTags } = columnsSpec(withString)
      const readWrite = (r: number): WValue[] =>
        readTags.map((t) => {
          if (t.name === 'r_string') return `rec${r}`
          if (t.name === 'r_strings') return Array.from({ length: r }, (_, k) => `s${k}é`)
          return valueFor(t.type as TypeName, r)[0]
        })
      const alnWrite = (r: number, a: number): WValue[] =>
        alnTags.map((t) => (t.name === 'a_u64s' ? [MAX_U64, BigInt(a)] : valueFor(t.type as TypeName, r + a)[0]))
      const records = [0, 1, 2, 3].map((r) => ({
        read: readWrite(r),
        alns: Array.from({ length: r }, (_, a) => alnWrite(r, a)),
      }))
      const r = await readRad(
        buildRad({ readTags, alnTags, chunks: [{ records }, { records: records.slice(1) }] }).bytes,
      )
      const cols = r.chunks[0]!
      expect(cols.recordCount).toBe(4)
      expect(cols.alignmentCount).toBe(0 + 1 + 2 + 3)
      for (let rec = 0; rec < 4; rec++) {
        readTags.forEach((t, i) => {
          const want =
            t.name === 'r_string'
              ? `rec${rec}`
              : t.name === 'r_strings'
                ? Array.from({ length: rec }, (_, k) => `s${k}é`)
                : valueFor(t.type as TypeName, rec)[1]
          expect(entry(cols.readColumns[i]!, rec), `${t.name} of record ${rec}`).toEqual(want)
        })
        for (let a = 0; a < rec; a++) {
          const k = (cols.alnStart[rec] ?? 0) + a
          alnTags.forEach((t, i) => {
            const want = t.name === 'a_u64s' ? [MAX_U64, BigInt(a)] : valueFor(t.type as TypeName, rec + a)[1]
            expect(entry(cols.alnColumns[i]!, k), `${t.name} of alignment ${a} of record ${rec}`).toEqual(want)
          })
        }
      }
      // the second chunk repeats records 1..3
      expect(entry(r.chunks[1]!.readColumns[0]!, 0)).toEqual(entry(cols.readColumns[0]!, 1))
    })
  }

  it('stores 64-bit columns in BigInt arrays and 128-bit ones as low/high u64 words', async () => {
    const r = await readRad(
      buildRad({
        readTags: [tag('big', 'u64'), tag('huge', 'u128'), tag('neg', 'i128')],
        chunks: [{ records: [{ read: [MAX_U64, (5n << 64n) | 7n, -2n] }] }],
      }).bytes,
    )
    const [big, huge, neg] = r.chunks[0]!.readColumns
    expect(big?.kind).toBe('u64')
    expect(big?.values).toBeInstanceOf(BigUint64Array)
    expect(huge?.kind === 'u128' && Array.from(huge.values)).toEqual([7n, 5n])
    expect(neg && entry(neg, 0)).toBe(-2n)
    expect(columnNumber(big!, 0)).toBeUndefined()
  })
})

describe('value text and JSON (dump)', () => {
  it('keeps integers ≤ 2^53−1 as numbers and prints larger ones as exact decimal strings', () => {
    expect(canonicalJson(2n ** 53n - 1n)).toBe(9007199254740991)
    expect(canonicalJson(2n ** 53n)).toBe('9007199254740992')
    expect(canonicalJson(2n ** 53n + 1n)).toBe('9007199254740993')
    expect(canonicalJson(MAX_U64)).toBe('18446744073709551615')
    expect(canonicalJson(-(2n ** 53n) + 1n)).toBe(-9007199254740991)
    expect(canonicalJson(MIN_I128)).toBe('-170141183460469231731687303715884105728')
    expect(canonicalJson([1n, MAX_U128, 'x', true])).toEqual([1, '340282366920938463463374607431768211455', 'x', true])
  })

  it('prints values as plain text', () => {
    expect(valueText([1, 2n, 'a', false, [3]])).toBe('[1,2,a,false,[3]]')
    expect(valueText(MAX_U64)).toBe('18446744073709551615')
    expect(valueText(-1.5)).toBe('-1.5')
  })
})
