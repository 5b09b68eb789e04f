import { existsSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { scanForSidecar } from '../../src/io/sidecarIndex'
import { decodeSidecar } from '../../src/rad/sidecar'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'

const tmp = tempDir()
afterAll(() => {
  tmp.cleanup()
})

describe('rad index FILE', () => {
  const bytes = new Uint8Array(readFileSync(SALMON_V3))

  it('writes FILE.rdx holding the index a scan finds', async () => {
    const path = tmp.write('map.rad', bytes)
    const res = await runCli(['index', path])
    expect(res.stderr).toBe('')
    expect(res.code).toBe(0)
    expect(res.stdout).toBe(`wrote ${path}.rdx: 4 chunks, 18,949 records, 219 bytes; integrity clean\n`)
    const written = decodeSidecar(new Uint8Array(readFileSync(`${path}.rdx`)))
    expect(written).toEqual({ ...(await scanForSidecar(new BytesSource(bytes, 'map.rad'))), dropped: [] })
    // info and validate ignore it.
    expect((await runCli(['validate', path])).stdout).toMatch(/^ok: 4 chunks, 18949 records/)
    expect((await runCli(['info', path])).code).toBe(0)
  })

  it('writes nothing for a file that is not RAD, and says why', async () => {
    const path = tmp.write('notes.rad', new TextEncoder().encode('just some text\n'.repeat(10)))
    const res = await runCli(['index', path])
    expect(res.code).toBe(1)
    expect(res.stderr).toMatch(/^error at byte 0/)
    expect(existsSync(`${path}.rdx`)).toBe(false)
  })

  it('is listed in the usage', async () => {
    expect((await runCli(['--help'])).stdout).toMatch(
      /index FILE +scan FILE once and write its sidecar index FILE\.rdx/,
    )
  })
})
