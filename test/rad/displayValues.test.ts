import { describe, expect, it } from 'vitest'
import { fileTagPlaceholderField, placeholderReason, refLabel, roleName } from '../../src/rad/text/display'

describe('placeholders (docs/format.md §7): "not available" values are not numbers', () => {
  it('frag_len 65535 is not a pair (§7.4, §7.5)', () => {
    expect(placeholderReason('fragmentLength', 65535)).toMatch(/not a mapped pair/)
    expect(placeholderReason('fragmentLength', 65534)).toBeUndefined()
    expect(placeholderReason('fragmentLength', 0)).toBeUndefined()
  })
  it('pos 4294967295 (u32 max) is no position', () => {
    expect(placeholderReason('position', 4294967295)).toMatch(/no mapping position/)
    expect(placeholderReason('position', 0)).toBeUndefined()
    expect(placeholderReason('position', 4294967294)).toBeUndefined()
  })
  it('rlen 0 was never back-patched (§7.2)', () => {
    expect(fileTagPlaceholderField('rlen')).toBe('readLength')
    expect(fileTagPlaceholderField('cblen')).toBeUndefined()
    expect(placeholderReason('readLength', 0n)).toMatch(/never was/)
    expect(placeholderReason('readLength', 150)).toBeUndefined()
  })
  it('undefined is no value, not a placeholder', () => {
    expect(placeholderReason('position', undefined)).toBeUndefined()
  })
})

describe('role names as the format spells them (§2.3)', () => {
  it('mappingType → MappingType', () => {
    expect(roleName('mappingType')).toBe('MappingType')
    expect(roleName('umi')).toBe('Umi')
    expect(roleName('none')).toBe('None')
  })
})

describe('reference labels keep the gene visible', () => {
  it('GENCODE transcript names lead with the gene name', () => {
    const name = 'ENST00000456328.2|ENSG00000290825.1|-|-|DDX11L2-202|DDX11L2|1657|lncRNA|'
    expect(refLabel(name)).toEqual({ short: 'DDX11L2 · ENST00000456328.2', full: name })
  })
  it('other names are shown whole', () => {
    expect(refLabel('TX00104-1|GENE00104').short).toBe('TX00104-1|GENE00104')
    expect(refLabel('chr1').short).toBe('chr1')
    expect(refLabel('ENST00000456328.2|ENSG00000290825.1|-|-|x|-|1|y|').short).toMatch(/^ENST/)
  })
})
