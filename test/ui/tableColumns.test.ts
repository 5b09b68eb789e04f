import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { optionalClass, recordColumns } from '../../src/ui/tableColumns'
import { SALMON_V3 } from '../helpers/fixtures'
import { readRad } from '../helpers/read'

describe('recordColumns', async () => {
  const { prelude, sem } = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
  const cols = recordColumns(prelude, sem)

  it('gives salmon scRNA its columns, one header per track', () => {
    expect(cols.columns.map((c) => c.header)).toEqual([
      '',
      'Record',
      'Chunk',
      'Aln',
      'Barcode',
      'UMI',
      'First alignment',
    ])
    expect(cols.full.template.replace(', ', ',').split(' ')).toHaveLength(cols.columns.length)
  })

  it('sizes every track in px, so header (12 px) and rows (13 px) share them exactly', () => {
    expect(cols.full.template).toMatch(/^(\d+px )+minmax\(\d+px, 1fr\)$/)
    expect(cols.compact.template).toMatch(/^(\d+px )+minmax\(\d+px, 1fr\)$/)
  })

  it('sizes barcode and UMI columns to their declared lengths (16 and 12 nt) plus two characters', () => {
    const width = (kind: string) => cols.columns.find((c) => c.kind === kind)?.width
    expect(width('barcode')).toBe(18 * 8)
    expect(width('umi')).toBe(14 * 8)
  })

  it('drops only the optional columns when compact, and its minimum width is the sum of the rest', () => {
    const kept = cols.columns.filter((c) => optionalClass(c.kind) === '')
    expect(kept.map((c) => c.kind)).toEqual(['caret', 'record', 'aln', 'barcode', 'umi', 'preview'])
    const tracks = kept.reduce((s, c) => s + c.width, 0)
    expect(cols.compact.minWidth).toBe(tracks + (kept.length - 1) * 14 + 2 * 14)
    expect(cols.compact.minWidth).toBeLessThan(cols.full.minWidth)
    // app.css: at 1024 px the table beside a 344 px sidebar fits the compact columns.
    expect(cols.compact.minWidth).toBeLessThanOrEqual(1024 - 344)
  })
})
