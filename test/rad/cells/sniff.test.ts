import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import {
  annotationEvidence,
  annotationKind,
  cellsNotApplicable,
  isGzip,
  missingT2g,
  sortAnnotations,
} from '../../../src/rad/cells'
import { atacPiscemRs, bulk, multiBarcodeV2, salmonScRna } from '../../helpers/assays'
import { radBytes } from '../../helpers/radWriter'
import { readRad } from '../../helpers/read'
import { readNames, SALMON_V3 } from '../../helpers/fixtures'
import { parsePermitList } from '../../../src/rad/cells/permitList'

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'annotations')
const refs = new Set(readNames())

describe('annotationKind: by content, not by name', () => {
  it('tells the three fixtures apart, and refuses a RAD file and one-column junk', () => {
    expect(annotationKind(readFileSync(join(dir, 't2g.tsv')), refs)).toBe('t2g')
    expect(annotationKind(readFileSync(join(dir, 'gene_names.tsv')), refs)).toBe('gene-names')
    // A gene-name table given as the t2g, or the reverse, is told by its content and says why.
    expect(annotationEvidence(readFileSync(join(dir, 'gene_names.tsv')), refs).why).toBe(
      'two columns, and column 1 names none of this file’s references',
    )
    expect(annotationKind(readFileSync(join(dir, 'permit.txt')), refs)).toBe('permit-list')
    expect(annotationKind(readFileSync(SALMON_V3), refs)).toBeUndefined()
    expect(annotationKind(new TextEncoder().encode('hello\nworld\n'), refs)).toBeUndefined()
    expect(annotationKind(new Uint8Array(0), refs)).toBeUndefined()
  })

  it('a permit list with a count beside each barcode is a permit list, not gene names', () => {
    const withCounts = new TextEncoder().encode(
      'AAACCCAAGAAACACT\t1520\nAAACCCAAGAAACCAT\t988\nAAACCCAAGAAACCCA-1\t12\n',
    )
    expect(annotationKind(withCounts, refs)).toBe('permit-list')
    // …and the parser reads its first column (the -1 suffix stripped).
    expect(parsePermitList(withCounts)).toMatchObject({ length: 16, listed: 3, suffixed: 1 })
  })

  it('knows gzip by its magic bytes', () => {
    expect(isGzip(gzipSync(readFileSync(join(dir, 'permit.txt'))))).toBe(true)
    expect(isGzip(readFileSync(join(dir, 'permit.txt')))).toBe(false)
  })
})

describe('cellsNotApplicable', () => {
  it('says plainly why bulk, scATAC and multi-barcode files have no cell figures', async () => {
    for (const spec of [bulk(true), atacPiscemRs(), multiBarcodeV2()]) {
      const r = await readRad(radBytes(spec))
      expect(cellsNotApplicable(r.sem)).toMatch(/need one barcode and a UMI per read \(scRNA\); this \S+ file has/)
    }
    const sc = await readRad(radBytes(salmonScRna()))
    expect(cellsNotApplicable(sc.sem)).toBeUndefined()
  })
})

describe('sortAnnotations: the files given to the page, sorted by content', () => {
  const named = (name: string, file: string) => ({ name, bytes: new Uint8Array(readFileSync(join(dir, file))) })
  const junk = { name: 'notes.md', bytes: new TextEncoder().encode('# notes\nnothing here\n') }

  it('takes each kind once and lists a file of no kind without failing', () => {
    const sorted = sortAnnotations([named('x', 'permit.txt'), junk, named('y', 't2g.tsv')], readNames())
    expect(sorted.t2g?.name).toBe('y')
    expect(sorted.permitList?.name).toBe('x')
    expect(sorted.geneNames).toBeUndefined()
    expect(sorted.kinds).toEqual([
      { name: 'x', kind: 'permit-list', why: 'column 1 is bases in 200 lines of the first 200 lines' },
      { name: 'notes.md', kind: undefined, why: 'one column of something other than barcodes' },
      {
        name: 'y',
        kind: 't2g',
        why: expect.stringMatching(
          /^column 1 names references of this file in \d+ lines of the first 200 lines$/,
        ) as unknown as string,
      },
    ])
    expect(missingT2g(sorted)).toBeUndefined()
  })

  it('refuses two files of one kind, naming both, and says what each file was taken for without a t2g', () => {
    expect(() => sortAnnotations([named('a', 't2g.tsv'), named('b', 't2g.tsv')], readNames())).toThrow(
      'a and b are both a transcript-to-gene map: give one',
    )
    const why = missingT2g(sortAnnotations([named('p', 'permit.txt'), junk], readNames()))
    expect(why).toContain('p: a permit list; notes.md: none of the three')
  })
})

describe('permit lists the page recognises', () => {
  it('a Cell Ranger barcodes list (ACGT…-1), and a list with a junk line (its parser then names the line)', () => {
    const enc = (s: string) => new TextEncoder().encode(s)
    expect(annotationKind(enc('AAACCTGAGAAACCAT-1\nAAACCTGAGAAACCGC-1\n'), refs)).toBe('permit-list')
    expect(annotationKind(enc('AAACCTGAGAAACCAT\nhello world\nAAACCTGAGAAACCGC\n'), refs)).toBe('permit-list')
  })
})
