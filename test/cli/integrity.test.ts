/**
 * The integrity report (docs/integrity.md) from the command line: `node bin/rad.mjs info FILE`
 * prints `integrity` and `issues` for every class of damage, held to the same
 * table as the in-process test (test/io/integrity.test.ts) — the files whose
 * prelude cannot be read included (integrity "unreadable").
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { IntegrityIssue } from '../../src/rad/checks/integrity'
import { loadZstd } from '../helpers/radWriter'
import { runCli, tempDir } from '../helpers/cli'
import { expectIssues, integrityCases } from '../helpers/integrityCases'

await loadZstd()
const cases = integrityCases()
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

interface Info {
  integrity: string
  issues: IntegrityIssue[]
  chunks?: number
  error?: { code: string; offset?: number }
}

describe.concurrent('rad info: integrity and issues, one hand-made file per class', () => {
  const runs = cases.flatMap((c, i) => (c.cli === false ? [] : [{ ...c, file: `case-${String(i)}.rad` }]))
  it('runs one file of every class (the rest are variants the in-process test covers)', () => {
    expect(new Set(runs.flatMap((c) => c.issues.map((i) => i.kind)))).toEqual(
      new Set(cases.flatMap((c) => c.issues.map((i) => i.kind))),
    )
    expect(runs.length).toBeLessThan(cases.length)
  })

  it.each(runs)('$name', async (c) => {
    const r = await runCli(['info', dir.write(c.file, c.bytes)])
    // gzip -t's codes: 1 for errors, 2 for warnings, 0 otherwise (notes included).
    const worst = c.issues.some((i) => i.severity === 'error')
      ? 1
      : c.issues.some((i) => i.severity === 'warning')
        ? 2
        : 0
    expect(r.code, r.stderr).toBe(worst)
    const info = JSON.parse(r.stdout) as Info
    expect(info.integrity).toBe(c.integrity)
    expect(info.chunks).toBe(c.chunks)
    expectIssues(info.issues, c.issues)
    if (c.integrity === 'unreadable') {
      // The reason is also on stderr, as every command prints it.
      expect(r.stderr).toBe(`error at byte ${String(c.issues[0]?.offset)}: ${info.issues[0]?.message ?? ''}\n`)
      expect(info.error?.code).toBe(info.issues[0]?.code)
    }
  })
})
