/** chunk.ts: the record layout, and the table of decode and check paths in its comment. */
import { describe, expect, it } from 'vitest'
import { recordLayout } from '../../src/rad/decode/chunk'
import type { RecordLayout } from '../../src/rad/decode/chunk'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { atacPiscemRs, bulk, multiBarcodeV2, piscemScRnaV2, salmonScRna, scLongRead } from '../helpers/assays'
import { arrayTag, buildRad, radBytes, tag } from '../helpers/radWriter'
import type { RadSpec, TagSpec } from '../helpers/radWriter'

/** Which decode and check paths a file's layout admits, in the words of the table. */
function paths(spec: RadSpec): { decode: string; check: string } {
  const bytes = buildRad(spec).bytes
  const prelude = parsePrelude(bytes, bytes.length)
  const layout = recordLayout(prelude)
  const fixed = layout.readStride >= 0 && layout.alnStride >= 0
  const exact = fixed ? 'fixed' : 'generic'
  const words = makeCheckPlan(prelude, inferSemantics(prelude)).words
  return {
    decode: layout.allU32 ? `in place, words, ${exact}` : exact,
    check: words ? `words (${words.oneWord ? 'one-word' : 'any stride'}), ${exact}` : exact,
  }
}

describe('the path table in chunk.ts', () => {
  it('holds for every row', () => {
    const generic: RadSpec = {
      readTags: [tag('name', 'string')],
      alnTags: [tag('ref', 'u32'), arrayTag('cigar', 'u8', 'u16')],
    }
    expect(paths(salmonScRna())).toEqual({ decode: 'in place, words, fixed', check: 'words (one-word), fixed' })
    expect(paths(piscemScRnaV2(true))).toEqual({ decode: 'in place, words, fixed', check: 'words (any stride), fixed' })
    expect(paths(scLongRead())).toEqual({ decode: 'fixed', check: 'words (any stride), fixed' })
    for (const spec of [bulk(true), atacPiscemRs(), multiBarcodeV2()]) {
      expect(paths(spec)).toEqual({ decode: 'fixed', check: 'fixed' })
    }
    expect(paths(generic)).toEqual({ decode: 'generic', check: 'generic' })
  })
})

/** The layout of a file with these tags, as the reader parses it. */
function layoutOf(readTags: TagSpec[], alnTags: TagSpec[]): RecordLayout {
  const bytes = radBytes({ readTags, alnTags })
  return recordLayout(parsePrelude(bytes, bytes.length))
}

describe('recordLayout', () => {
  it('sums fixed widths, and gives the smallest record a variable layout allows', () => {
    const fixed = layoutOf([tag('b', 'u32'), tag('f', 'u8')], [tag('r', 'u64')])
    expect(fixed).toMatchObject({ readStride: 5, alnStride: 8, minRecordBytes: 9, allU32: false })
    const variable = layoutOf([tag('s', 'string'), arrayTag('a', 'u16', 'u32')], [tag('r', 'u32')])
    // naln 4 + the string's u16 length 2 + the array's u16 count 2.
    expect(variable).toMatchObject({ readStride: -1, alnStride: 4, minRecordBytes: 8, allU32: false })
  })

  it('needs an alignment tag for allU32: with none there is nothing for the word loops to size', () => {
    expect(layoutOf([tag('b', 'u32')], []).allU32).toBe(false)
    expect(layoutOf([tag('b', 'u32')], [tag('r', 'u32')]).allU32).toBe(true)
  })
})
