/**
 * The in-browser half of `npm run bench` (bench/results.md). Runs the app's real
 * workers (index.worker.ts, decode.worker.ts) on a File set through the
 * page's file input, and a plain reader for the browser's raw limit.
 */
import { proxy, wrap } from 'comlink'
import type { Remote } from 'comlink'
import '../../src/workers/comlinkErrors'
import { passBatches } from '../../src/session/rows/lanes'
import { bulkDecode } from './bulkDecode'
import { BULK_DEPTH } from '../../src/workers/protocol'
import { DecodePool } from '../../src/session/rows/decodePool'
import { runStatsPass } from '../../src/session/passes/statsPass'
import type { ChunkRequest, IndexApi, OpenedFile, ScanSummary } from '../../src/workers/protocol'
import type { ScanTiming } from '../../src/io/scanPace'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import type { NbytesConvention, Prelude } from '../../src/rad/types'

interface RawApi {
  spinProbe(file: Blob, block: number, n: number, spinMs: number, sliceMs: number): Promise<number[]>
  walk(file: Blob, check: boolean, blockSize?: number): Promise<{ ms: number; timing: ScanTiming }>
  readAll(file: Blob, block: number, depth: number, passes: number, sliced: boolean): Promise<number>
}

interface Indexed {
  opened: OpenedFile
  convention: NbytesConvention
  offset: number[]
  nbytes: number[]
  nrec: number[]
}

let last: Indexed | undefined

function file(): File {
  const input = document.getElementById('file') as HTMLInputElement
  const f = input.files?.[0]
  if (!f) throw new Error('no file set')
  return f
}

async function rawRead(block: number, depth: number, passes = 0, sliced = false): Promise<number> {
  const worker = new Worker(new URL('./raw.worker.ts', import.meta.url), { type: 'module' })
  try {
    return await wrap<RawApi>(worker).readAll(file(), block, depth, passes, sliced)
  } finally {
    worker.terminate()
  }
}

function append(target: number[], values: ArrayLike<number>): void {
  for (let i = 0; i < values.length; i++) target.push(values[i] ?? 0)
}

async function spinProbe(block: number, n: number, spinMs: number, sliceMs = 0): Promise<number[]> {
  const worker = new Worker(new URL('./raw.worker.ts', import.meta.url), { type: 'module' })
  try {
    return await wrap<RawApi>(worker).spinProbe(file(), block, n, spinMs, sliceMs)
  } finally {
    worker.terminate()
  }
}

/** The index walk alone in a plain worker: what the walk costs apart from the index worker's messages. */
async function walk(check: boolean, blockSize?: number): Promise<{ ms: number; timing: ScanTiming }> {
  const worker = new Worker(new URL('./raw.worker.ts', import.meta.url), { type: 'module' })
  try {
    return await wrap<RawApi>(worker).walk(file(), check, blockSize)
  } finally {
    worker.terminate()
  }
}

/** Runs the app's index worker over the whole file; keeps the index for decode(). */
async function index(
  checkBeside = false,
  countStats = false,
): Promise<{ ms: number; firstMs: number; lastSliceMs: number; summary: ScanSummary }> {
  const worker = new Worker(new URL('../../src/workers/index.worker.ts', import.meta.url), { type: 'module' })
  const api: Remote<IndexApi> = wrap<IndexApi>(worker)
  const got: Indexed = {
    opened: undefined as unknown as OpenedFile,
    convention: 'header-inclusive',
    offset: [],
    nbytes: [],
    nrec: [],
  }
  // Slices are only kept while timing (the app's page keeps typed slices too); flattened after.
  const slices: ChunkIndex[] = []
  const add = (slice: ChunkIndex): void => {
    slices.push(slice)
  }
  const started = performance.now()
  let firstMs = -1
  let lastSliceMs = -1
  try {
    const summary = await api.scan(
      { kind: 'file', file: file() },
      1,
      proxy({
        indexSource: () => undefined,
        cachedIndex: () => undefined,
        cacheRejected: () => undefined,
        opened: (o: OpenedFile) => {
          got.opened = o
        },
        first: (slice: ChunkIndex, _chunks: unknown, convention: NbytesConvention) => {
          firstMs = performance.now() - started
          got.convention = convention
          add(slice)
        },
        index: (slice: ChunkIndex, convention: NbytesConvention) => {
          got.convention = convention
          add(slice)
          lastSliceMs = performance.now() - started
        },
        progress: () => undefined,
      }),
      { checkBeside, countStats },
    )
    const ms = performance.now() - started
    for (const slice of slices) {
      append(got.offset, slice.offset)
      append(got.nbytes, slice.nbytes)
      append(got.nrec, slice.nrec)
    }
    last = got
    return { ms, firstMs, lastSliceMs, summary }
  } finally {
    worker.terminate()
  }
}

/**
 * Decodes every indexed chunk as the app would for a whole-file pass (e.g.
 * per-barcode statistics): a DecodePool of `n` of the app's decode workers
 * through the one pass runner (bulkDecode.ts: ~32 MiB batches, 2 calls in flight per
 * worker, each batch's buffer handed back to be read into again). With
 * `countOnly`, decodeOnly.worker.ts takes the same batches and times the
 * decoding apart from the rest (its reads).
 */
async function decode(
  n: number,
  countOnly = false,
): Promise<{ ms: number; records: number; bytes: number; spent: number }> {
  const got = last
  if (!got) throw new Error('index() first')
  const reqs: ChunkRequest[] = got.offset.map((offset, k) => ({ chunk: k, offset, nbytes: got.nbytes[k] ?? 0 }))
  if (countOnly) return decodeApart(n, got, reqs)
  let failed: string | undefined
  const pool = new DecodePool(
    { kind: 'file', file: file() },
    {
      size: n,
      createWorker: () =>
        new Worker(new URL('../../src/workers/decode.worker.ts', import.meta.url), { type: 'module' }),
      onWorkerFailed: (message) => {
        failed = message
      },
    },
  )
  try {
    pool.open(got.opened.prelude, got.opened.container)
    pool.setConvention(got.convention)
    // Start every worker (one chunk each, far apart so they are not batched together) before the clock.
    await Promise.all(Array.from({ length: n }, (_, i) => pool.request(reqs[i * 2] ?? (reqs[0] as ChunkRequest), 0)))
    let records = 0
    let bytes = 0
    const started = performance.now()
    const { calls, convention } = pool.workers()
    await bulkDecode(calls, convention, reqs, (c) => {
      records += c.recordCount
      bytes += c.nbytes
    })
    if (failed) throw new Error(failed)
    return { ms: performance.now() - started, records, bytes, spent: 0 }
  } finally {
    pool.dispose()
  }
}

/** What stats() answers: its time and the JSON's headline figures (bench/pageStats.ts compares them). */
export interface StatsPassFigures {
  ms: number
  records: number
  bytes: number
  knee: number | null
  barcodes: number | null
  pairs: number | null
}

let statsPool: DecodePool | undefined

/** Starts `n` of the app's decode workers (as the page has them before its pass) for stats(). */
async function statsWorkers(n: number): Promise<void> {
  const got = last
  if (!got) throw new Error('index() first')
  const reqs = requestsOf(got)
  statsPool?.dispose()
  const pool = new DecodePool(
    { kind: 'file', file: file() },
    {
      size: n,
      createWorker: () =>
        new Worker(new URL('../../src/workers/decode.worker.ts', import.meta.url), { type: 'module' }),
      onWorkerFailed: () => undefined,
    },
  )
  pool.open(got.opened.prelude, got.opened.container)
  pool.setConvention(got.convention)
  await Promise.all(Array.from({ length: n }, (_, i) => pool.request(reqs[i * 2] ?? (reqs[0] as ChunkRequest), 0)))
  statsPool = pool
}

function requestsOf(got: Indexed): ChunkRequest[] {
  return got.offset.map((offset, k) => ({ chunk: k, offset, nbytes: got.nbytes[k] ?? 0 }))
}

/**
 * The app's statistics pass (statsPass.ts) over every indexed chunk, on the
 * decode workers statsWorkers() started (or `n` fresh ones, disposed after),
 * timed as decode() is: from its first call to its final report. Returns the
 * JSON's headline figures to check it counted everything.
 */
async function stats(n: number): Promise<StatsPassFigures> {
  const got = last
  if (!got) throw new Error('index() first')
  const reqs = requestsOf(got)
  const kept = statsPool !== undefined && statsPool.workers().calls.length === n
  if (!kept) await statsWorkers(n)
  const pool = statsPool as DecodePool
  try {
    const { calls, convention } = pool.workers()
    const started = performance.now()
    const report = await runStatsPass(calls, convention, reqs, {
      pass: 1,
      signal: new AbortController().signal,
      onProgress: () => undefined,
      onPartial: () => undefined,
    })
    const bytes = reqs.reduce((s, r) => s + r.nbytes, 0)
    const { json } = report
    const pairs = json.umis?.distinct_pairs ?? null
    return {
      ms: performance.now() - started,
      records: json.records,
      bytes,
      knee: json.knee,
      barcodes: json.barcodes?.distinct ?? null,
      pairs,
    }
  } finally {
    if (!kept) {
      pool.dispose()
      statsPool = undefined
    }
  }
}

interface SplitApi {
  open(file: Blob, prelude: Prelude): Promise<void>
  decode(batch: ChunkRequest[], convention: NbytesConvention): Promise<{ records: number; bytes: number }>
  spent(): Promise<number>
}

/** The bulk pass's batches and calls in flight on decodeOnly workers, which return counts and time their decoding. */
async function decodeApart(
  n: number,
  got: Indexed,
  reqs: ChunkRequest[],
): Promise<{ ms: number; records: number; bytes: number; spent: number }> {
  const workers = Array.from(
    { length: n },
    () => new Worker(new URL('./decodeOnly.worker.ts', import.meta.url), { type: 'module' }),
  )
  try {
    const apis = workers.map((w) => wrap<SplitApi>(w))
    await Promise.all(apis.map((a) => a.open(file(), got.opened.prelude)))
    const batches = passBatches(reqs, got.convention)
    let next = 0
    let records = 0
    let bytes = 0
    const started = performance.now()
    const lanes = Array.from({ length: n * BULK_DEPTH }, (_, i) => apis[i % n] as Remote<SplitApi>)
    await Promise.all(
      lanes.map(async (api) => {
        for (let batch = batches[next++]; batch; batch = batches[next++]) {
          const r = await api.decode(batch, got.convention)
          records += r.records
          bytes += r.bytes
        }
      }),
    )
    const ms = performance.now() - started
    const spent = await (apis[0] as Remote<SplitApi>).spent()
    return { ms, records, bytes, spent }
  } finally {
    for (const w of workers) w.terminate()
  }
}

Object.assign(window, { radBench: { rawRead, walk, spinProbe, index, decode, stats, statsWorkers, ready: true } })
