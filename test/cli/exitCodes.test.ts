/**
 * `validate`'s exit status, as `gzip -t` has it (docs/integrity.md): 0 only for a
 * clean file, 1 for errors, 2 for a file that reads but deviates from what it
 * declares. Notes about a well-formed file keep 0. `info` says the same.
 */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { buildRad, snappyFrame } from '../helpers/radWriter'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { atacPiscemCpp } from '../helpers/assays'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

const real = new Uint8Array(readFileSync(SALMON_V3))
const OK = 'ok: 4 chunks, 18949 records, 36199 alignments\n'

function withTrailing(bytes: Uint8Array, extra: number): Uint8Array {
  const out = new Uint8Array(bytes.length + extra)
  out.set(bytes)
  out.fill(0x2a, bytes.length)
  return out
}

describe.concurrent('rad validate: 0 clean, 1 errors, 2 warnings', () => {
  it('0: a clean file, nothing on stderr', async () => {
    const r = await runCli(['validate', SALMON_V3])
    expect(r).toEqual({ code: 0, stdout: OK, stderr: '' })
  })

  it('0: notes about a well-formed file (an unwrapped .sz stream) are printed as notes', async () => {
    const r = await runCli(['validate', dir.write('ok.rad.sz', snappyFrame(real))])
    expect(r.code).toBe(0)
    expect(r.stdout).toBe(OK)
    expect(r.stderr).toMatch(/^note: whole-file Snappy stream/)
    expect(r.stderr).not.toMatch(/warning/)
  })

  it('0: payload-only nbytes (an older writer, §4.2) is a note', async () => {
    const r = await runCli(['validate', dir.write('atac.rad', buildRad(atacPiscemCpp('payload-only')).bytes)])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^ok: /)
    expect(r.stderr).toMatch(/^note: chunk nbytes excludes the 8-byte chunk header/)
  })

  it('2: 13 stray bytes after the declared chunks: readable, with warnings, and `validate f && next` stops', async () => {
    const path = dir.write('trailing.rad', withTrailing(real, 13))
    const r = await runCli(['validate', path])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe(`readable, with warnings: ${OK.slice('ok: '.length)}`)
    expect(r.stderr).toBe(
      `warning at byte ${String(real.length)}: 13 trailing bytes after the 4 chunks that num_chunks declares (from byte ${real.length.toLocaleString('en-US')}); they are ignored\n`,
    )
    const info = await runCli(['info', path])
    expect(info.code).toBe(2)
    const json = JSON.parse(info.stdout) as { integrity: string; issues: { kind: string; severity: string }[] }
    expect(json.integrity).toBe('warnings')
    expect(json.issues).toMatchObject([{ kind: 'trailing-bytes', severity: 'warning' }])
  })

  it('1: errors (cut inside a chunk), with no verdict on stdout', async () => {
    const r = await runCli(['validate', dir.write('cut.rad', real.subarray(0, real.length - 100))])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^error at byte \d+ \(chunk 3\): file ends inside chunk 3/)
  })
})
