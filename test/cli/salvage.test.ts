/**
 * `node bin/rad.mjs salvage IN OUT` (docs/integrity.md): writes exactly the file
 * planSalvage describes, and `rad validate OUT` accepts it (exit 0).
 */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { plural } from '../../src/rad/errors'
import { loadZstd } from '../helpers/radWriter'
import { runCli, tempDir } from '../helpers/cli'
import { expectSalvaged, salvageBytes, salvageCases } from '../helpers/salvageCases'

await loadZstd()
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

// The CLI costs ~0.4 s a run: one file per kind of damage (planSalvage itself runs them all).
const CLI_CASES = [
  'a truncated file',
  'a corrupt middle chunk',
  'a concatenated file',
  'a num_chunks = 0 file cut',
  'a v2 file, truncated, with a corrupt middle chunk',
  'a payload-only nbytes file',
  'more damaged chunks',
  'a clean file',
]
const cases = salvageCases().filter((c) => CLI_CASES.some((name) => c.name.startsWith(name)))

describe.concurrent('rad salvage IN OUT', () => {
  it('runs every chosen case', () => {
    expect(cases).toHaveLength(CLI_CASES.length)
  })

  it.each(cases.map((c, i) => ({ ...c, n: i })))('$name', async (c) => {
    const input = dir.write(`in-${String(c.n)}.rad`, c.input)
    const output = dir.path(`out-${String(c.n)}.rad`)
    const r = await runCli(['salvage', input, output])
    expect(r.code, r.stderr).toBe(0)
    const { plan, out: expected, before } = await salvageBytes(c.input)
    const errors = before.issues.filter((i) => i.severity === 'error').length
    const dropped = c.dropped.length > 0 ? `; dropped damaged chunks ${c.dropped.join(', ')}` : ''
    expect(r.stdout).toBe(
      `wrote ${output}: ${plural(c.kept.length, 'chunk')}, ${plural(plan.keptRecords, 'record')}, ${plural(plan.bytes, 'byte')}` +
        `${dropped} (${plural(errors, 'problem')} in the input)\n`,
    )
    const out = new Uint8Array(readFileSync(output))
    expect(Buffer.from(out).equals(Buffer.from(expected)), 'the CLI writes what planSalvage plans').toBe(true)
    await expectSalvaged(c, out)
    const v = await runCli(['validate', output])
    expect(v.code, v.stderr).toBe(0)
    expect(v.stdout).toMatch(new RegExp(`^ok: ${String(c.kept.length)} chunks, `))
  })

  it('an unreadable input is an error, and nothing is written', async () => {
    const output = dir.path('never.rad')
    const r = await runCli([
      'salvage',
      dir.write('reads.fastq', new TextEncoder().encode('@r\nACGT\n+\nIIII\n')),
      output,
    ])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error at byte 0: not a RAD file: this looks like a FASTQ/)
    expect(() => readFileSync(output)).toThrow(/ENOENT/)
  })
})
