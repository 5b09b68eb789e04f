/**
 * `rad export IN OUT.parquet` and `rad export A B … --out DIR` (docs/engines.md):
 * every Parquet file is read back by DuckDB and compared, row for row, with
 * what `view` (decoded barcodes, UMIs, orientations, reference names) and
 * `dump` (every raw tag value) print for the same file and filters.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  atacPiscemCpp,
  atacPiscemRs,
  bulk,
  multiBarcodeV2,
  piscemScRnaV2,
  salmonScRna,
  scLongRead,
} from '../helpers/assays'
import { runCli, tempDir } from '../helpers/cli'
import { parquetColumns, parquetMetadata, readParquet, duckQuery, sqlString } from '../helpers/duck'
import type { DuckRow } from '../helpers/duck'
import { FIXTURES, SALMON_V3 } from '../helpers/fixtures'
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

/** One file of every kind the repository has (test/fixtures/README.md), written where the CLI reads it. */
const KINDS: [string, () => string][] = [
  ['scRNA, salmon 1.10 fixture', () => SALMON_V3],
  ['scRNA, salmon legacy', () => dir.write('salmon.rad', buildRad(salmonScRna()).bytes)],
  ['scRNA, piscem v2 with positions', () => dir.write('piscem.rad', buildRad(piscemScRnaV2(true)).bytes)],
  ['multi-barcode', () => dir.write('multi.rad', buildRad(multiBarcodeV2()).bytes)],
  ['bulk v2', () => dir.write('bulk2.rad', buildRad(bulk(true)).bytes)],
  ['bulk legacy', () => dir.write('bulk1.rad', buildRad(bulk(false)).bytes)],
  ['scATAC, piscem-cpp', () => dir.write('atac-cpp.rad', buildRad(atacPiscemCpp('header-inclusive')).bytes)],
  ['scATAC, piscem-rs', () => dir.write('atac-rs.rad', buildRad(atacPiscemRs()).bytes)],
  ['single-cell long reads', () => dir.write('long.rad', buildRad(scLongRead()).bytes)],
  ['Snappy-framed .sz', () => dir.write('piscem.rad.sz', snappyFrame(buildRad(piscemScRnaV2(true)).bytes))],
  ['zstd chunks', () => dir.write('zstd.rad', buildRad(withCodec(salmonScRna(), 2)).bytes)],
  ['lz4 chunks', () => dir.write('lz4.rad', buildRad(withCodec(bulk(true), 1)).bytes)],
]

interface DumpRecord {
  chunk: number
  naln: number
  read: Record<string, unknown>
  alns: Record<string, unknown>[]
}

const FIXED = new Set(['record', 'chunk', 'alignment', 'n_alignments', 'umi', 'reference', 'orientation'])

/** A view field `NAME:value` as [NAME, value]. */
function field(text: string): [string, string] {
  const at = text.indexOf(':')
  return [text.slice(0, at), text.slice(at + 1)]
}

/** A dump value as the Parquet column holds it: arrays as JSON text, numbers as themselves. */
function asText(raw: unknown): string {
  return typeof raw === 'string' ? raw : JSON.stringify(raw)
}

/** Runs view and dump with `flags` and checks the Parquet rows against them, row for row. */
async function expectViewAndDump(file: string, parquet: string, flags: string[] = []): Promise<number> {
  const [view, dump, rows, columns] = await Promise.all([
    runCli(['view', file, ...flags]),
    runCli(['dump', file, ...flags]),
    readParquet(parquet),
    parquetColumns(parquet),
  ])
  const lines = view.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'))
  const dumped = dump.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as DumpRecord)
  // view shows no line for a record without alignments (viewLine.ts); nor does the table.
  const queue = dumped.filter((d) => d.naln > 0)
  expect(rows).toHaveLength(lines.length)
  const names = columns.map((c) => c.name)
  let record = -1
  let current: DumpRecord | undefined
  rows.forEach((row, i) => {
    const line = lines[i] ?? []
    const fields = Object.fromEntries(line.slice(0, -1).map(field))
    if (Number(fields.ID) !== record) {
      record = Number(fields.ID)
      current = queue.shift()
    }
    expectRow(row, line, fields, names, current)
  })
  return rows.length
}

function expectRow(
  row: DuckRow,
  line: string[],
  fields: Record<string, string>,
  names: string[],
  d: DumpRecord | undefined,
): void {
  expect(String(row.record)).toBe(fields.ID)
  expect(row.alignment).toBe(Number(fields.HI) - 1)
  expect(row.n_alignments).toBe(Number(fields.NH))
  expect(row.chunk).toBe(d?.chunk)
  const barcodes = line.filter((f) => /^CB\d*:/.test(f)).map((f) => field(f)[1])
  const barcodeColumns = names.slice(4, 4 + barcodes.length)
  expect(barcodeColumns.map((n) => row[n])).toEqual(barcodes)
  if ('UMI' in fields) expect(row.umi).toBe(fields.UMI)
  if ('DIR' in fields) expect(row.orientation).toBe(fields.DIR === 'true' ? 'fw' : 'rc')
  if ('ORI' in fields) expect(row.orientation).toBe(fields.ORI)
  if (names.includes('reference')) expect(row.reference).toBe(line.at(-1))
  const alignment = d?.alns[Number(row.alignment)] ?? {}
  for (const name of names) {
    if (FIXED.has(name) || barcodeColumns.includes(name)) continue
    const raw = name in (d?.read ?? {}) ? d?.read[name] : alignment[name]
    expect(String(row[name]), `column ${name}`).toBe(asText(raw))
  }
}

describe.concurrent('rad export OUT.parquet, read back by DuckDB', () => {
  it.each(KINDS)('%s: one row per alignment, equal to view and dump', async (_kind, make) => {
    const file = make()
    const out = dir.path(`${_kind.replace(/\W+/g, '-')}.parquet`)
    const r = await runCli(['export', file, out])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const rows = await expectViewAndDump(file, out)
    expect(rows).toBeGreaterThan(0)
    expect(r.stdout).toContain(`${String(rows)} row`)
  })

  it('keeps the filters of view: a barcode with one mismatch, a reference, an orientation', async () => {
    const cases = [
      ['--barcode', 'CTACGACAGACCAAGA', '--hamming', '1'],
      ['--ref', '/GENE0001[0-9]$/', '--orientation', 'rc'],
      ['--min-aln', '3'],
    ]
    for (const [i, flags] of cases.entries()) {
      const out = dir.path(`filtered-${String(i)}.parquet`)
      const r = await runCli(['export', SALMON_V3, out, ...flags])
      expect(r.code).toBe(0)
      expect(await expectViewAndDump(SALMON_V3, out, flags)).toBeGreaterThan(0)
    }
  })

  it('writes a valid empty table when the filter matches nothing', async () => {
    const out = dir.path('empty.parquet')
    const r = await runCli(['export', SALMON_V3, out, '--barcode', 'AAAAAAAAAAAAAAAA'])
    expect(r.stdout).toMatch(/: 0 records, 0 rows in 0 row groups, /)
    expect(await readParquet(out)).toEqual([])
    expect((await parquetColumns(out)).map((c) => c.name)).toContain('barcode')
  })

  it('writes the narrowest types and the file tags, RAD version and producer as metadata', async () => {
    const file = dir.write('types-bulk.rad', buildRad(bulk(true)).bytes)
    const out = dir.path('types-bulk.parquet')
    expect((await runCli(['export', file, out])).code).toBe(0)
    const types = Object.fromEntries((await parquetColumns(out)).map((c) => [c.name, c.type]))
    expect(types).toEqual({
      record: 'BIGINT',
      chunk: 'INTEGER',
      alignment: 'INTEGER',
      n_alignments: 'INTEGER',
      frag_map_type: 'UTINYINT',
      reference: 'VARCHAR',
      orientation: 'VARCHAR',
      pos: 'UINTEGER',
      frag_len: 'USMALLINT',
    })
    const meta = await parquetMetadata(out)
    expect(meta['rad.version']).toBe('2.0')
    expect(meta['rad.producer']).toBe('piscem-rs')
    expect(meta['rad.assay']).toBe('bulk')
    expect(JSON.parse(meta['rad.file_tags'] ?? '{}')).toMatchObject({ known_rad_type: 'bulk_with_pos' })
  })

  it('--per record: one row per record, its alignments as a list of structs', async () => {
    const out = dir.path('per-record.parquet')
    expect((await runCli(['export', SALMON_V3, out, '--per', 'record'])).code).toBe(0)
    const [rows, view] = await Promise.all([readParquet(out), runCli(['view', SALMON_V3])])
    expect(rows).toHaveLength(18949)
    const refs: string[][] = []
    for (const line of view.stdout.split('\n').filter((l) => l !== '')) {
      const id = Number(field(line.split('\t')[0] ?? '')[1])
      ;(refs[id] ??= []).push(line.split('\t').at(-1) ?? '')
    }
    rows.forEach((row, i) => {
      expect(String(row.record)).toBe(String(i))
      const alns = row.alignments as { reference: string; orientation: string }[]
      expect(alns).toHaveLength(Number(row.n_alignments))
      expect(alns.map((a) => a.reference)).toEqual(refs[i])
    })
  })
})

describe('rad export A.rad B.rad … --out DIR (Hive layout)', () => {
  it('reads back as one table with a sample column and the right counts per sample', async () => {
    const zstd = dir.write('second-sample.rad', buildRad(withCodec(salmonScRna(), 2)).bytes)
    const study = dir.path('study')
    const r = await runCli(['export', SALMON_V3, zstd, '--out', study])
    expect(r.code).toBe(0)
    expect(existsSync(join(study, 'sample=rad-chromium-v3-small', 'part-0.parquet'))).toBe(true)
    const counts = await duckQuery(
      `select sample, count(*)::integer n, count(distinct record)::integer records from read_parquet(${sqlString(
        join(study, '**', '*.parquet'),
      )}, hive_partitioning = true) group by sample order by sample`,
    )
    expect(counts).toEqual([
      { sample: 'rad-chromium-v3-small', n: 36199, records: 18949 },
      { sample: 'second-sample', n: 8, records: 5 },
    ])
  })

  it('one bad input is named and left out; the others are written; exit 1', async () => {
    const bad = dir.write('not-rad.rad', new TextEncoder().encode('plain text, not RAD\n'.repeat(20)))
    const study = dir.path('study-with-a-bad-input')
    const missing = dir.path('missing.rad')
    const r = await runCli(['export', SALMON_V3, bad, missing, '--out', study])
    expect(r.code).toBe(1)
    const lines = r.stderr.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^.*not-rad\.rad: not exported \(.+\); nothing was written for it$/)
    expect(lines[1]).toMatch(/^.*missing\.rad: not exported \(ENOENT.*\); nothing was written for it$/)
    expect(lines[2]).toMatch(/^2 inputs not exported: .*not-rad\.rad, .*missing\.rad$/)
    expect(r.stdout).toMatch(/1 sample in /)
    expect(existsSync(join(study, 'sample=rad-chromium-v3-small', 'part-0.parquet'))).toBe(true)
    expect(existsSync(join(study, 'sample=not-rad'))).toBe(false)
    expect(existsSync(join(study, 'sample=missing'))).toBe(false)
  })

  it('--sample names one input: one workflow step per sample writes into the same study', async () => {
    const study = dir.path('steps')
    mkdirSync(dir.path('S1'))
    mkdirSync(dir.path('S2'))
    const s1 = dir.write('S1/map.rad', buildRad(salmonScRna()).bytes)
    const s2 = dir.write('S2/map.rad', buildRad(piscemScRnaV2(true)).bytes)
    for (const [file, name] of [
      [s1, 'S1'],
      [s2, 'S2'],
    ] as const) {
      const r = await runCli(['export', file, '--out', study, '--sample', name])
      expect(r.code, r.stderr).toBe(0)
    }
    const rows = await duckQuery(
      `select sample, count(*)::integer n from read_parquet(${sqlString(
        join(study, '**', '*.parquet'),
      )}, hive_partitioning = true) group by sample order by sample`,
    )
    expect(rows).toEqual([
      { sample: 'S1', n: 8 },
      { sample: 'S2', n: 8 },
    ])
    const two = await runCli(['export', s1, s2, '--out', study, '--sample', 'S3'])
    expect(two.code).toBe(1)
    expect(two.stderr).toContain('--sample names one input')
  })

  it('refuses an output that is one of its inputs, and two inputs with one sample name', async () => {
    const bytes = buildRad(salmonScRna()).bytes
    const input = dir.write('same.parquet', bytes)
    const single = await runCli(['export', input, input])
    expect(single.code).toBe(1)
    expect(single.stderr).toContain('refusing to write')
    expect(readFileSync(input)).toEqual(Buffer.from(bytes))
    // An input where the study would write its own part: DIR/sample=part-0.parquet/part-0.parquet.
    const study = dir.path('trap')
    mkdirSync(join(study, 'sample=part-0.parquet'), { recursive: true })
    const trapped = join(study, 'sample=part-0.parquet', 'part-0.parquet')
    writeFileSync(trapped, bytes)
    const r = await runCli(['export', trapped, '--out', study])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('refusing to write')
    expect(readFileSync(trapped)).toEqual(Buffer.from(bytes))
    const twice = await runCli(['export', SALMON_V3, SALMON_V3, '--out', study])
    expect(twice.code).toBe(1)
    expect(twice.stderr).toContain('are one file; give it once')
  })

  it('names samples by the study rule: run folders of af_map, folders above a shared name', async () => {
    const study = dir.path('named')
    mkdirSync(dir.path('sub'))
    const copy = dir.write('sub/rad-chromium-v3-small.rad', new Uint8Array(readFileSync(SALMON_V3)))
    const r = await runCli(['export', SALMON_V3, copy, '--out', study])
    expect(r.code, r.stderr).toBe(0)
    expect(existsSync(join(study, 'sample=salmon_rad-chromium-v3-small', 'part-0.parquet'))).toBe(true)
    expect(existsSync(join(study, 'sample=sub_rad-chromium-v3-small', 'part-0.parquet'))).toBe(true)
  })

  it('a name DuckDB would read as NULL, a date or a number gets an s before it, and an earlier sample is noted', async () => {
    const study = dir.path('hive')
    const bytes = new Uint8Array(readFileSync(SALMON_V3))
    const files = ['NULL.rad', '2024-01-01.rad', '2024-1-1.rad', '01.rad'].map((n) => dir.write(n, bytes))
    const r = await runCli(['export', ...files, '--out', study])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toMatch(/note: .*NULL\.rad is sample=sNULL: DuckDB's Hive reader would read "NULL"/)
    const rows = await duckQuery(
      `select sample, count(*)::integer n from read_parquet(${sqlString(
        join(study, '**', '*.parquet'),
      )}, hive_partitioning = true) group by sample order by sample`,
    )
    expect(rows.map((row) => row.sample)).toEqual(['s01', 's2024-01-01', 's2024-1-1', 'sNULL'])
    const again = await runCli(['export', SALMON_V3, '--out', study])
    expect(again.stderr).toMatch(/also holds sample=.* from an earlier export: DuckDB reads them too/)
  })
})

describe('docs/engines.md on a study exported from af_map folders', () => {
  it('the samples are named by their runs, and the knee query returns the cells rad stats reports', async () => {
    const fixtures = ['rad-chromium-v3-small.rad', 'rad-chromium-v2-small.rad', 'rad-chromium-v3-small-p3.rad']
    const runs = ['pbmc_a', 'pbmc_b', 'pbmc_c'].map((sample, i) => {
      mkdirSync(dir.path(join('runs', sample, 'af_map')), { recursive: true })
      return dir.write(
        join('runs', sample, 'af_map', 'map.rad'),
        new Uint8Array(readFileSync(join(FIXTURES, fixtures[i]!))),
      )
    })
    const study = dir.path('afstudy')
    const r = await runCli(['export', ...runs, '--out', study])
    expect(r.code, r.stderr).toBe(0)
    const stats = await runCli(['stats', ...runs, '--json'])
    const samples = (
      JSON.parse(stats.stdout) as {
        samples: { sample: string; cutoffs: { knee: { minCount: number; cells: number } } }[]
      }
    ).samples
    const knees = samples.map((s) => `(${sqlString(s.sample)}, ${String(s.cutoffs.knee.minCount)})`).join(', ')
    // The query of docs/engines.md, "The cells above a cut-off", as written there.
    await duckQuery(
      `CREATE OR REPLACE VIEW alignments AS SELECT * FROM read_parquet(${sqlString(join(study, '**', '*.parquet'))}, hive_partitioning = true)`,
    )
    await duckQuery(`CREATE OR REPLACE TABLE knees AS SELECT * FROM (VALUES ${knees}) AS t(sample, min_reads)`)
    const rows = await duckQuery(`WITH cells AS (
  SELECT sample, barcode, count(*) FILTER (WHERE alignment = 0) AS reads
  FROM alignments GROUP BY ALL
)
SELECT sample, count(*) FILTER (WHERE reads >= min_reads) AS cells,
       round(sum(reads) FILTER (WHERE reads >= min_reads) / sum(reads), 4) AS share_of_reads
FROM cells JOIN knees USING (sample) GROUP BY sample ORDER BY sample`)
    expect(rows.map((row) => [row.sample, Number(row.cells)])).toEqual(
      samples.map((s) => [s.sample, s.cutoffs.knee.cells]),
    )
    expect(rows.map((row) => row.sample)).toEqual(['pbmc_a', 'pbmc_b', 'pbmc_c'])
  })
})
