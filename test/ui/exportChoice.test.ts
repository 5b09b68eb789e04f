import { describe, expect, it } from 'vitest'
import { chunkRange, defaultPick, describeFilter, unavailable } from '../../src/ui/export/exportChoice'
import type { ExportContext } from '../../src/ui/export/exportChoice'

const ready: ExportContext = {
  filter: { barcode: 'ACGT' },
  chunks: 10,
  indexed: true,
  statsDone: true,
  hasBarcodes: true,
  cut: { cells: 3, minCount: 7, readsShare: 0.5 },
}

describe('export choices', () => {
  it('says why a selection is not available', () => {
    expect(unavailable('filter', ready)).toBeUndefined()
    expect(unavailable('filter', { ...ready, filter: undefined })).toMatch(/run a filter first/)
    expect(unavailable('cells', { ...ready, statsDone: false })).toMatch(/statistics/)
    expect(unavailable('cells', { ...ready, hasBarcodes: false })).toMatch(/no cell barcodes/)
    expect(unavailable('chunks', { ...ready, indexed: false })).toMatch(/indexed/)
    expect(unavailable('chunks', { ...ready, chunks: 0 })).toMatch(/no chunks/)
  })

  it('starts on the filter, else the cells, else the chunks', () => {
    expect(defaultPick(ready)).toBe('filter')
    expect(defaultPick({ ...ready, filter: undefined })).toBe('cells')
    expect(defaultPick({ ...ready, filter: undefined, statsDone: false })).toBe('chunks')
  })

  it('reads a chunk range as typed', () => {
    expect(chunkRange('2', '1,000', 2000)).toEqual({ from: 2, to: 1000 })
    expect(chunkRange('3', '3', 4)).toEqual({ from: 3, to: 3 })
    expect(chunkRange('5', '2', 10)).toMatch(/comes after/)
    expect(chunkRange('0', '10', 10)).toMatch(/chunks 0 to 9; there is no chunk 10/)
    expect(chunkRange('x', '1', 10)).toMatch(/two chunk numbers/)
  })

  it('puts a filter in words', () => {
    expect(describeFilter({ barcode: 'ACGT', hamming: 1, ref: '/^ENST/', minAln: 2 })).toBe(
      'barcode ACGT (±1 base), reference /^ENST/, ≥ 2 alignments',
    )
  })
})
