import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { recordView } from '../../src/rad/text/display'
import { readTagFields } from '../../src/ui/table/readTags'
import { hiddenCells, hiddenTags, recordColumns, shownColumns } from '../../src/ui/table/tableColumns'
import { SC_READS, bulk, salmonScRna } from '../helpers/assays'
import { radBytes, tag } from '../helpers/radWriter'
import type { WValue } from '../helpers/radWriter'
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
    const kept = cols.columns.filter((c) => c.drop === 0)
    expect(kept.map((c) => c.kind)).toEqual(['caret', 'record', 'aln', 'barcode', 'umi', 'preview'])
    const tracks = kept.reduce((s, c) => s + c.width, 0)
    expect(cols.compact.minWidth).toBe(tracks + (kept.length - 1) * 14 + 2 * 14)
    expect(cols.compact.minWidth).toBeLessThan(cols.full.minWidth)
    // app.css: at 1024 px the table beside a 344 px sidebar fits the compact columns.
    expect(cols.compact.minWidth).toBeLessThanOrEqual(1024 - 344)
  })
})

describe('recordColumns: read tags without an essential column', async () => {
  const spec = salmonScRna()
  const tagged = radBytes({
    ...spec,
    readTags: [...(spec.readTags ?? []), tag('sample', 'string')],
    chunks: (spec.chunks ?? []).map((c) => ({
      ...c,
      records: (c.records ?? []).map((r) => ({
        ...r,
        read: { ...(r.read as Readonly<Record<string, WValue>>), sample: 'donor-7' },
      })),
    })),
  })
  const { prelude, sem, chunks } = await readRad(tagged)

  it('gives an expanded record a tag row only when some read tag is in an optional column', async () => {
    const plain = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
    expect(recordColumns(plain.prelude, plain.sem).tagRow).toBe(false)
    expect(recordColumns(prelude, sem).tagRow).toBe(true)
    const bulkFile = await readRad(radBytes(bulk(true)))
    expect(recordColumns(bulkFile.prelude, bulkFile.sem).tagRow).toBe(true)
  })

  it('lists every read tag in the schema’s order, barcodes and UMIs as nucleotides', () => {
    const cols = chunks[0]
    if (!cols) throw new Error('no chunk')
    const fields = readTagFields(recordView(cols, 0, prelude, sem), prelude, sem)
    expect(fields).toEqual([
      ['b', SC_READS[0]?.cb],
      ['u', SC_READS[0]?.umi],
      ['sample', 'donor-7'],
    ])
  })

  it('drops one optional column at a time as the table narrows: the chunk, the other tags from the last, the mapping type', async () => {
    const bulkSpec = bulk(true)
    const file = await readRad(
      radBytes({
        ...bulkSpec,
        readTags: [...(bulkSpec.readTags ?? []), tag('xs', 'u16'), tag('nh', 'u8')],
        chunks: (bulkSpec.chunks ?? []).map((c) => ({
          ...c,
          records: (c.records ?? []).map((r) => ({
            ...r,
            read: { ...(r.read as Readonly<Record<string, WValue>>), xs: 1, nh: 2 },
          })),
        })),
      }),
    )
    const cols = recordColumns(file.prelude, file.sem)
    const headers = (k: number) => shownColumns(cols.columns, k).map((c) => c.header)
    expect(cols.layouts).toHaveLength(5)
    expect(headers(0)).toEqual(['', 'Record', 'Chunk', 'Aln', 'Mapping', 'xs', 'nh', 'First alignment'])
    expect(headers(1)).toEqual(['', 'Record', 'Aln', 'Mapping', 'xs', 'nh', 'First alignment'])
    expect(headers(2)).toEqual(['', 'Record', 'Aln', 'Mapping', 'xs', 'First alignment'])
    expect(headers(4)).toEqual(['', 'Record', 'Aln', 'First alignment'])
    expect(cols.layouts[0]).toEqual(cols.full)
    expect(cols.layouts[4]).toEqual(cols.compact)
    const widths = cols.layouts.map((l) => l.minWidth)
    expect([...widths].sort((a, b) => b - a)).toEqual(widths)
    expect(hiddenCells(cols.columns, 2)).toEqual({ chunk: true, mapping: false, other: [false, true] })
    // The expanded record lists the tags whose columns are gone.
    expect(hiddenTags(cols.columns, 0)).toEqual([])
    expect(hiddenTags(cols.columns, 2)).toEqual(['nh'])
    expect(hiddenTags(cols.columns, 4)).toEqual(['frag_map_type', 'xs', 'nh'])
  })

  it('names a read-level mapping type and keeps its number', async () => {
    const bulkFile = await readRad(radBytes(bulk(true)))
    const cols = bulkFile.chunks[0]
    if (!cols) throw new Error('no chunk')
    const [field] = readTagFields(recordView(cols, 0, bulkFile.prelude, bulkFile.sem), bulkFile.prelude, bulkFile.sem)
    expect(field?.[0]).toBe('frag_map_type')
    expect(field?.[1]).toMatch(/^[a-z ()0-9]+ \(\d\)$/)
  })
})
