import { existsSync, readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { scanForSidecar } from '../../src/io/sidecarIndex'
import { decodeSidecar } from '../../src/rad/sidecar/sidecar'
import { statsClaimProblem, statsFromJson, statsReportOf } from '../../src/rad/stats/section'
import { createStatsAccumulator } from '../../src/rad/stats'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V2, SALMON_V3, SALMON_V3_P3, SALMON_V3_SKETCH } from '../helpers/fixtures'
import { readRad } from '../helpers/read'

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
    expect(res.stdout).toMatch(
      new RegExp(`^wrote ${path}\\.rdx: 4 chunks, 18,949 records, [\\d,]+ bytes; integrity clean; with statistics\n$`),
    )
    const written = decodeSidecar(new Uint8Array(readFileSync(`${path}.rdx`)))
    const scanned = await scanForSidecar(new BytesSource(bytes, 'map.rad'))
    // The index part is what an index-only scan finds; the statistics come with it.
    expect({ ...written, stats: undefined }).toEqual({ ...scanned, dropped: [] })
    expect(written.stats).toBeDefined()
    // info and validate ignore it.
    expect((await runCli(['validate', path])).stdout).toMatch(/^ok: 4 chunks, 18949 records/)
    expect((await runCli(['info', path])).code).toBe(0)
  })

  it('--no-stats: the index alone, as before statistics were stored (219 bytes, no statistics section)', async () => {
    const path = tmp.write('bare.rad', bytes)
    const res = await runCli(['index', path, '--no-stats'])
    expect(res.code, res.stderr).toBe(0)
    expect(res.stdout).toBe(`wrote ${path}.rdx: 4 chunks, 18,949 records, 219 bytes; integrity clean\n`)
    const written = decodeSidecar(new Uint8Array(readFileSync(`${path}.rdx`)))
    expect(written).toEqual({ ...(await scanForSidecar(new BytesSource(bytes, 'bare.rad'))), dropped: [] })
    expect((await runCli(['stats', path, '--no-stats'])).stderr).toMatch(/--no-stats applies to index, not stats/)
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
      /index FILE \[--no-stats\] +scan FILE once and write its sidecar index FILE\.rdx/,
    )
  })
})

/**
 * The statistics section (docs/sidecar.md, "The statistics section"): what `rad stats FILE --json`
 * prints, key for key, on every salmon fixture, counted on the main thread and on worker threads,
 * and the knee curve the page's pass draws (rad/stats/section.ts, statsReportOf).
 */
describe.concurrent('rad index FILE: the statistics in the sidecar', () => {
  const cases = [SALMON_V3, SALMON_V2, SALMON_V3_P3, SALMON_V3_SKETCH].flatMap((file) =>
    ['0', '2'].map((threads) => ({ name: basename(file), file, threads })),
  )
  it.each(cases)('$name (RAD_STATS_THREADS=$threads) holds rad stats --json', async ({ file, threads }) => {
    const env = { RAD_STATS_THREADS: threads }
    const name = `${String(cases.findIndex((c) => c.file === file && c.threads === threads))}.rad`
    const path = tmp.write(name, new Uint8Array(readFileSync(file)))
    const indexed = await runCli(['index', path], 30_000, env)
    expect(indexed.code, indexed.stderr).toBe(0)
    const stats = await runCli(['stats', path, '--json'], 30_000, env)
    const report = statsFromJson(decodeSidecar(new Uint8Array(readFileSync(`${path}.rdx`))).stats)
    expect(report?.writer).toBe('rad index')
    // The sidecar keeps the figures; the summary is made from them where they are shown (docs/stats.md).
    const { summary, ...figures } = JSON.parse(stats.stdout) as { summary: unknown }
    expect(report?.json).toEqual(figures)
    expect(summary).toBeDefined()
    // The curve the page's pass draws for the same records.
    const r = await readRad(new Uint8Array(readFileSync(file)))
    const acc = createStatsAccumulator(r.prelude, r.sem)
    for (const c of r.chunks) acc.addChunk(c)
    expect(report?.curve).toEqual(statsReportOf(acc.exportState(), r.prelude, r.sem).curve)
    const sidecar = decodeSidecar(new Uint8Array(readFileSync(`${path}.rdx`)))
    const facts = { records: sidecar.records, chunks: sidecar.index.count, complete: true }
    expect(report && statsClaimProblem(report, facts)).toBeUndefined()
  })
})
