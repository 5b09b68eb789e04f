/** Record filters (docs/subsets.md, "Selections"): the packed kernel against a plain reading of the decoded text. */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CHUNK_HEADER_BYTES } from '../../src/rad/decode/chunk'
import { RadError } from '../../src/rad/errors'
import {
  barcodeOffsetInRecord,
  barcodeOnly,
  baseMismatches,
  compileFilter,
  firstRecordBarcodeMatches,
  formatSequence,
  matchRecords,
  matchReferences,
  packSequence,
} from '../../src/rad/filter/recordFilter'
import type { RecordFilter } from '../../src/rad/filter/recordFilter'
import { ATAC_READS, BULK_READS, SC_READS, atacPiscemRs, bulk, multiBarcodeV2, salmonScRna } from '../helpers/assays'
import { SALMON_V3 } from '../helpers/fixtures'
import { buildRad, pack2bit } from '../helpers/radWriter'
import { flatRecords, readRad } from '../helpers/read'
import type { FlatRecord, ReadResult } from '../helpers/read'

/** Record numbers (file-wide) the kernel matches. */
function kernelMatches(file: ReadResult, filter: RecordFilter): number[] {
  const compiled = compileFilter(filter, file.prelude, file.sem)
  const out: number[] = []
  let first = 0
  for (const cols of file.chunks) {
    for (const r of matchRecords(cols, compiled)) out.push(first + r)
    first += cols.recordCount
  }
  return out
}

function mismatches(a: string, b: string): number {
  let n = 0
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++
  return a.length === b.length ? n : Infinity
}

/** The same filter read off the decoded text, the slow obvious way. */
function plainMatches(file: ReadResult, filter: RecordFilter): number[] {
  const ref = filter.ref
  const refOk = (name: string): boolean => {
    if (ref === undefined) return true
    const m = /^\/(.*)\/([a-z]*)$/.exec(ref)
    return m ? new RegExp(m[1] ?? '', m[2]).test(name) : name.includes(ref)
  }
  const ok = (rec: FlatRecord): boolean => {
    const { record, alns } = rec
    if (filter.barcode !== undefined) {
      const hits = record.barcodes.some((b) => mismatches(b, filter.barcode ?? '') <= (filter.hamming ?? 0))
      if (!hits) return false
    }
    if (filter.umi !== undefined && record.umi !== filter.umi) return false
    if (filter.minAln !== undefined && record.naln < filter.minAln) return false
    if (filter.maxAln !== undefined && record.naln > filter.maxAln) return false
    if (filter.fragMapType !== undefined && record.mappingType !== undefined) {
      if (record.mappingType !== filter.fragMapType) return false
    }
    const alnLevel =
      ref !== undefined ||
      filter.orientation !== undefined ||
      (filter.fragMapType !== undefined && record.mappingType === undefined)
    if (!alnLevel) return true
    return alns.some(
      (a) =>
        refOk(a.refName) &&
        (filter.orientation === undefined || a.dir === (filter.orientation === 'fw')) &&
        (filter.fragMapType === undefined || record.mappingType !== undefined || a.mappingType === filter.fragMapType),
    )
  }
  return flatRecords(file).flatMap((rec, i) => (ok(rec) ? [i] : []))
}

describe('packing sequences (§7.8)', () => {
  it('packs ACGT as 0b00011011 and back, up to 32 nt, case-insensitive', () => {
    expect(packSequence('acgt')).toMatchObject({ lo: 0b00011011, hi: 0, len: 4, text: 'ACGT' })
    const seq = 'GATTACAGATTACAGATTACAGATTACAGATT'
    const p = packSequence(seq)
    expect((BigInt(p.hi) << 32n) | BigInt(p.lo)).toBe(pack2bit(seq))
    expect(formatSequence(p.lo, p.hi, p.len)).toBe(seq)
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('A', 'C', 'G', 'T'), minLength: 1, maxLength: 32 }), (s) => {
        const q = packSequence(s)
        expect(formatSequence(q.lo, q.hi, q.len)).toBe(s)
        expect((BigInt(q.hi) << 32n) | BigInt(q.lo)).toBe(pack2bit(s))
      }),
    )
  })

  it('says which base cannot be packed', () => {
    expect(() => packSequence('ACNT', 'barcode')).toThrow(/"N" at position 3/)
    expect(() => packSequence('  ', 'barcode')).toThrow(/empty/)
  })

  it('counts differing bases, not bits: 0, 1, or 2 for more', () => {
    const a = packSequence('ACGTACGTACGTACGT').lo
    expect(baseMismatches(a, a)).toBe(0)
    expect(baseMismatches(a, packSequence('ACGTACGTACGTACGA').lo)).toBe(1)
    // T (11) vs A (00): both bits of one base differ, still one base.
    expect(baseMismatches(packSequence('T').lo, packSequence('A').lo)).toBe(1)
    expect(baseMismatches(a, packSequence('CCGTACGTACGTACGA').lo)).toBe(2)
  })
})

describe('references by name', () => {
  const names = ['ENST0001|GeneA', 'ENST0002|GeneA', 'ENST0003|GeneB', 'chr1']
  it('resolves a substring or /regex/ once to a bitset of ids', () => {
    expect(matchReferences(names, 'GeneA').count).toBe(2)
    const { refs, count } = matchReferences(names, '/^chr\\d$/')
    expect(count).toBe(1)
    expect(refs[0]).toBe(0b1000)
    expect(matchReferences(names, '/geneb/i').count).toBe(1)
  })
  it('rejects a bad regex with a sentence', () => {
    expect(() => matchReferences(names, '/(/')).toThrow(RadError)
  })
})

describe('matching records: known answers on writer files', () => {
  it('scRNA (salmon layout): barcode exact and within one mismatch, UMI, reference, counts, orientation', async () => {
    const file = await readRad(buildRad(salmonScRna()).bytes)
    expect(kernelMatches(file, { barcode: 'GATTACAGATTACAGA' })).toEqual([3])
    expect(kernelMatches(file, { barcode: 'GATTACAGATTACAGT' })).toEqual([])
    expect(kernelMatches(file, { barcode: 'GATTACAGATTACAGT', hamming: 1 })).toEqual([3])
    expect(kernelMatches(file, { barcode: 'AAAAAAAAAAAAAAAT', hamming: 1 })).toEqual([1])
    expect(kernelMatches(file, { umi: 'CATCATCATCAT' })).toEqual([3])
    expect(kernelMatches(file, { ref: 'GeneA' })).toEqual([0, 4])
    expect(kernelMatches(file, { ref: '/^chr/' })).toEqual([3])
    expect(kernelMatches(file, { minAln: 2 })).toEqual([0, 3])
    expect(kernelMatches(file, { maxAln: 1 })).toEqual([1, 2, 4])
    expect(kernelMatches(file, { orientation: 'rc' })).toEqual([1, 2, 3, 4])
    // One alignment must meet both: record 3 has GeneB forward (ref 2) but chr1 only reverse.
    expect(kernelMatches(file, { ref: 'chr1', orientation: 'fw' })).toEqual([])
    expect(kernelMatches(file, { ref: 'GeneB', orientation: 'fw' })).toEqual([3])
    expect(kernelMatches(file, { ref: 'GeneA', minAln: 2, barcode: SC_READS[0]?.cb ?? '' })).toEqual([0])
  })

  it('agrees with the decoded text on every assay, for many filters', async () => {
    const files = await Promise.all(
      [salmonScRna(), multiBarcodeV2(), bulk(true), bulk(false), atacPiscemRs()].map((s) => readRad(buildRad(s).bytes)),
    )
    const barcodes = [
      ...SC_READS.map((r) => r.cb),
      ...ATAC_READS.map((r) => r.cb),
      'ACGTACGT',
      'TTTTTTTTTTTTTTTTTTTA',
      'GATTACAGATTACAGATTAA',
    ]
    const filter = fc.record(
      {
        barcode: fc.constantFrom(...barcodes),
        hamming: fc.constantFrom(0 as const, 1 as const),
        ref: fc.constantFrom('Gene', 'GeneA', '/^chr[12]$/', 'ENST0006', 'nothing'),
        minAln: fc.integer({ min: 0, max: 3 }),
        maxAln: fc.integer({ min: 1, max: 4 }),
        orientation: fc.constantFrom('fw' as const, 'rc' as const),
        fragMapType: fc.integer({ min: 0, max: 4 }),
      },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(filter, (f) => {
        for (const file of files) {
          let want: number[] | RadError
          try {
            want = kernelMatches(file, f)
          } catch (e) {
            if (e instanceof RadError) continue // e.g. a barcode length the file does not have
            throw e
          }
          expect(want).toEqual(plainMatches(file, f))
        }
      }),
      { numRuns: 300 },
    )
  })

  it('bulk: frag_map_type is a read criterion (§7.4); scATAC type an alignment one (§7.5)', async () => {
    const b = await readRad(buildRad(bulk(true)).bytes)
    expect(kernelMatches(b, { fragMapType: 4 })).toEqual([0])
    expect(kernelMatches(b, { fragMapType: 0 })).toEqual([BULK_READS.length - 1])
    expect(kernelMatches(b, { orientation: 'rc', fragMapType: 3 })).toEqual([3])
    const atac = await readRad(buildRad(atacPiscemRs()).bytes)
    expect(kernelMatches(atac, { fragMapType: 1 })).toEqual([1])
    expect(kernelMatches(atac, { fragMapType: 4, ref: 'chr2' })).toEqual([0])
  })

  it('multi-barcode: a barcode matches the level of its length (u64 cell barcodes without BigInt)', async () => {
    const file = await readRad(buildRad(multiBarcodeV2()).bytes)
    expect(kernelMatches(file, { barcode: 'GATTACAGATTACAGATTAC' })).toEqual([1])
    expect(kernelMatches(file, { barcode: 'GATTACAGATTACAGATTAA', hamming: 1 })).toEqual([1])
    expect(kernelMatches(file, { barcode: 'TTTTAAAA' })).toEqual([1])
    expect(() => kernelMatches(file, { barcode: 'ACGT' })).toThrow(/other length/)
  })

  it('says why a file cannot answer', async () => {
    const b = await readRad(buildRad(bulk(true)).bytes)
    expect(() => kernelMatches(b, { barcode: 'ACGT' })).toThrow(/no barcode tag/)
    expect(() => kernelMatches(b, { umi: 'ACGT' })).toThrow(/no UMI tag/)
    expect(() => kernelMatches(b, { minAln: 3, maxAln: 1 })).toThrow(/more than the maximum/)
  })

  it('the salmon fixture: every record of a barcode, as the decoded text says', async () => {
    const file = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    const recs = flatRecords(file)
    const cb = recs[7]?.record.barcodes[0] ?? ''
    const want = recs.flatMap((r, i) => (r.record.barcodes[0] === cb ? [i] : []))
    expect(want.length).toBeGreaterThan(0)
    expect(kernelMatches(file, { barcode: cb })).toEqual(want)
    expect(kernelMatches(file, { barcode: cb, hamming: 1 })).toEqual(plainMatches(file, { barcode: cb, hamming: 1 }))
    expect(kernelMatches(file, { ref: '/1$/', minAln: 2 })).toEqual(plainMatches(file, { ref: '/1$/', minAln: 2 }))
  })
})

describe('the collated fast path (§4.3): the first record of a chunk, read from its bytes', () => {
  it('finds the barcode after naln and reads it without decoding columns', async () => {
    const built = buildRad(salmonScRna())
    const file = await readRad(built.bytes)
    const compiled = compileFilter({ barcode: 'TTTTTTTTTTTTTTTA', hamming: 1 }, file.prelude, file.sem)
    expect(barcodeOnly(compiled)).toBe(true)
    expect(barcodeOnly(compileFilter({ barcode: 'ACGTACGTACGTACGT', minAln: 1 }, file.prelude, file.sem))).toBe(false)
    const crit = compiled.barcode
    if (!crit) throw new Error('no barcode criterion')
    const at = barcodeOffsetInRecord(file.prelude, crit.fields[0]?.tag ?? 0)
    expect(at).toBe(4)
    // Chunk 1 holds records 2 (TTTT…) and 3; chunk 0 records 0 and 1.
    const answers = [0, 1, 2].map((k) => {
      const offset = file.scan.index.offset[k] ?? 0
      const records = built.bytes.subarray(offset + CHUNK_HEADER_BYTES)
      return firstRecordBarcodeMatches(records, at ?? 0, file.prelude, crit)
    })
    expect(answers).toEqual([false, true, false])
  })
})
