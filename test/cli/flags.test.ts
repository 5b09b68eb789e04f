/**
 * Flags are honoured or refused, never ignored (issue 40 §5): view and dump print the records
 * and chunks asked for; the commands that select nothing refuse --records and --chunks in one
 * line; a flag given twice and an unknown flag are named in one line, not answered with usage.
 */
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'

const ids = (stdout: string): number[] => [
  ...new Set(
    stdout
      .trimEnd()
      .split('\n')
      .map((l) => Number(/^ID:(\d+)/.exec(l)?.[1])),
  ),
]

describe.concurrent('record and chunk ranges', () => {
  it('view --records 3-4 prints records 3 and 4 only', async () => {
    const r = await runCli(['view', SALMON_V3, '--records', '3-4'])
    expect(r.code, r.stderr).toBe(0)
    expect(ids(r.stdout)).toEqual([3, 4])
  })

  it('dump --chunks 1-1 is dump --chunk 1; --records within --chunks keeps both', async () => {
    const a = await runCli(['dump', SALMON_V3, '--chunks', '1-1'])
    const b = await runCli(['dump', SALMON_V3, '--chunk', '1'])
    expect(a.code).toBe(0)
    expect(a.stdout).toBe(b.stdout)
    const both = await runCli(['view', SALMON_V3, '--chunks', '0-0', '--records', '10000-10002'])
    expect(both.code).toBe(0)
    expect(both.stdout).toBe('')
  })

  it('a range past the file is an error naming the file’s size', async () => {
    const r = await runCli(['view', SALMON_V3, '--records', '99999-100000'])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('error: there is no record 99999: the file has 18949 records\n')
  })

  it.each(['stats', 'validate', 'info', 'index'])('%s refuses --records and --chunks in one line', async (command) => {
    for (const flag of ['--records', '--chunks']) {
      const r = await runCli([command, SALMON_V3, flag, '1-2'])
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(`--chunks and --records apply to view, dump, subset and export, not ${command}\n`)
    }
  })
})

describe.concurrent('flags given twice, and unknown flags', () => {
  it('a flag given twice is refused, whatever its kind', async () => {
    const cases: [string[], string][] = [
      [['view', SALMON_V3, '--records', '1-2', '--records', '3-4'], '--records'],
      [['view', SALMON_V3, '--barcode', 'ACGT', '--barcode', 'TTTT'], '--barcode'],
      [['stats', SALMON_V3, '--json', '--json'], '--json'],
      [['view', SALMON_V3, '-H', '-H'], '-H'],
    ]
    for (const [args, flag] of cases) {
      const r = await runCli(args)
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(`${flag} is given twice: give it once\n`)
    }
  })

  it('an unknown flag is named in one line', async () => {
    const r = await runCli(['view', SALMON_V3, '--bogus'])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('unknown flag --bogus (node bin/rad.mjs view --help lists its flags)\n')
  })
})

describe.concurrent('the system’s errors are the user’s, not internal', () => {
  it('a path through a file (ENOTDIR) is named, not called an internal error', async () => {
    const r = await runCli(['info', `${SALMON_V3}/inner.rad`])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^cannot open .*rad-chromium-v3-small\.rad\/inner\.rad: ENOTDIR/)
  })
})
