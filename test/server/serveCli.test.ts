import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SALMON_V2, SALMON_V3 } from '../helpers/fixtures'
import { ROOT, runCli, tempDir } from '../helpers/cli'

/** `node bin/rad.mjs serve` as a user runs it: what it prints, what its links open, how it stops. */
const CSP = "default-src 'self'; connect-src 'self'"
let tmp: ReturnType<typeof tempDir>
let dist: string

beforeAll(() => {
  tmp = tempDir()
  dist = tmp.path('dist')
  mkdirSync(dist)
  writeFileSync(join(dist, 'index.html'), `<meta http-equiv="Content-Security-Policy" content="${CSP}" />`)
})

afterAll(() => {
  tmp.cleanup()
})

interface Serving {
  child: ChildProcessWithoutNullStreams
  stdout: string
  exit: Promise<number | null>
}

/** Starts `rad serve`, resolving once it has printed its ssh line. */
function serve(args: string[]): Promise<Serving> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'rad.mjs'), 'serve', ...args], { cwd: ROOT })
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code)
    }),
  )
  return new Promise((resolve, reject) => {
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString()
      if (stdout.includes('ssh -L')) resolve({ child, stdout, exit })
    })
    void exit.then((code) => {
      reject(new Error(`rad serve exited (${code}) before it was ready: ${stderr}`))
    })
  })
}

describe('rad serve (the command)', () => {
  it('prints one ready link per file and the ssh -L line; the links open the viewer and the file', async () => {
    const s = await serve([SALMON_V3, SALMON_V2, '--port', '0', '--dist', dist])
    try {
      const links = [...s.stdout.matchAll(/http:\/\/127\.0\.0\.1:(\d+)\/\?url=(\/f\/[\w-]+\/[^\s]+)/g)]
      expect(links.map((m) => m[2]?.split('/').pop())).toEqual([
        'rad-chromium-v3-small.rad',
        'rad-chromium-v2-small.rad',
      ])
      const port = Number(links[0]?.[1])
      expect(s.stdout).toContain(`ssh -L ${port}:127.0.0.1:${port} ${hostname()}`)

      const page = await fetch(links[0]?.[0] ?? '')
      expect(page.status).toBe(200)
      expect(page.headers.get('content-security-policy')).toContain(CSP)
      const file = await fetch(`http://127.0.0.1:${port}${links[1]?.[2] ?? ''}`, { headers: { Range: 'bytes=4-1003' } })
      expect(file.status).toBe(206)
      expect(Buffer.from(await file.arrayBuffer()).equals(readFileSync(SALMON_V2).subarray(4, 1004))).toBe(true)
    } finally {
      s.child.kill('SIGINT')
    }
    expect(await s.exit).toBe(0)
  })

  it('stops cleanly on SIGINT and on SIGTERM, with an open connection, exit 0', async () => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      const s = await serve([SALMON_V3, '--dist', dist])
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(s.stdout)?.[1])
      // A keep-alive connection left open must not hold the process.
      await fetch(`http://127.0.0.1:${port}/`, { headers: { Connection: 'keep-alive' } })
      s.child.kill(signal)
      expect(await s.exit, signal).toBe(0)
    }
  })

  it('says which port is busy and how to choose another', async () => {
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as AddressInfo).port
    try {
      const r = await runCli(['serve', SALMON_V3, '--port', String(port), '--dist', dist])
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(
        `port ${port} is already in use on 127.0.0.1: choose another with --port N, or --port 0 for any free port\n`,
      )
    } finally {
      blocker.close()
    }
  })

  it('says what to run when the viewer is not built', async () => {
    const r = await runCli(['serve', SALMON_V3, '--dist', tmp.path('nowhere')])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('the viewer is not built')
    expect(r.stderr).toContain('`npm run build`')
  })

  it('refuses a missing file, a folder, a bad port and no file at all, exit 1', async () => {
    const missing = await runCli(['serve', tmp.path('missing.rad'), '--dist', dist])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^cannot serve .*missing\.rad: ENOENT/)
    const folder = await runCli(['serve', tmp.path('dist'), '--dist', dist])
    expect(folder.stderr).toContain('not a regular file')
    const port = await runCli(['serve', SALMON_V3, '--port', '70000'])
    expect(port.stderr).toBe('--port needs a number 0–65535\n')
    const none = await runCli(['serve'])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('usage: node bin/rad.mjs serve FILE…')
  })
})
