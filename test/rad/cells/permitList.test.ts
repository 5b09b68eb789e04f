import { describe, expect, it } from 'vitest'
import { classifyBarcode, parsePermitList } from '../../../src/rad/cells'
import { packSequence } from '../../../src/rad/filter/recordFilter'

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

/** Bytes whose indexOf counts how many bytes its searches passed over. */
class CountingBytes extends Uint8Array {
  scanned = 0
  override indexOf(value: number, from = 0): number {
    const found = super.indexOf(value, from)
    this.scanned += (found < 0 ? this.length : found + 1) - from
    return found
  }
}

describe('a permit list is read in time linear in its size', () => {
  it('a list without a second column (every 10x list): each byte searched a bounded number of times', () => {
    const lines = 20_000
    const text = Array.from({ length: lines }, (_, i) => barcodeOf(i)).join('\n') + '\n'
    const bytes = new CountingBytes(new TextEncoder().encode(text))
    const list = parsePermitList(bytes)
    expect(list.listed).toBe(lines)
    // Before the fix every line searched for a tab to the buffer's end: ~lines/2 passes over it.
    expect(bytes.scanned).toBeLessThanOrEqual(3 * bytes.length)
  })

  it('a second column is still dropped, line by line', () => {
    const list = parsePermitList(new TextEncoder().encode('ACGT\t5\nACGA\nTTTT\t1\n'))
    expect(list.listed).toBe(3)
    expect(list.length).toBe(4)
  })
})

/** The i-th barcode of 16 bases (distinct for i < 4^16). */
function barcodeOf(i: number): string {
  let s = ''
  for (let k = 0; k < 16; k++) s += 'ACGT'.charAt((i >>> (2 * k)) & 3)
  return s
}

describe('permit lists as people have them', () => {
  it('a line of something other than bases is named as such, before its length', () => {
    expect(() => parsePermitList(bytes('ACGTACGTACG\nhello world\n'), 'list.txt')).toThrow(
      'list.txt line 2: "h" at column 1; a permit list has one barcode (A, C, G, T) per line',
    )
  })

  it('Cell Ranger’s barcodes.tsv (ACGT…-1): the gem-group suffix is dropped and counted', () => {
    const list = parsePermitList(bytes('ACGTACGT-1\nTTTTACGT-1\nGGGGACGT-12\n'))
    expect(list).toMatchObject({ length: 8, listed: 3, suffixed: 3 })
    expect(classOf('ACGTACGT-1\n', 'ACGTACGT')).toBe('exact')
    expect(parsePermitList(bytes('ACGTACGT\n')).suffixed).toBe(0)
  })
})
