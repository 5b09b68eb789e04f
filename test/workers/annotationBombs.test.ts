/**
 * Issue 36 §3 in the page: compressed annotation files given to the cells pass (runCellsJob, the
 * cells worker's work) are gunzipped as a stream (DecompressionStream, as in the page) and parsed as
 * they come. A gzip that unpacks to 768 MiB of one barcode is one listed barcode, read without its
 * 768 MiB in memory; 2 GB of zeros is looked at, not read. (The bounds, the same parser's:
 * test/rad/cells/lineBlocks.test.ts; past the unpacked bound in the CLI: test/cli/cells.test.ts.)
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import { barcodesAtLeast, createStatsAccumulator } from '../../src/rad/stats'
import { chooseCutoff, DEFAULT_MITO } from '../../src/rad/cells'
import type { CellsJob } from '../../src/workers/protocol'
import { runCellsJob } from '../../src/workers/cellsJob'
import { SALMON_V3 } from '../helpers/fixtures'
import { readRad } from '../helpers/read'
import type { ReadResult } from '../helpers/read'

const ANNOTATIONS = join(import.meta.dirname, '..', 'fixtures', 'annotations')
const t2g = (): File => new File([readFileSync(join(ANNOTATIONS, 't2g.tsv'))], 't2g.tsv')

/** Gzip members of `line` repeated to 64 MiB each, concatenated to `members` × 64 MiB unpacked. */
function gzipBomb(line: string, members: number): Uint8Array<ArrayBuffer> {
  const one = new TextEncoder().encode(line)
  const block = new Uint8Array(Math.floor((64 << 20) / one.length) * one.length)
  for (let i = 0; i < block.length; i += one.length) block.set(one, i)
  const member = gzipSync(block)
  return new Uint8Array(Buffer.concat(Array.from({ length: members }, () => member)))
}

let rad: ReadResult
let job: (files: File[]) => CellsJob

beforeAll(async () => {
  rad = await readRad(new Uint8Array(readFileSync(SALMON_V3)))
  const acc = createStatsAccumulator(rad.prelude, rad.sem)
  for (const c of rad.chunks) acc.addChunk(c)
  const state = acc.exportState()
  const [cutoff, name] = chooseCutoff(state, {})
  const cut = { cells: barcodesAtLeast(state, cutoff!.minCount), cutoff: name, minReads: cutoff!.minCount }
  job = (files) => ({
    prelude: rad.prelude,
    index: rad.scan.index,
    convention: rad.scan.convention,
    container: 'none',
    cut,
    files,
    mito: DEFAULT_MITO,
  })
})

describe('compressed annotation files in the page: read as they come', () => {
  it('a gzip unpacking to 768 MiB of one barcode: one barcode listed, its 768 MiB never held', async () => {
    const barcode = 'GACTGCCAGATAATGT'
    // 47M lines: under the bound of 50M (docs/cells.md).
    const bomb = new File([gzipBomb(`${barcode}\n`, 12)], 'permit.gz')
    const one = await runCellsJob(job([t2g(), new File([`${barcode}\n`], 'one.txt')]), rad.source)
    let peak = 0
    const base = process.memoryUsage().rss
    const sample = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss - base)
    }, 20)
    try {
      const r = await runCellsJob(job([t2g(), bomb]), rad.source)
      expect(r.json.permit).toEqual(one.json.permit)
      expect(r.json.permit?.listed).toBe(1)
    } finally {
      clearInterval(sample)
    }
    // Held whole, the unpacked list alone would be 768 MiB (the old code read it into one buffer).
    expect(peak).toBeLessThan(512 << 20)
  }, 180_000)

  it('2 GB of zeros, gzipped, beside the t2g: its first bytes show binary data; it is not read further', async () => {
    const zeros = new File([gzipBomb('\u0000', 32)], 'zeros.gz')
    const r = await runCellsJob(job([t2g(), zeros]), rad.source)
    expect(r.files.find((f) => f.name === 'zeros.gz')).toMatchObject({ kind: undefined, why: 'binary data' })
  })
})
