/** Display helpers and tag semantics (§5.3, §7.4, §7.7, §7.8). */
import { describe, expect, it } from 'vitest'
import { decode2bit, mappingTypeName, sequenceText, unpackAlignment, widerThan } from '../../src/rad/text/display'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { buildRad, oriRef2, oriRefId, pack2bit, role, tag } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'
import { flatRecords, readRad } from '../helpers/read'

function semanticsOf(spec: RadSpec): ReturnType<typeof inferSemantics> {
  const { bytes } = buildRad(spec)
  return inferSemantics(parsePrelude(bytes, bytes.length))
}

describe('2-bit nucleotides (§7.8): A=0 C=1 G=2 T=3, first base most significant', () => {
  it('decodes ACGT as 0b00011011 and keeps leading As given the length', () => {
    expect(decode2bit(0b00011011, 4)).toBe('ACGT')
    expect(decode2bit(0b00011011, 6)).toBe('AAACGT')
    expect(decode2bit(0, 16)).toBe('A'.repeat(16))
    expect(decode2bit(0xffffffff, 16)).toBe('T'.repeat(16))
    expect(decode2bit(0, 0)).toBe('')
  })

  it('decodes u64 values (17–32 nt) as BigInt exactly, and numbers and bigints alike', () => {
    const seq32 = 'GATTACAGATTACAGATTACAGATTACAGATT'
    expect(decode2bit(pack2bit(seq32), 32)).toBe(seq32)
    expect(decode2bit((1n << 64n) - 1n, 32)).toBe('T'.repeat(32))
    const seq20 = 'ACGTTGCAACGTTGCAACGT'
    expect(decode2bit(pack2bit(seq20), 20)).toBe(seq20)
    expect(decode2bit(Number(pack2bit('CATG')), 4)).toBe(decode2bit(pack2bit('CATG'), 4))
  })

  it('round-trips random sequences of every length 1–32', () => {
    let x = 12345
    for (let len = 1; len <= 32; len++) {
      const seq = Array.from({ length: len }, () => 'ACGT'[(x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 30]).join(
        '',
      )
      expect(decode2bit(pack2bit(seq), len)).toBe(seq)
      if (len <= 16) expect(decode2bit(Number(pack2bit(seq)), len)).toBe(seq)
    }
  })

  it('tells when a value has bits above its declared length', () => {
    expect(widerThan(0b1111, 2)).toBe(false)
    expect(widerThan(0b10000, 2)).toBe(true)
    expect(widerThan(1n << 40n, 20)).toBe(true)
    expect(widerThan((1n << 40n) - 1n, 20)).toBe(false)
    expect(widerThan(123, 0)).toBe(false)
  })
})

describe('orientation words', () => {
  it('scRNA (§5.3): bit 31 set = forward, low 31 bits = reference id', () => {
    expect(unpackAlignment(oriRefId(5, true), 'bit31')).toEqual({ ref: 5, ori: 'fw', dir: true })
    expect(unpackAlignment(oriRefId(5, false), 'bit31')).toEqual({ ref: 5, ori: 'rc', dir: false })
    expect(unpackAlignment(oriRefId(0x7fffffff, true), 'bit31').ref).toBe(0x7fffffff)
  })

  it('bulk (§7.4): two top bits; pairs as ff/fr/rf/rr, single and orphans fw/rc by bit 31, unmapped unknown', () => {
    const ref = 0x3fffffff
    expect(unpackAlignment(oriRef2(ref, true, true), 'top2bits', 4)).toEqual({ ref, ori: 'ff', dir: true })
    expect(unpackAlignment(oriRef2(7, true, false), 'top2bits', 4).ori).toBe('fr')
    expect(unpackAlignment(oriRef2(7, false, true), 'top2bits', 4).ori).toBe('rf')
    expect(unpackAlignment(oriRef2(7, false, false), 'top2bits', 4).ori).toBe('rr')
    for (const mt of [1, 2, 3]) {
      expect(unpackAlignment(oriRef2(7, true, false), 'top2bits', mt).ori).toBe('fw')
      expect(unpackAlignment(oriRef2(7, false, true), 'top2bits', mt).ori).toBe('rc')
    }
    expect(unpackAlignment(oriRef2(7, true, true), 'top2bits', 0)).toEqual({ ref: 7, ori: '?', dir: true })
  })
})

describe('semantics (§7.7): by role first, then by name', () => {
  it('finds the barcode by the legacy name "barcode" or "b", the UMI by "u"', () => {
    const s = semanticsOf({
      fileTags: [tag('cblen', 'u16')],
      readTags: [tag('barcode', 'u32')],
      alnTags: [tag('ref', 'u32'), tag('type', 'u8'), tag('start_pos', 'u32'), tag('frag_len', 'u16')],
      fileValues: [16],
    })
    expect(s).toMatchObject({ assay: 'scATAC', umi: undefined, position: 2, fragmentLength: 3 })
    expect(s.barcodes).toMatchObject([{ name: 'barcode', len: 16, lenSource: 'file tag cblen' }])
  })

  it('a role beats the name: a barcode-role tag with any name is the barcode', () => {
    const s = semanticsOf({
      v2: true,
      readTags: [tag('b', 'u32'), tag('cell', 'u64', role.barcode(0, 20)), tag('mol', 'u32', role.umi(10))],
      alnTags: [tag('w', 'u32', role.orientation)],
    })
    expect(s.barcodes.map((b) => b.name)).toEqual(['cell'])
    expect(s.umi).toMatchObject({ name: 'mol', len: 10, lenSource: 'role' })
    expect(s.orientation).toEqual({ tag: 0, encoding: 'bit31' })
    expect(s.reference).toEqual({ tag: 0, packed: 'bit31' })
  })

  it('assumes a length from the integer width when none is declared, and warns', () => {
    const s = semanticsOf({
      readTags: [tag('b', 'u32'), tag('u', 'u64')],
      alnTags: [tag('compressed_ori_refid', 'u32')],
    })
    expect(s.barcodes[0]).toMatchObject({ len: 16 })
    expect(s.umi).toMatchObject({ len: 32 })
    expect(s.warnings).toHaveLength(2)
    expect(s.warnings[0]).toMatch(/no length declared/)
  })

  it('shows a barcode stored as a string (cblen > 32, salmon) as stored', async () => {
    const long = 'ACGT'.repeat(10)
    const r = await readRad(
      buildRad({
        fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16')],
        readTags: [tag('b', 'string'), tag('u', 'u32')],
        alnTags: [tag('compressed_ori_refid', 'u32')],
        fileValues: [40, 4],
        refs: ['t'],
        chunks: [{ records: [{ read: [long, 0b11100100], alns: [[oriRefId(0, true)]] }] }],
      }).bytes,
    )
    expect(r.sem.barcodes[0]).toMatchObject({ len: 40 })
    const f = flatRecords(r)[0]
    expect(f?.record.barcodes).toEqual([long])
    expect(f?.record.umi).toBe('TGCA')
    expect(sequenceText(r.chunks[0]!.readColumns[0]!, 0, r.sem.barcodes[0]!)).toBe(long)
  })

  it('names an out-of-range reference id instead of failing', async () => {
    const r = await readRad(
      buildRad({
        refs: ['only'],
        readTags: [tag('b', 'u32')],
        alnTags: [tag('compressed_ori_refid', 'u32')],
        chunks: [{ records: [{ read: [1], alns: [[oriRefId(0, true)], [oriRefId(9, false)]] }] }],
      }).bytes,
    )
    expect(flatRecords(r)[0]?.alns.map((a) => a.refName)).toEqual(['only', '<ref 9 out of range>'])
  })

  it('calls a file with no known tags "unknown" and shows every tag as "other"', async () => {
    const r = await readRad(
      buildRad({
        readTags: [tag('q', 'u16')],
        alnTags: [tag('z', 'i8')],
        chunks: [{ records: [{ read: [7], alns: [[-3]] }] }],
      }).bytes,
    )
    expect(r.sem.assay).toBe('unknown')
    const f = flatRecords(r)[0]
    expect(f?.record.other).toEqual([['q', '7']])
    expect(f?.alns[0]?.other).toEqual([['z', '-3']])
    expect(f?.alns[0]?.refName).toBe('?')
  })

  it('names mapping types of scATAC (8 = unmapped) and leaves unknown ones as numbers', () => {
    const s = semanticsOf({ readTags: [tag('barcode', 'u32')], alnTags: [tag('ref', 'u32'), tag('type', 'u8')] })
    expect(s.assay).toBe('scATAC')
    expect([1, 4, 8, 99].map((t) => mappingTypeName(s, t))).toEqual(['single', 'pair', 'unmapped', '99'])
    expect(mappingTypeName(s, undefined)).toBe('')
  })
})
