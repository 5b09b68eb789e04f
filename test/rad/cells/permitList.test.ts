import { describe, expect, it } from 'vitest'
import { classifyBarcode, parsePermitList } from '../../../src/rad/cells'
import { packSequence } from '../../../src/rad/recordFilter'

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)

function classOf(listText: string, barcode: string): string {
  const list = parsePermitList(bytes(listText))
  const p = packSequence(barcode)
  return classifyBarcode(list, p.lo, p.hi)
}

describe('permit list', () => {
  it('classes by Hamming distance, barcodes in one word and across two (poly-A included)', () => {
    expect(classOf('AAAA\nCCCC\n', 'AAAA')).toBe('exact')
    expect(classOf('AAAA\nCCCC\n', 'AAAT')).toBe('corrected')
    expect(classOf('AAAA\nAACA\n', 'AAGA')).toBe('ambiguous')
    expect(classOf('AAAA\nCCCC\n', 'GGGG')).toBe('absent')
    const long = 'ACGTACGTACGTACGTACGTAC' // 22 nt: the first 6 bases in the high word
    expect(classOf(`${long}\n`, `T${long.slice(1)}`)).toBe('corrected')
    expect(classOf(`${long}\n`, `${long.slice(0, 21)}A`)).toBe('corrected')
    expect(classOf(`${long}\nT${long.slice(1)}\n`, `G${long.slice(1)}`)).toBe('ambiguous')
  })

  it('counts distinct barcodes; CRLF and blank lines are fine; a bad line is named', () => {
    expect(parsePermitList(bytes('ACGT\r\n\r\nacgt\nTTTT\n')).listed).toBe(2)
    expect(() => parsePermitList(bytes('ACGT\nACNT\n'), 'p.txt')).toThrow(/p.txt line 2: "N" at column 3/)
    expect(() => parsePermitList(bytes('\n\n'), 'p.txt')).toThrow(/has no barcodes/)
  })
})
