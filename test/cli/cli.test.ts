/** The command-line reader, run as users run it: `node bin/rad.mjs info|dump|view|validate FILE`. */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { arrayTag, buildRad, loadZstd, role, snappyFrame, tag } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { REFS, atacPiscemCpp, piscemScRnaV2, salmonScRna } from '../helpers/assays'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})
beforeAll(loadZstd)

const MAX_U64 = (1n << 64n) - 1n

/** One record per value class: exact 64/128-bit values in dump. */
const wide: RadSpec = {
  refs: ['r0'],
  fileTags: [tag('big', 'u64'), tag('small', 'u64'), tag('neg', 'i128'), arrayTag('arr', 'u8', 'u64')],
  readTags: [tag('b', 'u64'), tag('s', 'i64'), tag('flag', 'bool'), tag('name', 'string')],
  alnTags: [tag('x', 'u128'), tag('f', 'f32')],
  fileValues: [MAX_U64, 2n ** 53n - 1n, -(2n ** 100n), [1n, 2n ** 53n]],
  chunks: [
    {
      records: [
        { read: [2n ** 53n, -5n, 2, 'first'], alns: [[2n ** 64n + 1n, 0.5]] },
        { read: [2n ** 53n - 1n, -(2n ** 63n), 0, ''], alns: [] },
      ],
    },
    {
      records: [
        {
          read: [0n, 0n, 1, 'third'],
          alns: [
            [0n, -1],
            [MAX_U64, 2],
          ],
        },
      ],
    },
  ],
}

describe.concurrent('rad info', () => {
  it('prints the salmon fixture summary as JSON', async () => {
    const r = await runCli(['info', SALMON_V3])
    expect(r.code).toBe(0)
    const info = JSON.parse(r.stdout) as Record<string, unknown>
    expect(info).toMatchObject({
      file: 'rad-chromium-v3-small.rad',
      version: [0, 0],
      container: 'none',
      paired: false,
      ref_count: 244,
      num_chunks: 4,
      file_tags: [
        { name: 'cblen', type: 'u16', role: 'none' },
        { name: 'ulen', type: 'u16', role: 'none' },
      ],
      read_tags: [
        { name: 'b', type: 'u32', role: 'none' },
        { name: 'u', type: 'u32', role: 'none' },
      ],
      aln_tags: [{ name: 'compressed_ori_refid', type: 'u32', role: 'none' }],
      file_tag_values: { cblen: 16, ulen: 12 },
      codec: 'none',
      nbytes_convention: 'header-inclusive',
      chunks: 4,
      records: 18949,
      alignments: 36199,
      assay: 'scRNA',
      warnings: [],
    })
    expect(info.error).toBeUndefined()
  })

  it('reports payload-only nbytes (nbytes_convention) with a warning', async () => {
    const file = dir.write('atac-payload-only.rad', buildRad(atacPiscemCpp('payload-only')).bytes)
    const r = await runCli(['info', file])
    expect(r.code).toBe(0)
    const info = JSON.parse(r.stdout) as { nbytes_convention: string; warnings: string[]; records: number }
    expect(info.nbytes_convention).toBe('payload-only')
    expect(info.records).toBe(3)
    expect(info.warnings.join()).toMatch(/payload-only/)
  })

  it('shows v2 roles, role payloads and the version', async () => {
    const file = dir.write('v2.rad', buildRad({ ...piscemScRnaV2(true), v2: { minor: 1, ext: [7, 7] } }).bytes)
    const info = JSON.parse((await runCli(['info', file])).stdout) as Record<string, unknown>
    expect(info).toMatchObject({
      version: [2, 1],
      read_tags: [
        { name: 'b', type: 'u32', role: 'barcode', role_level: 0, role_len: 16 },
        { name: 'u', type: 'u32', role: 'umi', role_len: 12 },
      ],
      aln_tags: [
        { name: 'compressed_ori_refid', role: 'orientation' },
        { name: 'pos', role: 'mappingPosition' },
      ],
      file_tag_values: { known_rad_type: 'sc_rna_pos', rlen: 90 },
    })
  })

  it('prints 64-bit file tag values above 2^53 as decimal strings', async () => {
    const file = dir.write('wide-info.rad', buildRad(wide).bytes)
    const info = JSON.parse((await runCli(['info', file])).stdout) as { file_tag_values: unknown }
    expect(info.file_tag_values).toEqual({
      big: '18446744073709551615',
      small: 9007199254740991,
      neg: '-1267650600228229401496703205376',
      arr: [1, '9007199254740992'],
    })
  })
})

describe.concurrent('rad dump', () => {
  it('prints one JSON object per record; integers above 2^53 − 1 as exact decimal strings', async () => {
    const file = dir.write('wide.rad', buildRad(wide).bytes)
    const r = await runCli(['dump', file])
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([
      {
        chunk: 0,
        rec: 0,
        naln: 1,
        read: { b: '9007199254740992', s: -5, flag: true, name: 'first' },
        alns: [{ x: '18446744073709551617', f: 0.5 }],
      },
      {
        chunk: 0,
        rec: 1,
        naln: 0,
        read: { b: 9007199254740991, s: '-9223372036854775808', flag: false, name: '' },
        alns: [],
      },
      {
        chunk: 1,
        rec: 0,
        naln: 2,
        read: { b: 0, s: 0, flag: true, name: 'third' },
        alns: [
          { x: 0, f: -1 },
          { x: '18446744073709551615', f: 2 },
        ],
      },
    ])
  })

  it('--chunk N prints only that chunk; a chunk that does not exist is an error', async () => {
    const file = dir.write('wide-chunk.rad', buildRad(wide).bytes)
    const one = await runCli(['dump', file, '--chunk', '1'])
    expect(one.code).toBe(0)
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(1)
    expect(JSON.parse(one.stdout)).toMatchObject({ chunk: 1, rec: 0, naln: 2 })
    const none = await runCli(['dump', file, '--chunk', '9'])
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(/there is no chunk 9: the file has 2 chunks/)
  })

  it('a Snappy-framed .sz file dumps exactly like the plain file', async () => {
    const plain = buildRad({ ...salmonScRna(), numChunks: 0 }).bytes
    const [a, b] = await Promise.all([
      runCli(['dump', dir.write('plain.rad', plain)]),
      runCli(['dump', dir.write('plain.rad.sz', snappyFrame(plain, { frameSize: 64 }))]),
    ])
    expect(a.code).toBe(0)
    expect(b.code).toBe(0)
    expect(b.stdout).toBe(a.stdout)
    expect(a.stdout.trimEnd().split('\n')).toHaveLength(5)
  })
})

describe.concurrent('rad view', () => {
  it('-H prints the reference list, then alevin-fry view lines', async () => {
    const file = dir.write('sc.rad', buildRad(salmonScRna()).bytes)
    const r = await runCli(['view', file, '-H'])
    expect(r.code).toBe(0)
    const lines = r.stdout.trimEnd().split('\n')
    expect(lines.slice(0, REFS.length)).toEqual(REFS.map((n, i) => `${i}:${n}`))
    expect(lines[REFS.length]).toBe(`ID:0\tHI:1\tNH:2\tCB:ACGTACGTACGTACGT\tUMI:TTTTGGGGCCCC\tDIR:true\t${REFS[0]}`)
    expect(lines).toHaveLength(REFS.length + 8)
  })

  it('of the salmon fixture starts as alevin-fry view would', async () => {
    const r = await runCli(['view', SALMON_V3])
    expect(r.code).toBe(0)
    const lines = r.stdout.split('\n')
    expect(lines[0]).toBe('ID:0\tHI:1\tNH:3\tCB:CTACGACAGACCAAGT\tUMI:GCTTAATTCCAT\tDIR:true\tTX00104-1|GENE00104')
    expect(lines.filter((l) => l.length > 0)).toHaveLength(36199)
  })
})

describe.concurrent('rad validate', () => {
  it('accepts the salmon fixture', async () => {
    const r = await runCli(['validate', SALMON_V3])
    expect(r).toMatchObject({ code: 0, stdout: 'ok: 4 chunks, 18949 records, 36199 alignments\n' })
  })

  it('accepts lz4- and zstd-compressed files', async () => {
    const spec = (codec: number): RadSpec => ({
      ...salmonScRna(),
      fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16'), tag('chunk_codec', 'u8', role.none)],
      fileValues: { cblen: 16, ulen: 12, chunk_codec: codec },
    })
    const results = await Promise.all([
      runCli(['validate', dir.write('lz4.rad', buildRad(spec(1)).bytes)]),
      runCli(['validate', dir.write('zstd.rad', buildRad(spec(2)).bytes)]),
    ])
    for (const r of results) expect(r).toMatchObject({ code: 0, stdout: 'ok: 3 chunks, 5 records, 8 alignments\n' })
  })

  it('rejects a truncated copy of the fixture: exit 1, "error at byte OFFSET (chunk K): …"', async () => {
    const bytes = readFileSync(SALMON_V3)
    const { source, prelude } = await openRad(new BytesSource(bytes))
    const scan = await scanChunks(source, prelude)
    const cut = 200_000
    const k = Array.from(scan.index.offset).filter((o) => o < cut).length - 1
    const offset = scan.index.offset[k] ?? -1
    const r = await runCli(['validate', dir.write('cut.rad', bytes.subarray(0, cut))])
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(new RegExp(`^error at byte ${offset} \\(chunk ${k}\\): file ends inside chunk ${k}`))
  })

  it('rejects a file whose records overrun their chunk, naming byte and chunk', async () => {
    const spec = salmonScRna()
    const chunks = [...(spec.chunks ?? [])]
    chunks[1] = { records: [{ read: [1, 2], alns: [[0]], naln: 50 }] }
    const { bytes, layout } = buildRad({ ...spec, chunks })
    const r = await runCli(['validate', dir.write('overrun.rad', bytes)])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(new RegExp(`^error at byte ${layout.chunks[1]?.payloadOffset} \\(chunk 1\\): `))
  })

  it('rejects a gzip file with a hint (NOT_RAD at byte 0)', async () => {
    const r = await runCli(['validate', dir.write('reads.fastq.gz', Uint8Array.of(0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3))])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error at byte 0: not a RAD file: this is a gzip stream/)
  })

  it('rejects an empty file as truncated', async () => {
    const r = await runCli(['validate', dir.write('empty.rad', new Uint8Array(0))])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^error at byte 0: the file is empty/)
  })

  it('exits 1 for a missing file and for bad usage (2 means "readable, with warnings")', async () => {
    const [missing, usage] = await Promise.all([runCli(['validate', dir.path('nope.rad')]), runCli(['validate'])])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/^cannot open/)
    expect(usage.code).toBe(1)
    expect(usage.stderr).toMatch(/^usage:/)
  })

  it('--help prints the usage and the exit codes on stdout, exit 0', async () => {
    const r = await runCli(['--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^usage:/)
    expect(r.stdout).toMatch(
      /exit status.*\n {2}0 {2}the file is clean.*\n {2}1 {2}errors.*\n {2}2 {2}validate and info: readable, with warnings/s,
    )
  })
})
