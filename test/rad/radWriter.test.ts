/** The test writer itself, against byte layouts the spec and producers pin down. */
import { describe, expect, it } from 'vitest'
import { ByteWriter, buildRad, lz4Payload, pack2bit, pack2bitNumber, role, tag } from '../helpers/radWriter'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

describe('radWriter', () => {
  it('writes the piscem-rs v2 prefix: magic, 2, 0, zero ext_len, then paired at 14 (§1.2)', () => {
    const { bytes } = buildRad({ v2: true, paired: true })
    expect(hex(bytes.subarray(0, 15))).toBe(`${Buffer.from('RAD_FILE').toString('hex')}02000000000001`)
  })

  it('writes a legacy header byte for byte', () => {
    const { bytes } = buildRad({
      refs: ['ab'],
      numChunks: 0,
      fileTags: [tag('cblen', 'u16')],
      readTags: [tag('b', 'u32')],
      alnTags: [],
      fileValues: [16],
    })
    expect(hex(bytes)).toBe(
      [
        '00', // paired
        '0100000000000000', // ref_count 1
        '0200',
        '6162', // "ab"
        '0000000000000000', // num_chunks 0
        '0100',
        '0500',
        Buffer.from('cblen').toString('hex'),
        '02', // file tags: cblen u16
        '0100',
        '0100',
        '62',
        '03', // read tags: b u32
        '0000', // alignment tags: none
        '1000', // cblen = 16
      ].join(''),
    )
  })

  it('writes v2 role suffixes [code][plen][payload] on every descriptor', () => {
    const { bytes, layout } = buildRad({ v2: true, readTags: [tag('b', 'u32', role.barcode(1, 16)), tag('x', 'u8')] })
    const sections = hex(bytes.subarray(layout.tagSectionsOffset))
    expect(sections).toBe(
      ['0000', '0200', '0100', '62', '03', '01', '02', '0110', '0100', '78', '01', '00', '00', '0000'].join(''),
    )
  })

  it("matches libradicl's chunk test: 5 records of 28 bytes → nbytes 148 (§4.2)", () => {
    const rec = { read: [1, 2], alns: [[3], [4], [5], [6]] } // 12 + 4 × 4 = 28 bytes
    const { layout } = buildRad({
      readTags: [tag('b', 'u32'), tag('u', 'u32')],
      alnTags: [tag('compressed_ori_refid', 'u32')],
      chunks: [{ records: [rec, rec, rec, rec, rec] }],
    })
    expect(layout.chunks[0]).toMatchObject({ nbytes: 148, nrec: 5, span: 148 })
    expect(layout.chunks[0]?.recordOffsets.map((o) => o - (layout.chunks[0]?.payloadOffset ?? 0))).toEqual([
      0, 28, 56, 84, 112,
    ])
  })

  it('packs nucleotides MSB-first (§7.8) and writes 128-bit values low word first', () => {
    expect(pack2bitNumber('ACGT')).toBe(0b00011011)
    expect(pack2bit('T'.repeat(32))).toBe((1n << 64n) - 1n)
    expect(hex(new ByteWriter().u128(-1n).finish())).toBe('ff'.repeat(16))
    expect(hex(new ByteWriter().u128((2n << 64n) | 1n).finish())).toBe(`01${'00'.repeat(7)}02${'00'.repeat(7)}`)
  })

  it('frames lz4 as a u32 LE size + raw block', () => {
    const payload = lz4Payload(new Uint8Array(100))
    expect(hex(payload.subarray(0, 4))).toBe('64000000')
  })
})
