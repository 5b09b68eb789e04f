/** Round trips for every assay of docs/format.md §7: writer → reader → decoded view equals the truth. */
import { describe, expect, it } from 'vitest'
import { viewLines } from '../../src/rad/text/viewLine'
import { fileTagValue } from '../../src/rad/prelude/prelude'
import { mappingTypeName } from '../../src/rad/text/display'
import { buildRad, recordBytes } from '../helpers/radWriter'
import type { WValue } from '../helpers/radWriter'
import { flatRecords, readRad } from '../helpers/read'
import {
  ATAC_READS,
  BULK_READS,
  BULK_REF_LENGTHS,
  LONG_READS,
  MULTI_READS,
  REFS,
  SC_READS,
  atacPiscemCpp,
  atacPiscemRs,
  bulk,
  multiBarcodeV2,
  piscemScRnaV2,
  salmonScRna,
  scLongRead,
} from '../helpers/assays'

describe('salmon scRNA (legacy, §7.1)', () => {
  it('decodes barcodes, UMIs, reference names and orientations of every record', async () => {
    const r = await readRad(buildRad(salmonScRna()).bytes)
    expect(r.prelude.version).toEqual([0, 0])
    expect(r.prelude.refNames).toEqual(REFS)
    expect(r.sem.assay).toBe('scRNA')
    expect(r.sem.barcodes).toMatchObject([{ name: 'b', len: 16, lenSource: 'file tag cblen' }])
    expect(r.sem.umi).toMatchObject({ name: 'u', len: 12, lenSource: 'file tag ulen' })
    const got = flatRecords(r).map((f) => ({
      cb: f.record.barcodes[0],
      umi: f.record.umi,
      alns: f.alns.map((a) => ({ ref: a.refName, ori: a.ori, dir: a.dir })),
    }))
    expect(got).toEqual(
      SC_READS.map((s) => ({
        cb: s.cb,
        umi: s.umi,
        alns: s.alns.map((a) => ({ ref: REFS[a.ref], ori: a.fw ? 'fw' : 'rc', dir: a.fw })),
      })),
    )
  })

  it('writes records of 12 + 4·naln bytes, so nbytes = 8 + Σ record bytes (§5.2)', async () => {
    const spec = salmonScRna()
    const built = buildRad(spec)
    const r = await readRad(built.bytes)
    const chunk0 = spec.chunks?.[0]?.records ?? []
    const expected = 8 + chunk0.reduce((n, rec) => n + 12 + 4 * (rec.alns?.length ?? 0), 0)
    expect(r.scan.index.nbytes[0]).toBe(expected)
    expect(chunk0.map((rec) => recordBytes(spec, rec).length)).toEqual([20, 16])
  })

  it('prints alevin-fry view lines (§9.1)', async () => {
    const r = await readRad(buildRad(salmonScRna()).bytes)
    const lines = r.chunks.flatMap((c) => viewLines(c, r.scan.index.firstRecord[c.chunk] ?? 0, r.prelude, r.sem))
    expect(lines[0]).toBe(`ID:0\tHI:1\tNH:2\tCB:ACGTACGTACGTACGT\tUMI:TTTTGGGGCCCC\tDIR:true\t${REFS[0]}`)
    expect(lines[1]).toBe(`ID:0\tHI:2\tNH:2\tCB:ACGTACGTACGTACGT\tUMI:TTTTGGGGCCCC\tDIR:true\t${REFS[1]}`)
    expect(lines[2]).toBe(`ID:1\tHI:1\tNH:1\tCB:AAAAAAAAAAAAAAAA\tUMI:AAAAAAAAAAAA\tDIR:false\t${REFS[5]}`)
    expect(lines).toHaveLength(SC_READS.reduce((n, s) => n + s.alns.length, 0))
    expect(lines.at(-1)).toBe(`ID:4\tHI:1\tNH:1\tCB:CCCCGGGGAAAATTTT\tUMI:ACACACACACAC\tDIR:false\t${REFS[1]}`)
  })
})

describe('piscem scRNA (v2 with roles, §7.2)', () => {
  it('sc_rna_basic: finds barcode and UMI by role, with lengths from the role', async () => {
    const r = await readRad(buildRad(piscemScRnaV2(false)).bytes)
    expect(r.prelude.version).toEqual([2, 0])
    expect(r.prelude.readTags.map((t) => t.role)).toEqual([
      { kind: 'barcode', code: 1, level: 0, len: 16 },
      { kind: 'umi', code: 2, len: 12 },
    ])
    expect(r.prelude.alnTags[0]?.role).toEqual({ kind: 'orientation', code: 4 })
    expect(r.sem).toMatchObject({ assay: 'scRNA', knownRadType: 'sc_rna_basic', warnings: [] })
    expect(r.sem.barcodes[0]).toMatchObject({ len: 16, lenSource: 'role' })
    const got = flatRecords(r).map((f) => [f.record.barcodes[0], f.record.umi, f.alns.map((a) => a.refName)])
    expect(got).toEqual(SC_READS.map((s) => [s.cb, s.umi, s.alns.map((a) => REFS[a.ref])]))
  })

  it('sc_rna_pos: decodes pos (MappingPosition) and the rlen file tag, u32 positions above 2^31 exact', async () => {
    const r = await readRad(buildRad(piscemScRnaV2(true)).bytes)
    expect(fileTagValue(r.prelude, 'rlen')).toBe(90)
    expect(r.sem.knownRadType).toBe('sc_rna_pos')
    expect(r.sem.position).toBe(1)
    const got = flatRecords(r).flatMap((f) => f.alns.map((a) => [a.refName, a.ori, a.position]))
    expect(got).toEqual(SC_READS.flatMap((s) => s.alns.map((a) => [REFS[a.ref], a.fw ? 'fw' : 'rc', a.pos])))
    const lines = viewLines(r.chunks[0]!, 0, r.prelude, r.sem)
    expect(lines[2]).toBe(
      `ID:1\tHI:1\tNH:1\tCB:AAAAAAAAAAAAAAAA\tUMI:AAAAAAAAAAAA\tDIR:false\tPOS:4000000000\t${REFS[5]}`,
    )
  })

  it('a role length that disagrees with cblen wins, with a warning', async () => {
    const spec = piscemScRnaV2(false)
    const r = await readRad(
      buildRad({ ...spec, fileValues: { ...(spec.fileValues as Record<string, WValue>), cblen: 14 } }).bytes,
    )
    expect(r.sem.barcodes[0]?.len).toBe(16)
    expect(r.sem.warnings.join('\n')).toMatch(/role length 16 differs from file tag cblen = 14/)
  })
})

describe('multi-barcode scRNA (v2, §7.3)', () => {
  it('decodes b0 (u32 sample barcode) and b1 (u64, 20 nt cell barcode) in level order', async () => {
    const r = await readRad(buildRad(multiBarcodeV2()).bytes)
    expect(r.sem.assay).toBe('scRNA-multi-barcode')
    expect(r.sem.barcodes.map((b) => [b.name, b.level, b.len])).toEqual([
      ['b0', 0, 8],
      ['b1', 1, 20],
    ])
    const got = flatRecords(r).map((f) => [f.record.barcodes, f.record.umi, f.alns.map((a) => [a.refName, a.ori])])
    expect(got).toEqual(
      MULTI_READS.map((m) => [[m.sample, m.cell], m.umi, m.alns.map((a) => [REFS[a.ref], a.fw ? 'fw' : 'rc'])]),
    )
    const lines = viewLines(r.chunks[0]!, 0, r.prelude, r.sem)
    expect(lines[0]).toBe(
      `ID:0\tHI:1\tNH:1\tCB0:ACGTACGT\tCB1:TTTTTTTTTTTTTTTTTTTT\tUMI:GGGGGGGGGGGG\tDIR:true\t${REFS[0]}`,
    )
  })

  it('keeps a record with zero alignments (it prints no view line)', async () => {
    const r = await readRad(buildRad(multiBarcodeV2()).bytes)
    const cols = r.chunks[0]!
    expect(cols.recordCount).toBe(3)
    expect(Array.from(cols.alnStart)).toEqual([0, 1, 3, 3])
    expect(viewLines(cols, 0, r.prelude, r.sem)).toHaveLength(3)
  })

  it('finds b0/b1 lengths from b0len/b1len when the file has no roles', async () => {
    const spec = multiBarcodeV2()
    const legacy = {
      ...spec,
      v2: false,
      readTags: spec.readTags?.map((t) => ({ name: t.name, type: t.type })),
      alnTags: spec.alnTags?.map((t) => ({ name: t.name, type: t.type })),
    }
    const r = await readRad(buildRad(legacy).bytes)
    expect(r.sem.barcodes.map((b) => [b.name, b.level, b.len, b.lenSource])).toEqual([
      ['b0', 0, 8, 'file tag b0len'],
      ['b1', 1, 20, 'file tag b1len'],
    ])
    expect(flatRecords(r)[1]?.record.barcodes).toEqual(['TTTTAAAA', 'GATTACAGATTACAGATTAC'])
  })
})

describe('bulk (§7.4)', () => {
  for (const v2 of [true, false]) {
    it(`${v2 ? 'v2' : 'legacy'}: decodes frag_map_type, 2-bit orientations (ff/fr/rf/rr), pos and frag_len`, async () => {
      const r = await readRad(buildRad(bulk(v2)).bytes)
      expect(r.prelude.paired).toBe(true)
      expect(r.sem.assay).toBe('bulk')
      expect(r.sem.orientation?.encoding).toBe('top2bits')
      expect(fileTagValue(r.prelude, 'ref_lengths')).toEqual(BULK_REF_LENGTHS)
      const got = flatRecords(r).map((f) => ({
        mt: f.record.mappingType,
        alns: f.alns.map((a) => [a.refName, a.ori, a.position, a.fragmentLength]),
      }))
      const ori = (mt: number, a: (typeof BULK_READS)[number]['alns'][number]): string =>
        mt === 4 ? `${a.readFw ? 'f' : 'r'}${a.mateFw ? 'f' : 'r'}` : mt === 0 ? '?' : a.readFw ? 'fw' : 'rc'
      expect(got).toEqual(
        BULK_READS.map((b) => ({
          mt: b.mappingType,
          alns: b.alns.map((a) => [REFS[a.ref], ori(b.mappingType, a), a.pos, a.fragLen]),
        })),
      )
      expect(got[0]?.alns.map((a) => a[1])).toEqual(['ff', 'fr', 'rf', 'rr'])
    })
  }

  it('names mapping types and prints ORI/POS/FL in view lines', async () => {
    const r = await readRad(buildRad(bulk(true)).bytes)
    expect([0, 1, 2, 3, 4].map((t) => mappingTypeName(r.sem, t))).toEqual([
      'unmapped',
      'single',
      'orphan (read 1)',
      'orphan (read 2)',
      'pair',
    ])
    const lines = viewLines(r.chunks[0]!, 0, r.prelude, r.sem)
    expect(lines[1]).toBe(`ID:0\tHI:2\tNH:4\tMT:4\tORI:fr\tPOS:200\tFL:301\t${REFS[1]}`)
  })

  it('uses 5 + 10·naln bytes per record (§5.2)', () => {
    const spec = bulk(true)
    const rec = spec.chunks?.[0]?.records?.[0]
    expect(rec && recordBytes(spec, rec).length).toBe(5 + 10 * 4)
  })
})

describe('scATAC (§7.5)', () => {
  const expected = ATAC_READS.map((a) => ({
    cb: a.cb,
    alns: a.alns.map((x) => [REFS[x.ref], x.type, x.start, x.fragLen]),
  }))

  for (const nbytes of ['header-inclusive', 'payload-only'] as const) {
    it(`piscem-cpp legacy (tag "barcode", ${nbytes} nbytes): 11-byte alignments decode`, async () => {
      const r = await readRad(buildRad(atacPiscemCpp(nbytes)).bytes)
      expect(r.scan.convention).toBe(nbytes)
      expect(r.sem.assay).toBe('scATAC')
      expect(r.sem.barcodes[0]).toMatchObject({ name: 'barcode', len: 16 })
      expect(r.sem.reference).toEqual({ tag: 0, packed: undefined })
      expect(fileTagValue(r.prelude, 'ref_lengths')).toEqual(BULK_REF_LENGTHS.map(BigInt))
      const got = flatRecords(r).map((f) => ({
        cb: f.record.barcodes[0],
        alns: f.alns.map((a) => [a.refName, a.mappingType, a.position, a.fragmentLength]),
      }))
      expect(got).toEqual(expected)
    })
  }

  it('piscem-rs v2 (tag "b", roles): same decoded values, paired header', async () => {
    const r = await readRad(buildRad(atacPiscemRs()).bytes)
    expect(r.prelude.paired).toBe(true)
    expect(r.sem).toMatchObject({ assay: 'scATAC', knownRadType: 'sc_atac', position: 2, fragmentLength: 3 })
    expect(r.sem.mappingType).toEqual({ level: 'alignment', tag: 1 })
    const got = flatRecords(r).map((f) => ({
      cb: f.record.barcodes[0],
      alns: f.alns.map((a) => [a.refName, a.mappingType, a.position, a.fragmentLength]),
    }))
    expect(got).toEqual(expected)
    expect(viewLines(r.chunks[0]!, 0, r.prelude, r.sem)[0]).toBe(
      `ID:0\tHI:1\tNH:2\tCB:ACGTACGTACGTACGT\tPOS:10468\tFL:212\tMT:4\t${REFS[3]}`,
    )
  })

  it('uses 8 + 11·naln bytes per record (§5.2)', () => {
    const spec = atacPiscemRs()
    const rec = spec.chunks?.[0]?.records?.[0]
    expect(rec && recordBytes(spec, rec).length).toBe(8 + 11 * 2)
  })
})

describe('single-cell long read (§7.6)', () => {
  it('decodes 20-byte alignments: ori+ref, signed score, start, end, template length', async () => {
    const spec = scLongRead()
    const r = await readRad(buildRad(spec).bytes)
    expect(r.sem.assay).toBe('sc-long-read')
    const rec = spec.chunks?.[0]?.records?.[0]
    expect(rec && recordBytes(spec, rec).length).toBe(12 + 20 * 2)
    const got = flatRecords(r).map((f) => ({
      cb: f.record.barcodes[0],
      umi: f.record.umi,
      alns: f.alns.map((a) => [a.refName, a.ori, Object.fromEntries(a.other)]),
    }))
    expect(got).toEqual(
      LONG_READS.map((l) => ({
        cb: l.cb,
        umi: l.umi,
        alns: l.alns.map((a) => [
          REFS[a.ref],
          a.fw ? 'fw' : 'rc',
          { score: String(a.score), read_start: String(a.start), read_end: String(a.end), tlen: String(a.tlen) },
        ]),
      })),
    )
  })
})
