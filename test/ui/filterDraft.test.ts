import { describe, expect, it } from 'vitest'
import { formatLink, parseLink } from '../../src/ui/persist/deepLink'
import { EMPTY_DRAFT, draftFromLink, draftToLink } from '../../src/ui/filter/filterDraft'

describe('the filter in the deep link', () => {
  it('writes the CLI flag names, empty fields left out, and reads them back', () => {
    const draft = {
      ...EMPTY_DRAFT,
      barcode: 'ACGT',
      nearBarcode: true,
      ref: '/^TX1\\|G$/',
      minAln: '2',
      orientation: 'rc' as const,
    }
    const text = draftToLink(draft)
    expect(text).toBe('barcode=ACGT&hamming=1&ref=%2F%5ETX1%5C%7CG%24%2F&min-aln=2&orientation=rc')
    expect(draftFromLink(text)).toEqual(draft)
  })

  it('survives the address: inside #filter=… and out again', () => {
    const draft = { ...EMPTY_DRAFT, umi: 'GGTT', maxAln: '3', fragMapType: '1' }
    const hash = formatLink({ fp: '1-00', filter: draftToLink(draft) })
    expect(draftFromLink(parseLink(hash).filter ?? '')).toEqual(draft)
  })

  it('ignores what the bar has no field for, and hamming without a barcode', () => {
    expect(draftFromLink('')).toBeUndefined()
    expect(draftFromLink('colour=blue&orientation=up')).toBeUndefined()
    expect(draftFromLink('hamming=1&umi=AC')).toEqual({ ...EMPTY_DRAFT, umi: 'AC' })
    expect(draftToLink(EMPTY_DRAFT)).toBe('')
  })
})
