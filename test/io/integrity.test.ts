/**
 * The integrity report (docs/integrity.md), in process: every class of damage, made by hand
 * with the test writer, is told apart by scanChunks with a check plan (or by
 * openRad, when the prelude cannot be read), with its kind, severity, chunk,
 * part and absolute byte offset. test/cli/integrity.test.ts holds `rad info`
 * to the same table.
 */
import { describe, expect, it } from 'vitest'
import { RadError } from '../../src/rad/errors'
import { integrityStatus, issueFromError } from '../../src/rad/checks/integrity'
import type { IntegrityIssue, IntegrityStatus } from '../../src/rad/checks/integrity'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { loadZstd } from '../helpers/radWriter'
import { expectIssues, integrityCases } from '../helpers/integrityCases'
import type { IntegrityCase } from '../helpers/integrityCases'

// The zstd cases compress their chunks when the table is built.
await loadZstd()
const cases: IntegrityCase[] = integrityCases()

export interface Report {
  integrity: IntegrityStatus
  chunks: number | undefined
  chunkOffsets: number[] | undefined
  issues: IntegrityIssue[]
}

/** What the viewer's index worker and `rad info` compute: open, then walk with every check. */
async function report(bytes: Uint8Array): Promise<Report> {
  let opened
  try {
    opened = await openRad(new BytesSource(bytes, 'case.rad'))
  } catch (e) {
    if (!(e instanceof RadError)) throw e
    const issue = issueFromError(e)
    return { integrity: integrityStatus([issue], false), chunks: undefined, chunkOffsets: undefined, issues: [issue] }
  }
  const { source, prelude } = opened
  const scan = await scanChunks(source, prelude, { check: makeCheckPlan(prelude, inferSemantics(prelude)) })
  return {
    integrity: integrityStatus(scan.issues, true),
    chunks: scan.index.count,
    chunkOffsets: Array.from(scan.index.offset),
    issues: scan.issues,
  }
}

describe('integrity report: one hand-made file per class (scanChunks with check)', () => {
  it('the table covers every issue kind a file can produce, and every status', () => {
    const kinds = new Set(cases.flatMap((c) => c.issues.map((i) => i.kind)))
    for (const kind of [
      'not-rad',
      'truncated',
      'num-chunks-unknown',
      'num-chunks-too-large',
      'trailing-bytes',
      'concatenated',
      'corrupt-chunk',
      'decompress-failed',
      'unknown-codec',
      'checksum-mismatch',
      'declared-length',
    ] as const) {
      expect(kinds, kind).toContain(kind)
    }
    expect(new Set(cases.map((c) => c.integrity))).toEqual(
      new Set(['clean', 'notes', 'warnings', 'damaged', 'unreadable']),
    )
  })

  it.each(cases)('$name', async (c) => {
    const r = await report(c.bytes)
    expect(r.integrity).toBe(c.integrity)
    expect(r.chunks).toBe(c.chunks)
    if (c.chunkOffsets) expect(r.chunkOffsets).toEqual(c.chunkOffsets)
    expectIssues(r.issues, c.issues)
  })
})
