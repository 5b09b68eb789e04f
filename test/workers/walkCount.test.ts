/**
 * One read for a URL (docs/stats.md, "One read for a URL"): the statistics the record checker
 * counts during the index walk (walkCount.ts, scanFile with countStats) are the report the page's
 * own pass makes (statsPass.ts in decode workers), JSON and knee curve alike, on the salmon
 * fixture (barcodes and UMIs), on it repeated past one check batch, on files with many distinct
 * barcodes (plain, lz4, zstd) and on a file with a damaged chunk. When the counting cannot be
 * trusted to have seen every chunk, the summary carries no statistics and the pass counts.
 */
import { readFileSync } from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { statsFromJson } from '../../src/rad/stats/section'
import type { StatsReport } from '../../src/rad/stats/section'
import { DecodePool } from '../../src/session/rows/decodePool'
import { runStatsPass } from '../../src/session/passes/statsPass'
import { makeDecodeApi } from '../../src/workers/decodeApi'
import type { ChunkRequest, ScanSummary } from '../../src/workers/protocol'
import { makeCheckerApi } from '../../src/workers/recordChecks'
import type { CheckerApi } from '../../src/workers/recordChecks'
import { CHECK_TIMEOUT_MS, remoteChecker } from '../../src/workers/remoteChecker'
import { scanFile } from '../../src/workers/scanFile'
import type { ScanOptions } from '../../src/workers/scanFile'
import { salmonScRna } from '../helpers/assays'
import type { ScRead } from '../helpers/assays'
import { channelWorker, closeChannelWorkers } from '../helpers/channelWorker'
import { SALMON_V3 } from '../helpers/fixtures'
import { buildRad, loadZstd, tag } from '../helpers/radWriter'
import { repeatedFixture } from '../helpers/repeatedFixture'
import { breakChunk } from '../helpers/salmonChunks'

await loadZstd()
afterEach(closeChannelWorkers)

const salmon = new Uint8Array(readFileSync(SALMON_V3))

/** A checker thread running check.worker.ts's body (or `api`) on a MessageChannel, as the index worker starts one. */
function checkerOf(api: () => CheckerApi = makeCheckerApi): NonNullable<ScanOptions['checker']> {
  return (prelude, count) => remoteChecker(prelude, channelWorker(api()), CHECK_TIMEOUT_MS, count)
}

/** scanFile over `bytes` as the index worker runs it for a URL (countStats), the checker beside it. */
async function walk(bytes: Uint8Array, opts: ScanOptions = {}): Promise<ScanSummary> {
  return scanFile(
    new BytesSource(bytes, 'walk.rad'),
    { opened: () => undefined, first: () => undefined, index: () => undefined, progress: () => undefined },
    { checker: checkerOf(), countStats: true, ...opts },
  )
}

/** The page's statistics pass over every indexed chunk, in `workers` real decode workers (decodeApi.ts). */
async function pass(bytes: Uint8Array, workers = 2): Promise<StatsReport> {
  const { source, prelude, container } = await openRad(new BytesSource(bytes, 'pass.rad'))
  const scan = await scanChunks(source, prelude, {})
  const reqs: ChunkRequest[] = Array.from({ length: scan.index.count }, (_, k) => ({
    chunk: k,
    offset: scan.index.offset[k] ?? 0,
    nbytes: scan.index.nbytes[k] ?? 0,
  }))
  const pool = new DecodePool(
    { kind: 'file', file: new Blob([]) },
    {
      size: workers,
      createWorker: () => channelWorker(makeDecodeApi(() => Promise.resolve(new BytesSource(bytes, 'pass.rad')))),
      onWorkerFailed: () => undefined,
    },
  )
  try {
    pool.open(prelude, container)
    pool.setConvention(scan.convention)
    const { calls, convention } = pool.workers()
    const quiet = () => undefined
    const signal = new AbortController().signal
    return await runStatsPass(calls, convention, reqs, { pass: 1, signal, onProgress: quiet, onPartial: quiet })
  } finally {
    pool.dispose()
  }
}

/** The report as a page restores it from a summary (client.ts: statsFromJson), comparable with toEqual. */
function counted(summary: ScanSummary): StatsReport {
  const report = statsFromJson(summary.stats)
  if (!report) throw new Error('the walk counted no statistics')
  return report
}

function plain(report: StatsReport): unknown {
  const { curve } = report
  return {
    json: report.json,
    curve: curve && { ...curve, rank: [...curve.rank], count: [...curve.count], cumulative: [...curve.cumulative] },
  }
}

/** A deterministic pseudo-random sequence over ACGT (xorshift32). */
function seqs(seed: number): (n: number) => string {
  let x = seed
  return (n) => {
    let s = ''
    for (let i = 0; i < n; i++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      s += 'ACGT'.charAt((x >>> 0) % 4)
    }
    return s
  }
}

/** `n` reads over ~n/8 barcodes with random UMIs (many barcodes, many pairs), chunk codec `codec`. */
function manyBarcodes(n: number, codec: 0 | 1 | 2): Uint8Array {
  const next = seqs(0x9e3779b9)
  const cells = Array.from({ length: Math.ceil(n / 8) }, () => next(16))
  const reads: ScRead[] = Array.from({ length: n }, (_, i) => ({
    // A few cells take most reads, so there is a knee.
    cb: cells[i % 5 === 0 ? i % 40 : i % cells.length] ?? 'A'.repeat(16),
    umi: next(12),
    alns: [{ ref: i % 6, fw: i % 3 !== 0 }],
  }))
  const spec = salmonScRna(reads, 700)
  return buildRad({
    ...spec,
    fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16'), tag('chunk_codec', 'u8')],
    fileValues: { cblen: 16, ulen: 12, chunk_codec: codec },
  }).bytes
}

describe('statistics counted during the index walk (one read for a URL)', () => {
  it('equal the pass on the salmon fixture (barcodes and UMIs): JSON and knee curve', async () => {
    const summary = await walk(salmon)
    expect(summary.status).toBe('clean')
    const walked = counted(summary)
    const passed = await pass(salmon)
    expect(walked.json).toEqual(passed.json)
    expect(plain(walked)).toEqual(plain(passed))
    expect(walked.json.barcodes?.distinct).toBeGreaterThan(100)
    expect(walked.json.umis).toBeTruthy()
    expect(walked.json.knee).toBeGreaterThan(0)
    expect(walked.writer).toBeUndefined()
  })

  it('equal the pass on a file of several check batches (the fixture’s chunks 30 times, 11 MB)', async () => {
    const bytes = repeatedFixture(30)
    expect(bytes.length).toBeGreaterThan(8 << 20)
    const walked = counted(await walk(bytes))
    expect(plain(walked)).toEqual(plain(await pass(bytes)))
    expect(walked.json.records).toBe(30 * counted(await walk(salmon)).json.records)
  })

  it.each([
    ['plain', 0],
    ['lz4', 1],
    ['zstd', 2],
  ] as const)('equal the pass on 40,000 reads over 5,000 barcodes, %s chunks', async (_, codec) => {
    const bytes = manyBarcodes(40_000, codec)
    const walked = counted(await walk(bytes))
    expect(walked.json.barcodes?.distinct).toBeGreaterThan(4000)
    expect(plain(walked)).toEqual(plain(await pass(bytes)))
  })

  it('leave a damaged chunk out as the pass does', async () => {
    const { bytes } = breakChunk(1)
    const summary = await walk(bytes)
    expect(summary.status).toBe('damaged')
    expect(summary.damagedChunks).toEqual([1])
    const walked = counted(summary)
    expect(plain(walked)).toEqual(plain(await pass(bytes)))
    expect(walked.json.chunks.count).toBe(3)
  })

  it('are not counted unless asked (a local file keeps the pass)', async () => {
    const summary = await walk(salmon, { countStats: false })
    expect(summary.status).toBe('clean')
    expect(summary.stats).toBeUndefined()
  })

  it('are dropped when the checker stopped during the walk: the page counts with its pass instead', async () => {
    let batches = 0
    const dying = (): CheckerApi => {
      const api = makeCheckerApi()
      return {
        ...api,
        check: (batch) => {
          if (++batches > 1) throw new Error('the checker ran out of memory')
          return api.check(batch)
        },
      }
    }
    const summary = await walk(repeatedFixture(30), { checker: checkerOf(dying) })
    expect(summary.status).not.toBe('damaged')
    expect(summary.stats).toBeUndefined()
  })
})
