/** `view` and `dump` with record filters (docs/subsets.md, "Selections"): the same answers as the kernel, as users type them. */
import { afterAll, describe, expect, it } from 'vitest'
import { extractFilterFlags } from '../../src/cli/filterFlags'
import { bulk, salmonScRna } from '../helpers/assays'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { buildRad } from '../helpers/radWriter'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})
const sc = dir.write('sc.rad', buildRad(salmonScRna()).bytes)
const bulkFile = dir.write('bulk.rad', buildRad(bulk(true)).bytes)

/** The record ids (`ID:n`) of view lines, once each. */
function ids(stdout: string): number[] {
  const seen = stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => Number(/^ID:(\d+)/.exec(l)?.[1]))
  return [...new Set(seen)]
}

describe('filter flags', () => {
  it('reads every flag, in both spellings, and leaves the rest', () => {
    const flags = extractFilterFlags([
      'view',
      'f.rad',
      '--barcode',
      'ACGT',
      '--hamming=1',
      '--umi',
      'TTTT',
      '--ref=/^chr/',
      '--min-aln',
      '2',
      '--max-aln',
      '5',
      '--orientation',
      'rc',
      '--frag-map-type',
      '4',
      '-H',
    ])
    expect(flags).toEqual({
      filter: {
        barcode: 'ACGT',
        hamming: 1,
        umi: 'TTTT',
        ref: '/^chr/',
        minAln: 2,
        maxAln: 5,
        orientation: 'rc',
        fragMapType: 4,
      },
      rest: ['view', 'f.rad', '-H'],
    })
    expect(extractFilterFlags(['view', 'f.rad'])).toEqual({ filter: undefined, rest: ['view', 'f.rad'] })
  })

  it('says what is wrong with a flag', () => {
    expect(extractFilterFlags(['--min-aln', 'x'])).toBe('--min-aln needs a whole number ≥ 0')
    expect(extractFilterFlags(['--orientation', 'up'])).toBe('--orientation needs fw or rc')
    expect(extractFilterFlags(['--hamming', '1'])).toBe('--hamming needs --barcode')
    expect(extractFilterFlags(['--barcode'])).toBe('--barcode needs a barcode sequence (ACGT…)')
  })
})

describe('view and dump, filtered', () => {
  it('view --barcode prints that barcode’s records only; --hamming 1 allows one mismatch', async () => {
    const exact = await runCli(['view', sc, '--barcode', 'GATTACAGATTACAGA'])
    expect(exact.code).toBe(0)
    expect(ids(exact.stdout)).toEqual([3])
    expect(exact.stdout.split('\n').filter((l) => l !== '')).toHaveLength(3)
    const near = await runCli(['view', sc, '--barcode', 'GATTACAGATTACAGT', '--hamming', '1'])
    expect(ids(near.stdout)).toEqual([3])
  })

  it('view --ref NAME --min-aln N combine with AND', async () => {
    expect(ids((await runCli(['view', sc, '--ref', 'GeneA'])).stdout)).toEqual([0, 4])
    expect(ids((await runCli(['view', sc, '--ref', 'GeneA', '--min-aln', '2'])).stdout)).toEqual([0])
    expect(ids((await runCli(['view', sc, '--ref', '/^chr/', '--orientation', 'fw'])).stdout)).toEqual([3])
  })

  it('dump takes the same flags: bulk frag_map_type', async () => {
    const r = await runCli(['dump', bulkFile, '--frag-map-type', '4'])
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ chunk: 0, rec: 0, naln: 4, read: { frag_map_type: 4 } })
  })

  it('the salmon fixture: a barcode filter keeps exactly the lines of that barcode', async () => {
    const all = await runCli(['view', SALMON_V3])
    const lines = all.stdout.split('\n').filter((l) => l !== '')
    const cb = /CB:([ACGT]+)/.exec(lines[10] ?? '')?.[1] ?? ''
    const want = lines.filter((l) => l.includes(`\tCB:${cb}\t`))
    const got = await runCli(['view', SALMON_V3, '--barcode', cb])
    expect(got.code).toBe(0)
    expect(got.stdout.split('\n').filter((l) => l !== '')).toEqual(want)
  })

  it('a filter the file cannot answer is one line and exit 1', async () => {
    const r = await runCli(['view', bulkFile, '--barcode', 'ACGT'])
    expect(r.code).toBe(1)
    expect(r.stderr).toBe('error: this file has no barcode tag to filter on (§7.7)\n')
    const wrong = await runCli(['info', sc, '--barcode', 'ACGT'])
    expect(wrong.code).toBe(1)
    expect(wrong.stderr).toMatch(/filters apply to view, dump, subset and export, not info/)
  })
})
