/**
 * Splicing (docs/cells.md, "Splicing"): with a t2g whose every line says S or U, `rad stats --json`
 * gives `cells.spliced`, `unspliced`, `ambiguous` and `unspliced_fraction`, and `--cells-tsv` their
 * columns, equal to the rule computed here from `rad view`'s lines: a gene-unique record is S when
 * all its alignments to its gene are on S references, U when all are on U, else A; a cell's
 * (gene, UMI) pair is S when all its records are S, U when all are U, else A.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, tempDir } from '../helpers/cli'
import { recordsOf } from '../helpers/viewRecords'
import type { ViewRecord } from '../helpers/viewRecords'
import { SALMON_V3 } from '../helpers/fixtures'
import { oriRefId, pack2bit, pack2bitNumber, radBytes, tag } from '../helpers/radWriter'

const T2G = join(import.meta.dirname, '..', 'fixtures', 'annotations', 't2g.tsv')
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

/** The fixture's t2g with a status: a transcript's second isoform (-2) is unspliced, the others spliced. */
function statusT2g(): { text: string; gene: Map<string, string>; status: Map<string, 'S' | 'U'> } {
  const gene = new Map<string, string>()
  const status = new Map<string, 'S' | 'U'>()
  const lines: string[] = []
  for (const line of readFileSync(T2G, 'utf8').split('\n')) {
    const [tx, g] = line.split('\t')
    if (!tx || !g) continue
    const s = tx.split('|')[0]!.endsWith('-2') ? 'U' : 'S'
    gene.set(tx, g)
    status.set(tx, s)
    lines.push(`${tx}\t${g}\t${s}`)
  }
  return { text: `${lines.join('\n')}\n`, gene, status }
}

const BIT = { S: 1, U: 2 } as const

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length === 0 ? 0 : s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length

interface Json {
  cells: {
    min_reads: number
    umis: { mean: number }
    spliced: { mean: number; median: number }
    unspliced: { mean: number; median: number }
    ambiguous: { mean: number; median: number }
    unspliced_fraction: { mean: number; median: number }
  }
}

describe('rad stats --t2g with S/U statuses', () => {
  let recs: ViewRecord[] = []
  const t2g = statusT2g()
  let path = ''
  beforeAll(async () => {
    const view = await runCli(['view', SALMON_V3])
    recs = recordsOf(view.stdout)
    path = dir.write('t2g_3col.tsv', new TextEncoder().encode(t2g.text))
  })

  function expected(minReads: number) {
    const reads = new Map<string, number>()
    for (const r of recs) reads.set(r.barcode, (reads.get(r.barcode) ?? 0) + 1)
    const cells = new Set([...reads].filter(([, n]) => n >= minReads).map(([b]) => b))
    const pairs = new Map<string, Map<string, number>>([...cells].map((c) => [c, new Map()]))
    for (const r of recs) {
      const genes = new Set<string>()
      let bits = 0
      for (const ref of r.refs) {
        const g = t2g.gene.get(ref)
        if (g === undefined) continue
        genes.add(g)
        bits |= BIT[t2g.status.get(ref)!]
      }
      const cell = pairs.get(r.barcode)
      if (genes.size !== 1 || !cell) continue
      const key = `${[...genes][0]!}\t${r.umi}`
      cell.set(key, (cell.get(key) ?? 0) | bits)
    }
    const rows = [...pairs].map(([c, ps]) => {
      const of = (bits: number): number => [...ps.values()].filter((b) => b === bits).length
      const umis = ps.size
      return { c, reads: reads.get(c)!, s: of(1), u: of(2), a: of(3), umis, f: umis ? of(2) / umis : 0 }
    })
    return rows
  }

  it('--json: spliced, unspliced, ambiguous and the unspliced fraction per cell, as the rule gives them', async () => {
    const r = await runCli(['stats', SALMON_V3, '--t2g', path, '--json'])
    expect(r.code, r.stderr).toBe(0)
    const json = JSON.parse(r.stdout) as Json
    const rows = expected(json.cells.min_reads)
    const c = json.cells
    expect(c.spliced.median).toBe(median(rows.map((x) => x.s)))
    expect(c.unspliced.median).toBe(median(rows.map((x) => x.u)))
    expect(c.ambiguous.median).toBe(median(rows.map((x) => x.a)))
    expect(c.spliced.mean).toBeCloseTo(mean(rows.map((x) => x.s)), 9)
    expect(c.unspliced.mean).toBeCloseTo(mean(rows.map((x) => x.u)), 9)
    expect(c.ambiguous.mean).toBeCloseTo(mean(rows.map((x) => x.a)), 9)
    expect(c.unspliced_fraction.median).toBeCloseTo(median(rows.map((x) => x.f)), 12)
    expect(c.unspliced_fraction.mean).toBeCloseTo(mean(rows.map((x) => x.f)), 12)
    // The three statuses sum to the UMIs, and the fixture has pairs of each.
    expect(c.spliced.mean + c.unspliced.mean + c.ambiguous.mean).toBeCloseTo(c.umis.mean, 9)
    for (const k of ['s', 'u', 'a'] as const) expect(rows.some((x) => x[k] > 0)).toBe(true)
  })

  it('--cells-tsv: the four columns after mito_fraction, row for row', async () => {
    const r = await runCli(['stats', SALMON_V3, '--t2g', path, '--cells-tsv'])
    expect(r.code, r.stderr).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines[0]).toBe(
      'barcode\treads\tumis\tgenes\tmito_fraction\tspliced\tunspliced\tambiguous\tunspliced_fraction',
    )
    const json = JSON.parse((await runCli(['stats', SALMON_V3, '--t2g', path, '--json'])).stdout) as Json
    const want = new Map(expected(json.cells.min_reads).map((x) => [x.c, x]))
    expect(lines.length - 1).toBe(want.size)
    for (const line of lines.slice(1)) {
      const [b, , umis, , , s, u, a, f] = line.split('\t')
      const x = want.get(b!)!
      expect([Number(umis), Number(s), Number(u), Number(a), f]).toEqual([x.umis, x.s, x.u, x.a, x.f.toFixed(6)])
    }
  })

  it('a t2g without a status on every line has no splicing keys or columns', async () => {
    const r = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--json'])
    const json = JSON.parse(r.stdout) as { cells: Record<string, unknown> }
    expect(json.cells.unspliced_fraction).toBeUndefined()
    const tsv = await runCli(['stats', SALMON_V3, '--t2g', T2G, '--cells-tsv'])
    expect(tsv.stdout.split('\n')[0]).toBe('barcode\treads\tumis\tgenes\tmito_fraction')
  })
})

describe('splicing statuses with UMIs of 12 and of 20 bases (the packed and the wide pair keys)', () => {
  const refs = ['TA-1|GeneA', 'TA-2|GeneA', 'TB-1|GeneB']
  const t2g = 'TA-1|GeneA\tGeneA\tS\nTA-2|GeneA\tGeneA\tU\nTB-1|GeneB\tGeneB\tS\n'
  const CB = 'ACGTACGTACGTACGT'

  function file(umiLength: 12 | 20): Uint8Array {
    const umi = (c: string): bigint => pack2bit(c.repeat(umiLength))
    // (GeneA, A…) from an S record and a U record: ambiguous; (GeneA, C…) only U; (GeneA, G…) one
    // record on both: ambiguous; (GeneB, T…) spliced. Another barcode's one read stays out.
    const reads: [string, string, number[]][] = [
      [CB, 'A', [0]],
      [CB, 'A', [1]],
      [CB, 'C', [1]],
      [CB, 'G', [0, 1]],
      [CB, 'T', [2]],
      ['TTTTTTTTTTTTTTTT', 'A', [0]],
    ]
    return radBytes({
      refs,
      fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16')],
      readTags: [tag('b', 'u32'), tag('u', 'u64')],
      alnTags: [tag('compressed_ori_refid', 'u32')],
      fileValues: { cblen: 16, ulen: umiLength },
      chunks: [
        {
          records: reads.map(([cb, u, alns]) => ({
            read: { b: pack2bitNumber(cb), u: umi(u) },
            alns: alns.map((ref) => ({ compressed_ori_refid: oriRefId(ref, true) })),
          })),
        },
      ],
    })
  }

  for (const length of [12, 20] as const) {
    it(`UMIs of ${String(length)} bases: 1 spliced, 1 unspliced, 2 ambiguous`, async () => {
      const rad = dir.write(`umi${String(length)}.rad`, file(length))
      const names = dir.write('tiny_t2g.tsv', new TextEncoder().encode(t2g))
      const r = await runCli(['stats', rad, '--t2g', names, '--force-cells', '1', '--cells-tsv'])
      expect(r.code, r.stderr).toBe(0)
      expect(r.stdout.trim().split('\n')[1]).toBe(`${CB}\t5\t4\t2\t0.000000\t1\t1\t2\t0.250000`)
    })
  }
})
