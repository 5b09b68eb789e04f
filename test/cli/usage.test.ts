/** `rad COMMAND --help` prints that command's usage; `rad export` writes view's and dump's text. */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

describe.concurrent('rad COMMAND --help', () => {
  it.each(['info', 'dump', 'view', 'validate', 'index', 'salvage', 'stats', 'subset', 'export', 'cat', 'compare'])(
    '%s --help is that command alone',
    async (command) => {
      const r = await runCli([command, '--help'])
      expect(r.code).toBe(0)
      expect(r.stdout).toMatch(new RegExp(`^usage: node bin/rad\\.mjs ${command} `))
      expect(r.stdout).not.toMatch(/^commands:/m)
      expect(r.stdout).toMatch(/^exit status/m)
    },
  )

  it('the commands that write say how they write', async () => {
    for (const command of ['salvage', 'subset', 'export']) {
      expect((await runCli([command, '-h'])).stdout).toMatch(/OUT may not be IN, nor a link to it/)
    }
    expect((await runCli(['cat', '-h'])).stdout).toMatch(/OUT may not be an input, nor a link to one/)
  })

  it('serve --help is serve’s usage; --help alone lists every command', async () => {
    expect((await runCli(['serve', '--help'])).stdout).toMatch(/^usage: node bin\/rad\.mjs serve FILE…/)
    const all = await runCli(['--help'])
    expect(all.stdout).toMatch(/^commands:/m)
    expect(all.stdout).toMatch(/^ {2}export IN OUT/m)
  })
})

describe.concurrent('rad export IN OUT', () => {
  const input = dir.write('in.rad', new Uint8Array(readFileSync(SALMON_V3)))

  it('writes view’s lines to a .tsv and dump’s to a .jsonl', async () => {
    const view = await runCli(['view', input])
    const dump = await runCli(['dump', input])
    const tsv = await runCli(['export', input, dir.path('all.tsv')])
    const jsonl = await runCli(['export', input, dir.path('all.jsonl')])
    expect(tsv.code, tsv.stderr).toBe(0)
    expect(jsonl.code, jsonl.stderr).toBe(0)
    expect(readFileSync(dir.path('all.tsv'), 'utf8')).toBe(view.stdout)
    expect(readFileSync(dir.path('all.jsonl'), 'utf8')).toBe(dump.stdout)
    expect(tsv.stdout).toMatch(/^wrote .*all\.tsv: 18949 records, \d+ bytes\n$/)
  })

  it('writes subset’s bytes as RAD, and --format wins over the extension', async () => {
    await runCli(['subset', input, dir.path('sub.rad'), '--records', '5-9'])
    const r = await runCli(['export', input, dir.path('sub.out'), '--records', '5-9', '--format', 'rad'])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(dir.path('sub.out')).equals(readFileSync(dir.path('sub.rad')))).toBe(true)
    expect((await runCli(['export', input, dir.path('x.rad'), '--format', 'csv'])).stderr).toBe(
      '--format needs one of rad, tsv, jsonl, parquet\n',
    )
  })
})
