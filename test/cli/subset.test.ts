/**
 * `node bin/rad.mjs subset IN OUT [--chunks A-B] [--records A-B] [--keep-chunks]`:
 * writes what writeSubset writes, and `rad validate OUT` accepts it (exit 0).
 */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { writeSubset } from '../../src/io/exportSelection'
import { openRad } from '../../src/io/openRad'
import type { RecordSelection } from '../../src/io/selectedRecords'
import { salmonScRna } from '../helpers/assays'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { MemorySink } from '../helpers/memorySink'
import { buildRad, loadZstd, tag } from '../helpers/radWriter'

await loadZstd()
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

async function expected(file: Uint8Array, sel: RecordSelection, keepSourceChunks = false): Promise<Uint8Array> {
  const { source, prelude } = await openRad(new BytesSource(file, 'in.rad'))
  const sink = new MemorySink()
  await writeSubset(source, prelude, sel, sink, { keepSourceChunks })
  return sink.bytes()
}

const RANGES: { flags: string[]; sel: RecordSelection }[] = [
  { flags: ['--chunks', '1-2'], sel: { chunks: [1, 2] } },
  { flags: ['--records', '4990-5020'], sel: { records: [4990, 5020] } },
  { flags: ['--chunks', '0-1', '--records', '17'], sel: { chunks: [0, 1], records: [17, 17] } },
]

describe.concurrent('rad subset IN OUT', () => {
  it.each(RANGES)('salmon fixture, $flags', async ({ flags, sel }) => {
    const output = dir.path(`out-${flags.join('_')}.rad`)
    const r = await runCli(['subset', SALMON_V3, output, ...flags])
    expect(r.code, r.stderr).toBe(0)
    const out = new Uint8Array(readFileSync(output))
    const want = await expected(new Uint8Array(readFileSync(SALMON_V3)), sel)
    expect(Buffer.from(out).equals(Buffer.from(want))).toBe(true)
    expect(r.stdout).toMatch(new RegExp(`^wrote .*: \\d+ chunks?, \\d+ records?, ${String(out.length)} bytes\\n$`))
    const v = await runCli(['validate', output])
    expect(v.code, v.stderr).toBe(0)
  })

  it('filters (the flags of view and dump) with a record range: the records view --filter prints, in order', async () => {
    const output = dir.path('filtered.rad')
    const filter = ['--min-aln', '3', '--orientation', 'rc']
    const r = await runCli(['subset', SALMON_V3, output, ...filter, '--records', '100-15000'])
    expect(r.code, r.stderr).toBe(0)
    const [want, got, v] = await Promise.all([
      runCli(['view', SALMON_V3, ...filter]),
      runCli(['view', output]),
      runCli(['validate', output]),
    ])
    expect(v.code, v.stderr).toBe(0)
    /** The lines without their ID field; only IDs in [from, to] when given. */
    const lines = (text: string, from = 0, to = Infinity): string[] =>
      text
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t'))
        .filter(([id]) => Number(id?.slice(3)) >= from && Number(id?.slice(3)) <= to)
        .map((fields) => fields.slice(1).join('\t'))
    const expected = lines(want.stdout, 100, 15000)
    expect(expected.length).toBeGreaterThan(100)
    expect(lines(got.stdout)).toEqual(expected)
  })

  it('an lz4 file with --keep-chunks: one chunk per source chunk, uncompressed (chunk_codec 0)', async () => {
    const spec = salmonScRna(undefined, 2)
    const input = dir.write(
      'lz4.rad',
      buildRad({
        ...spec,
        fileTags: [...(spec.fileTags ?? []), tag('chunk_codec', 'u8')],
        fileValues: { cblen: 16, ulen: 12, chunk_codec: 1 },
      }).bytes,
    )
    const output = dir.path('lz4-out.rad')
    const r = await runCli(['subset', input, output, '--keep-chunks', '--records', '1-4'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/: 3 chunks, 4 records, /)
    const info = await runCli(['info', output])
    expect(info.code, info.stderr).toBe(0)
    expect(JSON.parse(info.stdout)).toMatchObject({
      codec: 'none',
      chunks: 3,
      num_chunks: 3,
      records: 4,
      integrity: 'clean',
    })
  })

  it.each([{ flags: ['--chunks', '5-2'] }, { flags: ['--records', 'x'] }, { flags: ['--chunks'] }])(
    'a bad range $flags is exit 1, nothing written',
    async ({ flags }) => {
      const output = dir.path(`never-${flags.join('')}.rad`)
      const r = await runCli(['subset', SALMON_V3, output, ...flags])
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/needs a range A-B/)
      expect(() => readFileSync(output)).toThrow()
    },
  )
})
