/**
 * `rad stats FILE --t2g … --json / --cells-tsv` (docs/cells.md): every cell and
 * gene key checked against an independent computation from `rad view`'s lines,
 * with the annotation fixtures in test/fixtures/annotations (README there).
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT, runCli, tempDir } from '../helpers/cli'
import type { CliResult } from '../helpers/cli'
import { recordsOf } from '../helpers/viewRecords'
import type { ViewRecord } from '../helpers/viewRecords'
import { SALMON_V3 } from '../helpers/fixtures'

const ANNOTATIONS = join(import.meta.dirname, '..', 'fixtures', 'annotations')
const T2G = join(ANNOTATIONS, 't2g.tsv')
const NAMES = join(ANNOTATIONS, 'gene_names.tsv')
const PERMIT = join(ANNOTATIONS, 'permit.txt')
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

function table(path: string): string[][] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'))
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

function hamming(a: string, b: string): number {
  let d = 0
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) d++
  return d
}

interface Expected {
  cells: { count: number; umis: number; genes: number; mito: number }
  detected: number
  top: [string, number][]
  unmapped: number
  permit: Record<string, number>
  tsv: string
}

/** The figures, computed here from the definitions in docs/cells.md. */
function expected(recs: ViewRecord[], minReads: number): Expected {
  const geneOf = new Map(table(T2G).map(([tx, g]) => [tx!, g!]))
  const names = new Map(table(NAMES).map(([g, n]) => [g!, n!]))
  const label = (g: string): string => names.get(g) ?? g
  const reads = new Map<string, number>()
  for (const r of recs) reads.set(r.barcode, (reads.get(r.barcode) ?? 0) + 1)
  const cells = [...reads].filter(([, n]) => n >= minReads).map(([b]) => b)
  const pairs = new Map(cells.map((c) => [c, new Set<string>()]))
  let unmapped = 0
  for (const r of recs) {
    const genes = new Set<string>()
    for (const ref of r.refs) {
      const g = geneOf.get(ref)
      if (g === undefined) unmapped++
      else genes.add(g)
    }
    if (genes.size === 1) pairs.get(r.barcode)?.add(`${[...genes][0]!}\t${r.umi}`)
  }
  const geneUmis = new Map<string, number>()
  const rows = cells.map((c) => {
    const ps = [...pairs.get(c)!]
    const genes = new Set(ps.map((p) => p.split('\t')[0]!))
    for (const p of ps) geneUmis.set(label(p.split('\t')[0]!), (geneUmis.get(label(p.split('\t')[0]!)) ?? 0) + 1)
    const mito = ps.filter((p) => /^(MT|mt)-/.test(label(p.split('\t')[0]!))).length
    return { c, reads: reads.get(c)!, umis: ps.length, genes: genes.size, mito: ps.length ? mito / ps.length : 0 }
  })
  rows.sort((a, b) => b.reads - a.reads || (a.c < b.c ? -1 : 1))
  const list = readFileSync(PERMIT, 'utf8').split('\n').filter(Boolean)
  const listed = new Set(list)
  const permit = { listed: listed.size, exact: 0, corrected: 0, ambiguous: 0, absent: 0 }
  for (const [b, n] of reads) {
    const near = listed.has(b) ? -1 : list.filter((l) => hamming(l, b) === 1).length
    permit[near < 0 ? 'exact' : near === 1 ? 'corrected' : near > 1 ? 'ambiguous' : 'absent'] += n
  }
  const top = [...geneUmis].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20)
  return {
    cells: {
      count: cells.length,
      umis: median(rows.map((r) => r.umis)),
      genes: median(rows.map((r) => r.genes)),
      mito: median(rows.map((r) => r.mito)),
    },
    detected: geneUmis.size,
    top,
    unmapped,
    permit,
    tsv:
      [
        'barcode\treads\tumis\tgenes\tmito_fraction',
        ...rows.map((r) => `${r.c}\t${r.reads}\t${r.umis}\t${r.genes}\t${r.mito.toFixed(6)}`),
      ].join('\n') + '\n',
  }
}

interface CellJson {
  knee: number
  cells: {
    count: number
    min_reads: number
    umis: { median: number }
    genes: { median: number }
    mito_fraction: { median: number }
  }
  genes: { detected: number; top: [string, number][]; unmapped_alignments: number }
  permit: Record<string, number>
}

describe('rad stats --t2g', () => {
  let recs: ViewRecord[] = []
  beforeAll(async () => {
    const view = await runCli(['view', SALMON_V3])
    expect(view.code, view.stderr).toBe(0)
    recs = recordsOf(view.stdout)
  })

  it('--json: cells, genes and permit keys equal an independent computation', async () => {
    const r = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--gene-names', NAMES, '--permit-list', PERMIT, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const json = JSON.parse(r.stdout) as CellJson
    const want = expected(recs, json.cells.min_reads)
    expect(json.cells.count).toBe(json.knee)
    expect(json.cells.count).toBe(want.cells.count)
    expect(json.cells.umis.median).toBe(want.cells.umis)
    expect(json.cells.genes.median).toBe(want.cells.genes)
    expect(json.cells.mito_fraction.median).toBeCloseTo(want.cells.mito, 12)
    expect(json.cells.mito_fraction.median).toBeGreaterThan(0)
    expect(json.genes.detected).toBe(want.detected)
    expect(json.genes.top).toEqual(want.top)
    expect(json.genes.unmapped_alignments).toBe(want.unmapped)
    expect(json.genes.unmapped_alignments).toBeGreaterThan(0)
    expect(json.permit).toEqual(want.permit)
    for (const k of ['exact', 'corrected', 'ambiguous', 'absent']) expect(json.permit[k]).toBeGreaterThan(0)
  })

  it('umi_duplication: reads per (cell, UMI) over every record of the cells', async () => {
    const r = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--json'])
    const json = JSON.parse(r.stdout) as CellJson & {
      umi_duplication: { histogram: [number, number][]; cells: number; of_cells: number }
    }
    const reads = new Map<string, number>()
    for (const rec of recs) reads.set(rec.barcode, (reads.get(rec.barcode) ?? 0) + 1)
    const perPair = new Map<string, number>()
    for (const rec of recs) {
      if ((reads.get(rec.barcode) ?? 0) < json.cells.min_reads) continue
      const key = `${rec.barcode}\t${rec.umi}`
      perPair.set(key, (perPair.get(key) ?? 0) + 1)
    }
    const histogram = new Map<number, number>()
    for (const n of perPair.values()) histogram.set(n, (histogram.get(n) ?? 0) + 1)
    expect(json.umi_duplication.histogram).toEqual([...histogram].sort((a, b) => a[0] - b[0]))
    expect([json.umi_duplication.cells, json.umi_duplication.of_cells]).toEqual([json.cells.count, json.cells.count])
  })

  it('--cells-tsv: one row per cell, reads descending, ties by barcode', async () => {
    const r = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--gene-names', NAMES, '--cells-tsv'])
    expect(r.code, r.stderr).toBe(0)
    const json = JSON.parse((await runCli(['stats', SALMON_V3, '--t2g', T2G, '--json'])).stdout) as CellJson
    expect(r.stdout).toBe(expected(recs, json.cells.min_reads).tsv)
  })

  it('a gzipped permit list gives the same counts; --force-cells picks the cells', async () => {
    const gz = dir.write('permit.gz', gzipSync(readFileSync(PERMIT)))
    const plain = JSON.parse(
      (await runCli(['stats', SALMON_V3, '--t2g', T2G, '--permit-list', PERMIT, '--json'])).stdout,
    ) as CellJson
    const r = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--permit-list', gz, '--force-cells', '10', '--json'])
    expect(r.code, r.stderr).toBe(0)
    const forced = JSON.parse(r.stdout) as CellJson
    expect(forced.permit).toEqual(plain.permit)
    expect(forced.cells.count).toBe(expected(recs, forced.cells.min_reads).cells.count)
    expect(forced.cells.count).toBeGreaterThanOrEqual(10)
  })

  it('bad annotation files: an error naming the line', async () => {
    const text = (s: string): Uint8Array => new TextEncoder().encode(s)
    const none = dir.write('none.tsv', text('TXA\tGA\nTXB\tGB\n'))
    const mixed = dir.write('mixed.txt', text('ACGTACGTACGTACGT\nACGTACGTACGTACG\n'))
    const garbage = dir.write('garbage.tsv', new Uint8Array([0x41, 0x09, 0x42, 0x0a, 0x00, 0xff, 0x13]))
    const a = await runCli(['stats', SALMON_V3, '--t2g', none, '--json'])
    expect(a.code).toBe(1)
    expect(a.stderr).toMatch(/none of its 2 transcripts is a reference of this file/)
    const b = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--permit-list', mixed, '--json'])
    expect(b.stderr).toMatch(/line 2: a barcode of 15 bases where the list's first has 16/)
    const c = await runCli(['stats', SALMON_V3, '--t2g', garbage, '--json'])
    expect(c.stderr).toMatch(/line 2: binary data/)
    const d = await runCli(['stats', SALMON_V3, '--gene-names', NAMES])
    expect(d.stderr).toMatch(/need --t2g FILE/)
  })
})

describe('annotation files that cannot be used are named in one line', () => {
  it('a missing file, a damaged or cut-short gzip stream', async () => {
    const local = tempDir()
    try {
      const missing = local.path('no-such-t2g.tsv')
      const r1 = await runCli(['stats', SALMON_V3, '--t2g', missing])
      expect(r1.code).toBe(1)
      expect(r1.stderr).toMatch(
        new RegExp(`^error: cannot read ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: ENOENT`),
      )
      const good = gzipSync(readFileSync(T2G))
      const cutShort = local.write('short.tsv.gz', good.subarray(0, good.length >> 1))
      good.fill(0x55, 20, 40)
      const damaged = local.write('damaged.tsv.gz', good)
      const r2 = await runCli(['stats', SALMON_V3, '--t2g', damaged])
      expect(r2.code).toBe(1)
      expect(r2.stderr).toMatch(/damaged\.tsv\.gz: its gzip stream is damaged/)
      const r3 = await runCli(['stats', SALMON_V3, '--t2g', cutShort])
      expect(r3.code).toBe(1)
      expect(r3.stderr).toMatch(/short\.tsv\.gz: its gzip stream is damaged \(unexpected end of file\)\n$/)
    } finally {
      local.cleanup()
    }
  })
})

/** Gzip members of `line` repeated to 64 MiB each, after `head` (unpacked: `head` + `members` × 64 MiB). */
function gzipBomb(line: string, members: number, head = new Uint8Array(0)): Uint8Array {
  const one = new TextEncoder().encode(line)
  const block = new Uint8Array(Math.floor((64 << 20) / one.length) * one.length)
  for (let i = 0; i < block.length; i += one.length) block.set(one, i)
  const member = gzipSync(block)
  return Buffer.concat([gzipSync(head), ...Array.from({ length: members }, () => member)])
}

/** Runs the CLI as runCli does, with its peak RSS (the child's own figure, said at exit). */
function runCliPeak(args: string[]): Promise<CliResult & { peakRss: number }> {
  const atExit = `process.on('exit', () => process.stderr.write('peak-rss ' + process.resourceUsage().maxRSS + '\\n'))`
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', `data:text/javascript,${encodeURIComponent(atExit)}`, join(ROOT, 'bin', 'rad.mjs'), ...args],
      { cwd: ROOT, timeout: 120_000, maxBuffer: 64 << 20, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          reject(new Error(`could not run the CLI: ${error.message}`))
          return
        }
        const peak = /peak-rss (\d+)\n$/.exec(stderr)
        resolve({
          code: typeof error?.code === 'number' ? error.code : 0,
          stdout,
          stderr: stderr.replace(/peak-rss \d+\n$/, ''),
          peakRss: Number(peak?.[1] ?? NaN) * 1024,
        })
      },
    )
  })
}

/** The file's last line, with its newline. */
const lastLine = (path: string): string => `${readFileSync(path, 'utf8').trimEnd().split('\n').pop()!}\n`

describe('compressed annotation files are read as they come (issue 36 §3)', () => {
  it('gigabytes of a repeated line: the figures of the lines once, at the memory of the distinct entries', async () => {
    const local = tempDir()
    try {
      // Each file, then its last line again to 256 MiB (t2g, gene names) or 768 MiB (a list of one
      // barcode: 47M lines, under the bound of 50M).
      const t2g = local.write('t2g.tsv.gz', gzipBomb(lastLine(T2G), 4, readFileSync(T2G)))
      const names = local.write('names.tsv.gz', gzipBomb(lastLine(NAMES), 4, readFileSync(NAMES)))
      const barcode = lastLine(PERMIT)
      const one = local.write('one.txt', new TextEncoder().encode(barcode))
      const permit = local.write('permit.txt.gz', gzipBomb(barcode, 12))
      const want = await runCli([
        'stats',
        SALMON_V3,
        '--t2g',
        T2G,
        '--gene-names',
        NAMES,
        '--permit-list',
        one,
        '--json',
      ])
      expect(want.code, want.stderr).toBe(0)
      const got = await runCliPeak([
        'stats',
        SALMON_V3,
        '--t2g',
        t2g,
        '--gene-names',
        names,
        '--permit-list',
        permit,
        '--json',
      ])
      expect(got.code, got.stderr).toBe(0)
      expect(got.stdout).toBe(want.stdout)
      expect((JSON.parse(got.stdout) as CellJson).permit.listed).toBe(1)
      // Held whole, the permit list alone would be 768 MiB; the t2g 256 MiB, and as much again as
      // text. Read as they come: ~150 MiB, the CLI's own.
      expect(got.peakRss).toBeLessThan(384 << 20)
    } finally {
      local.cleanup()
    }
  }, 180_000)

  it('past the bounds, one sentence naming the file: a line too long (2 GB of zeros), more than 2 GiB unpacked', async () => {
    const local = tempDir()
    try {
      const zeros = local.write('zeros.gz', gzipBomb('\u0000', 32))
      for (const flag of ['--t2g', '--permit-list']) {
        const args = flag === '--t2g' ? ['--t2g', zeros] : ['--t2g', T2G, '--permit-list', zeros]
        const r = await runCli(['stats', SALMON_V3, ...args])
        expect(r.code).toBe(1)
        expect(r.stderr).toBe(
          `error: ${zeros} line 1: longer than 64 KiB, not a line of an annotation file (binary data?)\n`,
        )
      }
      // Lines of a barcode and a 60 KB comment: 2.06 GiB of a permit list, cheap to read.
      const huge = local.write('huge.gz', gzipBomb(`${lastLine(PERMIT).trimEnd()}\t${'x'.repeat(60_000)}\n`, 33))
      const r = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--permit-list', huge], 120_000)
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(
        `error: ${huge}: more than 2 GiB of text (unpacked), more than any annotation file, so it is refused (a gzip bomb?)\n`,
      )
    } finally {
      local.cleanup()
    }
  }, 180_000)
})

describe('a Cell Ranger barcodes list as the permit list', () => {
  it('gives the same figures as the plain list, and notes the dropped -1 suffix', async () => {
    const local = tempDir()
    try {
      const plain = readFileSync(PERMIT, 'utf8')
      const suffixed = local.write(
        'barcodes.tsv',
        new TextEncoder().encode(
          plain
            .split('\n')
            .map((l) => (l === '' ? l : `${l}-1`))
            .join('\n'),
        ),
      )
      const want = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--permit-list', PERMIT, '--json'])
      const got = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--permit-list', suffixed, '--json'])
      expect(got.code, got.stderr).toBe(0)
      expect(got.stdout).toBe(want.stdout)
      expect(got.stderr).toMatch(/^note: .*barcodes\.tsv: the -N gem-group suffix of [\d,]+ barcodes was dropped/)
    } finally {
      local.cleanup()
    }
  })
})
