/** What a chunk scan says of the file itself: prelude notes, nbytes convention (§4.2), bytes after the chunks (§1.4). */
import { describe, expect, it } from 'vitest'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { MAX_LISTED_ISSUES, ScanIssues, afterChunksIssue, fileIssues } from '../../src/rad/checks/scanIssues'
import { buildRad, tag } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'

const basic: RadSpec = { refs: ['r0'], readTags: [tag('b', 'u32')], alnTags: [tag('ref', 'u32')] }

function headOf(spec: RadSpec): Uint8Array {
  return buildRad(spec).bytes.slice(0, 8)
}

describe('fileIssues', () => {
  it('says nothing of a plain file', () => {
    const { bytes } = buildRad({ ...basic, numChunks: 1 })
    expect(fileIssues(parsePrelude(bytes, bytes.length), 'header-inclusive')).toEqual([])
  })

  it('lists the prelude warnings, and a payload-only nbytes at chunk 0', () => {
    const { bytes, layout } = buildRad({ ...basic, numChunks: 0 })
    const issues = fileIssues(parsePrelude(bytes, bytes.length), 'payload-only')
    expect(issues.map((i) => [i.kind, i.severity])).toEqual([
      ['num-chunks-unknown', 'info'],
      ['payload-only-nbytes', 'info'],
    ])
    expect(issues[1]).toMatchObject({ offset: layout.firstChunkOffset, chunk: 0 })
    expect(issues[1]!.message).toMatch(/§4\.2/)
  })
})

describe('afterChunksIssue', () => {
  it('sees a second file when the bytes start with the magic or a legacy prelude', () => {
    for (const head of [headOf({ ...basic, v2: true }), headOf(basic), headOf({ ...basic, paired: true })]) {
      const issue = afterChunksIssue(head, 500, 900, 7, true)
      expect(issue).toMatchObject({ kind: 'concatenated', severity: 'warning', offset: 500, part: 'after-chunks' })
      expect(issue.message).toBe(
        'a second RAD file seems to start at byte 500, after the 7 chunks that num_chunks declares: files were concatenated; only the first is shown (400 bytes follow)',
      )
    }
  })

  it('calls anything else trailing bytes, short tails included', () => {
    for (const head of [
      Uint8Array.of(2, 1, 0, 0, 0, 0, 0, 0),
      Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0),
      Uint8Array.of(0, 3),
    ]) {
      expect(afterChunksIssue(head, 500, 502, 7, true)).toMatchObject({
        kind: 'trailing-bytes',
        message: '2 trailing bytes after the 7 chunks that num_chunks declares (from byte 500); they are ignored',
      })
    }
  })
})

describe('ScanIssues', () => {
  it('keeps the order found, remembers every damaged chunk and lists the first MAX_LISTED_ISSUES', () => {
    const list = new ScanIssues([{ kind: 'note', severity: 'info', message: 'first' }])
    for (let k = 0; k < MAX_LISTED_ISSUES + 5; k++) {
      list.addDamaged({ kind: 'corrupt-chunk', severity: 'error', message: `chunk ${String(k)}`, chunk: k })
    }
    list.add({ kind: 'truncated', severity: 'error', message: 'end' })
    const issues = list.finish()
    expect(list.damagedChunks).toHaveLength(MAX_LISTED_ISSUES + 5)
    expect(issues).toHaveLength(1 + MAX_LISTED_ISSUES + 2)
    expect(issues[0]!.message).toBe('first')
    expect(issues.at(-2)!.message).toBe('end')
    expect(issues.at(-1)).toEqual({
      kind: 'note',
      severity: 'warning',
      message: '5 more damaged chunks are not listed',
    })
  })

  it('adds no note when every damaged chunk is listed', () => {
    const list = new ScanIssues()
    list.addDamaged({ kind: 'corrupt-chunk', severity: 'error', message: 'x', chunk: 3 })
    expect(list.finish()).toHaveLength(1)
    expect(list.damagedChunks).toEqual([3])
  })
})
