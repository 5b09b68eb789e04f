import type { RecordFilter } from '../../rad/filter/recordFilter'
import { parseIndex } from '../format'

/** The filter bar's fields as typed (strings), before they become a RecordFilter. */
export interface FilterDraft {
  barcode: string
  /** Allow one mismatch in the barcode (Hamming distance 1). */
  nearBarcode: boolean
  umi: string
  ref: string
  minAln: string
  maxAln: string
  orientation: '' | 'fw' | 'rc'
  fragMapType: string
}

export const EMPTY_DRAFT: FilterDraft = {
  barcode: '',
  nearBarcode: false,
  umi: '',
  ref: '',
  minAln: '',
  maxAln: '',
  orientation: '',
  fragMapType: '',
}

function count(text: string, what: string): number | string | undefined {
  const t = text.trim()
  if (t === '') return undefined
  const n = parseIndex(t)
  return n === undefined ? `${what} must be a whole number ≥ 0, not “${t.slice(0, 24)}”.` : n
}

/** The fields as a RecordFilter (empty fields are left out), or what is wrong with them. */
export function draftToFilter(d: FilterDraft): RecordFilter | { problem: string } {
  const filter: RecordFilter = {}
  if (d.barcode.trim() !== '') {
    filter.barcode = d.barcode.trim()
    if (d.nearBarcode) filter.hamming = 1
  }
  if (d.umi.trim() !== '') filter.umi = d.umi.trim()
  if (d.ref.trim() !== '') filter.ref = d.ref.trim()
  const numbers = [
    ['minAln', d.minAln, 'The minimum number of alignments'],
    ['maxAln', d.maxAln, 'The maximum number of alignments'],
    ['fragMapType', d.fragMapType, 'The mapping type'],
  ] as const
  for (const [key, text, what] of numbers) {
    const n = count(text, what)
    if (typeof n === 'string') return { problem: n }
    if (n !== undefined) filter[key] = n
  }
  if (d.orientation !== '') filter.orientation = d.orientation
  if (Object.keys(filter).length === 0) {
    return { problem: 'Type a barcode, a reference or another criterion to filter the records.' }
  }
  return filter
}

/** The draft's text fields in the deep link's `filter` value, named as the CLI's flags (README). */
const LINK_FIELDS = [
  ['barcode', 'barcode'],
  ['umi', 'umi'],
  ['ref', 'ref'],
  ['min-aln', 'minAln'],
  ['max-aln', 'maxAln'],
  ['frag-map-type', 'fragMapType'],
] as const

/**
 * The draft as the deep link's `filter` value (deepLink.ts): `barcode=ACGT&hamming=1&ref=GAPDH`,
 * the CLI's flag names, empty fields left out; '' for an empty draft.
 */
export function draftToLink(d: FilterDraft): string {
  const params = new URLSearchParams()
  for (const [name, key] of LINK_FIELDS) {
    const value = d[key].trim()
    if (value !== '') params.set(name, value)
    if (key === 'barcode' && value !== '' && d.nearBarcode) params.set('hamming', '1')
  }
  if (d.orientation !== '') params.set('orientation', d.orientation)
  return params.toString()
}

/** The draft a link's `filter` value names, or undefined when it names no field this bar has. */
export function draftFromLink(text: string): FilterDraft | undefined {
  const params = new URLSearchParams(text)
  const d: FilterDraft = { ...EMPTY_DRAFT }
  let any = false
  for (const [name, key] of LINK_FIELDS) {
    const value = params.get(name)
    if (value === null || value.trim() === '') continue
    d[key] = value
    any = true
  }
  d.nearBarcode = d.barcode !== '' && params.get('hamming') === '1'
  const orientation = params.get('orientation')
  if (orientation === 'fw' || orientation === 'rc') {
    d.orientation = orientation
    any = true
  }
  return any ? d : undefined
}
