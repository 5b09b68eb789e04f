/**
 * `rad cat A.rad B.rad … OUT` and `rad compare A.rad B.rad` (issue 39 §4; docs/subsets.md,
 * "Joining files"): parts of a file joined back give its records (and, split along its chunks,
 * its bytes); files that cannot be joined, damaged inputs and an OUT that is an input are
 * refused in one line with nothing written; compressed and .sz inputs are written uncompressed.
 */
import { existsSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { differenceText, joinDifference } from '../../src/rad/prelude/joinable'
import { REFS, bulk, piscemScRnaV2, salmonScRna } from '../helpers/assays'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V2, SALMON_V3 } from '../helpers/fixtures'
import { buildRad, loadZstd, role, snappyFrame, tag } from '../helpers/radWriter'
import type { RadSpec, WValue } from '../helpers/radWriter'

await loadZstd()
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

function withCodec(spec: RadSpec, codec: number): RadSpec {
  return {
    ...spec,
    fileTags: [...(spec.fileTags ?? []), tag('chunk_codec', 'u8', role.none)],
    fileValues: { ...(spec.fileValues as Record<string, WValue>), chunk_codec: codec },
  }
}

/** dump's lines without their chunk and record numbers (which a regrouped subset changes). */
function records(dump: string): string[] {
  return dump
    .trimEnd()
    .split('\n')
    .map((l) => l.replace(/^\{"chunk":\d+,"rec":\d+,/, '{'))
}

async function joinDifferenceOf(a: Uint8Array, b: Uint8Array): Promise<string | undefined> {
  const pa = (await openRad(new BytesSource(a, 'a.rad'))).prelude
  const pb = (await openRad(new BytesSource(b, 'b.rad'))).prelude
  const d = joinDifference(pa, pb)
  return d && differenceText(d, 'a.rad', 'b.rad')
}

describe.concurrent('rad cat: parts joined back', () => {
  it('the fixture (4 chunks) split by subset --chunks 0-1 and 2-3 joins back to its records, and validates', async () => {
    const info = JSON.parse((await runCli(['info', SALMON_V3])).stdout) as { chunks: number; records: number }
    expect(info.chunks).toBe(4)
    const [p1, p2, whole] = [dir.path('part1.rad'), dir.path('part2.rad'), dir.path('joined.rad')]
    expect((await runCli(['subset', SALMON_V3, p1, '--chunks', '0-1'])).code).toBe(0)
    expect((await runCli(['subset', SALMON_V3, p2, '--chunks', '2-3'])).code).toBe(0)
    const r = await runCli(['cat', p1, p2, whole])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    expect(r.stdout).toMatch(/^wrote .*joined\.rad: \d+ chunks, 18949 records, \d+ bytes \(2 files joined\)\n$/)
    const [v, got, want] = await Promise.all([
      runCli(['validate', whole]),
      runCli(['dump', whole]),
      runCli(['dump', SALMON_V3]),
    ])
    expect(v.code, v.stderr).toBe(0)
    expect(v.stdout).toMatch(/^ok: \d+ chunks, 18949 records, 36199 alignments\n$/)
    const [g, w] = [records(got.stdout), records(want.stdout)]
    expect(g).toHaveLength(info.records)
    expect(g).toEqual(w)
  })

  it('parts kept along the chunks (--keep-chunks) join back to the very bytes, and the same dump', async () => {
    const [p1, p2, whole] = [dir.path('k1.rad'), dir.path('k2.rad'), dir.path('kjoined.rad')]
    await runCli(['subset', SALMON_V3, p1, '--chunks', '0-1', '--keep-chunks'])
    await runCli(['subset', SALMON_V3, p2, '--chunks', '2-3', '--keep-chunks'])
    const r = await runCli(['cat', p1, p2, whole])
    expect(r.code, r.stderr).toBe(0)
    expect(readFileSync(whole).equals(readFileSync(SALMON_V3))).toBe(true)
    expect((await runCli(['dump', whole])).stdout).toBe((await runCli(['dump', SALMON_V3])).stdout)
  })

  it('three inputs, num_chunks the sum; an input whose num_chunks is 0 (unknown) is counted to its end', async () => {
    const spec = salmonScRna()
    const plain = dir.write('three-plain.rad', buildRad(spec).bytes)
    const unknown = dir.write('three-unknown.rad', buildRad({ ...spec, numChunks: 0 }).bytes)
    const out = dir.path('three.rad')
    const r = await runCli(['cat', plain, unknown, plain, out])
    expect(r.code, r.stderr).toBe(0)
    const info = JSON.parse((await runCli(['info', out])).stdout) as { num_chunks: number; records: number }
    expect(info).toMatchObject({ num_chunks: 9, records: 15 })
    const one = records((await runCli(['dump', plain])).stdout)
    expect(records((await runCli(['dump', out])).stdout)).toEqual([...one, ...one, ...one])
    expect((await runCli(['validate', out])).code).toBe(0)
  })

  it('OUT - writes the joined file to standard output, the summary to standard error', async () => {
    const plain = dir.write('stdout-plain.rad', buildRad(salmonScRna()).bytes)
    const file = dir.path('stdout-file.rad')
    await runCli(['cat', plain, plain, file])
    const r = await runCli(['cat', plain, plain, '-'])
    expect(r.code, r.stderr).toBe(0)
    expect(Buffer.from(r.stdout, 'latin1').length).toBeGreaterThan(0)
    expect(r.stderr).toMatch(/^wrote -: 6 chunks, 10 records/)
    expect(readFileSync(file).length).toBe(Number(/(\d+) bytes/.exec(r.stderr)?.[1]))
  })
})

describe.concurrent('rad cat: compressed inputs are written uncompressed', () => {
  const spec = salmonScRna()
  const plain = buildRad(spec).bytes

  it.each([
    ['lz4', 1],
    ['zstd', 2],
  ] as const)('a %s-compressed file joined with its uncompressed twin gives the same records', async (name, codec) => {
    const packed = dir.write(`${name}.rad`, buildRad(withCodec(spec, codec)).bytes)
    const twin = dir.write(`${name}-twin.rad`, plain)
    const [both, twice] = [dir.path(`${name}-both.rad`), dir.path(`${name}-twice.rad`)]
    const r = await runCli(['cat', packed, twin, both])
    expect(r.code, r.stderr).toBe(0)
    await runCli(['cat', twin, twin, twice])
    const [v, got, want, info] = await Promise.all([
      runCli(['validate', both]),
      runCli(['view', both]),
      runCli(['view', twice]),
      runCli(['info', both]),
    ])
    expect(v.code, v.stderr).toBe(0)
    expect(got.stdout).toBe(want.stdout)
    const parsed = JSON.parse(info.stdout) as { codec: string; file_tag_values: Record<string, unknown> }
    expect(parsed.codec).toBe('none')
    expect(parsed.file_tag_values.chunk_codec).toBe(0)
    // The twin first: its prelude (no chunk_codec) and the compressed file's chunks decompressed: the same bytes.
    const other = dir.path(`${name}-other.rad`)
    expect((await runCli(['cat', twin, packed, other])).code).toBe(0)
    expect(readFileSync(other).equals(readFileSync(twice))).toBe(true)
  })

  it('a .sz (Snappy-framed) input is read through', async () => {
    const sz = dir.write('in.rad.sz', snappyFrame(plain, { frameSize: 64 }))
    const twin = dir.write('sz-twin.rad', plain)
    const [out, twice] = [dir.path('sz-joined.rad'), dir.path('sz-twice.rad')]
    expect((await runCli(['cat', sz, twin, out])).code).toBe(0)
    await runCli(['cat', twin, twin, twice])
    expect(readFileSync(out).equals(readFileSync(twice))).toBe(true)
  })
})

describe.concurrent('rad cat: refusals (one line, exit 1, nothing written)', () => {
  it('two runs with different file-tag values (the v3 and v2 fixtures: ulen 12 and 10)', async () => {
    const out = dir.path('not-joined.rad')
    const r = await runCli(['cat', SALMON_V3, SALMON_V2, out])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      `${SALMON_V2} cannot be joined to ${SALMON_V3}: file tag "ulen" is 12 in ${SALMON_V3}, 10 in ${SALMON_V2}\n`,
    )
    expect(existsSync(out)).toBe(false)
  })

  it('other references: the first differing name, quoted', async () => {
    const a = dir.write('refs-a.rad', buildRad(salmonScRna()).bytes)
    const renamed = REFS.map((n, i) => (i === 2 ? 'TX9' : n))
    const b = dir.write('refs-b.rad', buildRad({ ...salmonScRna(), refs: renamed }).bytes)
    const out = dir.path('refs.rad')
    const r = await runCli(['cat', a, a, b, out])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(`${b} cannot be joined to ${a}: reference 2 is "ENST0003|GeneB" in ${a}, "TX9" in ${b}\n`)
    expect(existsSync(out)).toBe(false)
  })

  it('a truncated input: named with the byte where it breaks; an OUT already there is left as it was', async () => {
    const bytes = readFileSync(SALMON_V3)
    const { source, prelude } = await openRad(new BytesSource(bytes))
    const scan = await scanChunks(source, prelude)
    const cut = 200_000
    const k = Array.from(scan.index.offset).filter((o) => o < cut).length - 1
    const offset = scan.index.offset[k] ?? -1
    const damaged = dir.write('cut.rad', bytes.subarray(0, cut))
    const out = dir.write('kept.rad', Uint8Array.of(1, 2, 3))
    const r = await runCli(['cat', SALMON_V3, damaged, out])
    expect(r.code).toBe(1)
    expect(r.stderr.split('\n')).toHaveLength(2)
    expect(r.stderr).toMatch(
      new RegExp(
        `^${damaged.replace(/[.\\/]/g, '\\$&')} cannot be joined: it is damaged: error at byte ${String(offset)} \\(chunk ${String(k)}\\): `,
      ),
    )
    expect([...readFileSync(out)]).toEqual([1, 2, 3])
  })

  it('a compressed chunk that does not decode', async () => {
    const spec = withCodec(salmonScRna(), 1)
    const broken = buildRad({
      ...spec,
      chunks: (spec.chunks ?? []).map((c, i) => (i === 1 ? { ...c, stored: [16, 0, 0, 0, 0xf0, 1, 2] } : c)),
    })
    const bad = dir.write('bad-lz4.rad', broken.bytes)
    const good = dir.write('good-lz4.rad', buildRad(spec).bytes)
    const out = dir.path('bad-joined.rad')
    const r = await runCli(['cat', good, bad, out])
    expect(r.code).toBe(1)
    const at = broken.layout.chunks[1]?.offset ?? -1
    expect(r.stderr).toMatch(
      new RegExp(`^.*bad-lz4\\.rad cannot be joined: it is damaged: error at byte \\d+ \\(chunk 1\\): [^\\n]*\\n$`),
    )
    expect(Number(/at byte (\d+)/.exec(r.stderr)?.[1])).toBeGreaterThanOrEqual(at)
    expect(existsSync(out)).toBe(false)
  })

  it('an OUT that is an input (or a link to one) is refused before anything is read', async () => {
    const a = dir.write('self.rad', buildRad(salmonScRna()).bytes)
    const before = readFileSync(a)
    const r = await runCli(['cat', a, SALMON_V3, a])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe(`refusing to write ${a}: it is the input ${a}; nothing was written\n`)
    expect(readFileSync(a).equals(before)).toBe(true)
  })

  it('one input is not enough; filters do not apply', async () => {
    const r = await runCli(['cat', SALMON_V3, dir.path('one.rad')])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^usage: node bin\/rad\.mjs cat A\.rad B\.rad … OUT/)
    const f = await runCli(['cat', SALMON_V3, SALMON_V3, dir.path('f.rad'), '--min-aln', '2'])
    expect(f).toMatchObject({ code: 1, stderr: 'filters apply to view, dump, subset and export, not cat\n' })
  })
})

describe.concurrent('joinDifference: the first field that differs', () => {
  it.each<[string, RadSpec, RadSpec, string | undefined]>([
    ['the same schema and values', salmonScRna(), salmonScRna([], 1), undefined],
    ['legacy and v2', salmonScRna(), piscemScRnaV2(false), 'the format version is 0.0 (legacy) in a.rad, 2.0 in b.rad'],
    [
      'a v2 role',
      piscemScRnaV2(false),
      { ...piscemScRnaV2(false), readTags: [tag('b', 'u32', role.barcode(0, 16)), tag('u', 'u32', role.umi(10))] },
      'the role of read tag 1 ("u") is Umi (len 12) in a.rad, Umi (len 10) in b.rad',
    ],
    [
      'a tag type',
      salmonScRna(),
      { ...salmonScRna(), fileTags: [tag('cblen', 'u16'), tag('ulen', 'u32')] },
      'the type of file tag 1 ("ulen") is u16 in a.rad, u32 in b.rad',
    ],
    [
      'an array file tag',
      bulk(true),
      { ...bulk(true), fileValues: { known_rad_type: 'bulk_with_pos', ref_lengths: [1000, 2000, 3001, 4, 5, 6] } },
      'element 2 of file tag "ref_lengths" is 3000 in a.rad, 3001 in b.rad',
    ],
    ['paired', bulk(true), { ...bulk(true), paired: false }, 'paired is 1 in a.rad, 0 in b.rad'],
    [
      'the number of references',
      salmonScRna(),
      { ...salmonScRna(), refs: REFS.slice(0, 5) },
      'the number of references is 6 in a.rad, 5 in b.rad',
    ],
    ['chunk_codec is left out', salmonScRna(), withCodec(salmonScRna(), 2), undefined],
  ])('%s', async (_name, a, b, want) => {
    expect(await joinDifferenceOf(buildRad(a).bytes, buildRad(b).bytes)).toBe(want)
  })
})

interface CompareJson {
  joinable: boolean
  difference: string | null
  a: Record<string, unknown>
  b: Record<string, unknown>
}

describe.concurrent('rad compare A B', () => {
  it('two parts of one run: can be joined; their figures side by side', async () => {
    const [p1, p2] = [dir.path('cmp1.rad'), dir.path('cmp2.rad')]
    await runCli(['subset', SALMON_V3, p1, '--chunks', '0-1'])
    await runCli(['subset', SALMON_V3, p2, '--chunks', '2-3'])
    const [text, json] = await Promise.all([runCli(['compare', p1, p2]), runCli(['compare', p1, p2, '--json'])])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout.split('\n')[0]).toBe(`${p1} and ${p2} can be joined`)
    expect(text.stdout).toMatch(/^records +10,002 +8,947 +−1,055$/m)
    for (const row of ['chunks', 'distinct barcodes', 'knee cells', 'barcode–UMI pairs']) {
      expect(text.stdout).toMatch(new RegExp(`^${row} `, 'm'))
    }
    expect(json.code, json.stderr).toBe(0)
    const c = JSON.parse(json.stdout) as CompareJson
    expect(c).toMatchObject({ joinable: true, difference: null, a: { file: p1, records: 10002 }, b: { records: 8947 } })
    const stats = JSON.parse((await runCli(['stats', p1, '--json'])).stdout) as {
      barcodes: { distinct: number }
      knee: number
      umis: { distinct_pairs: number }
    }
    expect(c.a).toMatchObject({
      barcodes: stats.barcodes.distinct,
      knee_cells: stats.knee,
      barcode_umi_pairs: stats.umis.distinct_pairs,
    })
  })

  it('two runs that cannot be joined: the difference, and still exit 0', async () => {
    const [text, json] = await Promise.all([
      runCli(['compare', SALMON_V3, SALMON_V2]),
      runCli(['compare', SALMON_V3, SALMON_V2, '--json']),
    ])
    const difference = `file tag "ulen" is 12 in ${SALMON_V3}, 10 in ${SALMON_V2}`
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout.split('\n')[0]).toBe(`${SALMON_V3} and ${SALMON_V2} cannot be joined: ${difference}`)
    expect(text.stdout).toMatch(/^records +18,949 +18,919 +−30$/m)
    expect(json.code).toBe(0)
    const c = JSON.parse(json.stdout) as CompareJson
    expect(c).toMatchObject({ joinable: false, difference, a: { records: 18949 }, b: { records: 18919 } })
    expect(Object.keys(c.a)).toEqual([
      'file',
      'chunks',
      'records',
      'barcodes',
      'knee_cells',
      'barcode_umi_pairs',
      'exact',
    ])
  })

  it('exit 1 only when a file cannot be read; exactly two files', async () => {
    const notRad = dir.write('text.rad', new TextEncoder().encode('hello\n'))
    const r = await runCli(['compare', SALMON_V3, notRad])
    expect(r.code).toBe(1)
    expect(r.stderr.split('\n')).toHaveLength(2)
    expect(r.stderr).toMatch(/^.*text\.rad: error/)
    expect((await runCli(['compare', SALMON_V3])).code).toBe(1)
    expect((await runCli(['compare', SALMON_V3, SALMON_V3, SALMON_V2])).code).toBe(1)
    expect((await runCli(['compare', SALMON_V3, SALMON_V2, '--tsv'])).stderr).toBe(
      '--tsv applies to stats, not compare\n',
    )
  })
})
