/**
 * No command writes over its input, and none leaves half a file under OUT's
 * name (src/cli/safeOutput.ts; docs/integrity.md "What the commands write").
 */
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process'
import { linkSync, lstatSync, openSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT, runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { repeatedFixture } from '../helpers/repeatedFixture'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

const execFileAsync = promisify(execFile)

const original = new Uint8Array(readFileSync(SALMON_V3))

function sameBytes(path: string, bytes: Uint8Array): boolean {
  return Buffer.from(readFileSync(path)).equals(Buffer.from(bytes))
}

/** The command line of each writing command with IN and OUT filled in. */
const WRITERS: Record<string, (input: string, output: string) => string[]> = {
  salvage: (i, o) => ['salvage', i, o],
  subset: (i, o) => ['subset', i, o, '--records', '0-99'],
  export: (i, o) => ['export', i, o, '--format', 'tsv'],
}

describe.concurrent('an output that is an input is refused, and the input is left as it was', () => {
  const cases = Object.keys(WRITERS).flatMap((command) =>
    (['the same path', 'a symbolic link to IN', 'a hard link to IN', 'IN through a linked folder'] as const).map(
      (how) => ({ command, how }),
    ),
  )

  it.each(cases)('$command with OUT $how', async ({ command, how }) => {
    const name = `${command}-${how.replace(/\W+/g, '-')}`
    const input = dir.write(`${name}.rad`, original)
    let output = input
    if (how === 'a symbolic link to IN') symlinkSync(input, (output = dir.path(`${name}-sym.rad`)))
    if (how === 'a hard link to IN') linkSync(input, (output = dir.path(`${name}-hard.rad`)))
    if (how === 'IN through a linked folder') {
      symlinkSync(dir.path(''), dir.path(`${name}-folder`))
      output = join(dir.path(`${name}-folder`), `${name}.rad`)
    }
    const r = await runCli((WRITERS[command] ?? (() => []))(input, output))
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      `refusing to write ${output}: it is the input ${input}` +
        `${how === 'the same path' ? '' : how === 'a hard link to IN' ? ' (a hard link to it)' : ' (a link to it)'}; nothing was written\n`,
    )
    expect(sameBytes(input, original), 'IN is byte-identical').toBe(true)
  })

  it('index, when FILE.rdx is a hard or symbolic link to FILE', async () => {
    for (const link of [linkSync, symlinkSync]) {
      const input = dir.write(`index-${link.name}.rad`, original)
      link(input, `${input}.rdx`)
      const r = await runCli(['index', input])
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/^refusing to write .*\.rad\.rdx: it is the input .*\.rad \(a (hard )?link to it\)/)
      expect(sameBytes(input, original)).toBe(true)
    }
  })
})

describe('outputs are renamed into place when complete', () => {
  it('index replaces a FILE.rdx that links elsewhere, never writing through it', async () => {
    const input = dir.write('linked-rdx.rad', original)
    const elsewhere = dir.write('elsewhere.txt', new TextEncoder().encode('keep me\n'))
    symlinkSync(elsewhere, `${input}.rdx`)
    const r = await runCli(['index', input])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(elsewhere, 'utf8')).toBe('keep me\n')
    expect(statSync(`${input}.rdx`).size).toBeGreaterThan(100)
  })

  it('salvage and subset replace a symbolic link at OUT instead of writing through it', async () => {
    const input = dir.write('replace-link.rad', original)
    for (const command of ['salvage', 'subset'] as const) {
      const elsewhere = dir.write(`${command}-target.txt`, new TextEncoder().encode('keep me\n'))
      const output = dir.path(`${command}-link-out.rad`)
      symlinkSync(elsewhere, output)
      const r = await runCli((WRITERS[command] ?? (() => []))(input, output))
      expect(r.code, r.stderr).toBe(0)
      expect(readFileSync(elsewhere, 'utf8')).toBe('keep me\n')
      expect((await runCli(['validate', output])).code).toBe(0)
    }
  })

  it('a failed run leaves no temporary file and no OUT', async () => {
    const input = dir.write('not-rad.rad', new TextEncoder().encode('plain text, not RAD\n'.repeat(20)))
    const output = dir.path('failed-out.rad')
    const r = await runCli(['subset', input, output])
    expect(r.code).toBe(1)
    expect(readdirSync(dir.path('')).filter((f) => f.includes('failed-out'))).toEqual([])
  })

  // A subset of a ~120 MB file takes seconds: long enough to stop it half-way.
  const big = repeatedFixture(320)
  const bigInput = dir.write('big.rad', big)

  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'a subset stopped by %s half-way leaves the previous OUT byte-identical',
    async (signal) => {
      const output = dir.path(`previous-${signal}.rad`)
      const previous = new TextEncoder().encode(`the previous OUT, before ${signal}\n`)
      writeFileSync(output, previous)
      const child = spawn(
        process.execPath,
        [join(import.meta.dirname, '..', '..', 'bin', 'rad.mjs'), 'subset', bigInput, output],
        {
          stdio: 'ignore',
        },
      )
      const exited = new Promise<void>((resolve) => {
        child.on('exit', () => {
          resolve()
        })
      })
      const partial = await waitForPartial(`previous-${signal}.rad`, 1 << 20)
      expect(partial, 'the subset writes to a temporary file beside OUT').toBeDefined()
      child.kill(signal)
      await exited
      expect(sameBytes(output, previous), 'OUT is as it was').toBe(true)
      const left = readdirSync(dir.path('')).filter((f) => f.includes(`previous-${signal}.rad.partial`))
      // SIGKILL cannot be caught: its temporary file stays (hidden, named after OUT); SIGTERM removes it.
      expect(left.length).toBe(signal === 'SIGKILL' ? 1 : 0)
    },
  )
})

/** Polls for the temporary file of `name` until it holds `bytes` bytes; its name, or undefined after 20 s. */
async function waitForPartial(name: string, bytes: number): Promise<string | undefined> {
  for (let waited = 0; waited < 20_000; waited += 10) {
    const partial = readdirSync(dir.path('')).find((f) => f.startsWith(`.${name}.partial-`))
    if (partial !== undefined && statSync(dir.path(partial)).size >= bytes) return partial
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  return undefined
}

/** Runs the CLI with a FIFO as OUT and a reader on it; what the reader got, and whether OUT is still a FIFO. */
async function throughFifo(
  args: (fifo: string) => string[],
  name: string,
): Promise<{ got: Buffer; code: number; stillFifo: boolean; stdout: string }> {
  const fifo = dir.path(`${name}.fifo`)
  execFileSync('mkfifo', [fifo])
  const caught = dir.path(`${name}.caught`)
  const reader = spawn('sh', ['-c', 'cat "$1" > "$2"', 'sh', fifo, caught], { stdio: 'ignore' })
  const readerDone = new Promise<void>((resolve) => {
    reader.on('exit', () => {
      resolve()
    })
  })
  const r = await runCli(args(fifo))
  const stillFifo = lstatSync(fifo).isFIFO()
  // A CLI that never opened the FIFO leaves the reader waiting for a writer.
  if (!stillFifo || r.code !== 0) reader.kill()
  await readerDone
  return { got: readFileSync(caught), code: r.code, stillFifo, stdout: r.stdout }
}

describe('an output that is a pipe or a device is written into, never replaced', () => {
  const input = dir.write('into-stream.rad', original)
  const formats = {
    'subset (rad)': (o: string) => ['subset', input, o, '--records', '0-99'],
    'export rad': (o: string) => ['export', input, o, '--format', 'rad'],
    'export tsv': (o: string) => ['export', input, o, '--format', 'tsv'],
    'export jsonl': (o: string) => ['export', input, o, '--format', 'jsonl'],
    'export parquet': (o: string) => ['export', input, o, '--format', 'parquet'],
    salvage: (o: string) => ['salvage', input, o],
  }

  it.each(Object.entries(formats))('%s into a FIFO: the reader gets what a file would hold', async (label, args) => {
    const name = label.replace(/\W+/g, '-')
    const file = dir.path(`${name}.file`)
    expect((await runCli(args(file))).code).toBe(0)
    const r = await throughFifo(args, name)
    expect(r.stillFifo, 'OUT stays a FIFO').toBe(true)
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^wrote .*\.fifo: /)
    expect(r.got.equals(readFileSync(file)), 'the same bytes as a file').toBe(true)
  })

  it('index into a FILE.rdx that is a FIFO', async () => {
    const indexed = dir.write('fifo-index.rad', original)
    const plain = dir.write('plain-index.rad', original)
    expect((await runCli(['index', plain])).code).toBe(0)
    execFileSync('mkfifo', [`${indexed}.rdx`])
    const reader = execFileAsync('cat', [`${indexed}.rdx`], { encoding: 'buffer', maxBuffer: 64 << 20 })
    const r = await runCli(['index', indexed])
    expect(r.code, r.stderr).toBe(0)
    expect(lstatSync(`${indexed}.rdx`).isFIFO()).toBe(true)
    expect((await reader).stdout.length).toBe(statSync(`${plain}.rdx`).size)
  })

  it('- writes to standard output, and the summary goes to standard error', async () => {
    const file = dir.path('stdout-compare.tsv')
    expect((await runCli(['export', input, file, '--format', 'tsv'])).code).toBe(0)
    const r = await runCli(['export', input, '-', '--format', 'tsv'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toBe(readFileSync(file, 'utf8'))
    expect(r.stderr).toMatch(/^wrote -: 18,?949 records/)
  })

  it('- is refused when standard output is the input', () => {
    const target = dir.write('stdout-is-input.rad', original)
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rad.mjs'), 'export', target, '-', '--format', 'tsv'], {
      stdio: ['ignore', openSync(target, 'a'), 'pipe'],
      encoding: 'utf8',
    })
    expect(r.status).toBe(1)
    expect(r.stderr).toMatch(/^refusing to write -: it is the input .*stdout-is-input\.rad/)
    expect(sameBytes(target, original)).toBe(true)
  })
})

it('an OUT that cannot be written is named, not the input', async () => {
  const input = dir.write('names-out.rad', original)
  const output = dir.path('no-such-folder/out.tsv')
  const r = await runCli(['export', input, output])
  expect(r.code).toBe(1)
  expect(r.stderr).toMatch(new RegExp(`^cannot write ${output.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`))
})
