/**
 * The in-browser half of `npm run bench` (issue 4). Runs the app's real
 * workers (index.worker.ts, decode.worker.ts) on a File set through the
 * page's file input, and a plain reader for the browser's raw limit.
 */
import { proxy, wrap } from 'comlink'
import type { Remote } from 'comlink'
import '../../src/workers/comlinkErrors'
import type { DecodeApi, IndexApi, OpenedFile, ScanSummary } from '../../src/workers/protocol'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import type { NbytesConvention } from '../../src/rad/types'

interface RawApi {
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

/** Runs the app's index worker over the whole file; keeps the index for decode(). */
async function index(): Promise<{ ms: number; firstMs: number; summary: ScanSummary }> {
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
  try {
    const summary = await api.scan(
      file(),
      1,
      proxy({
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
        },
        progress: () => undefined,
      }),
    )
    const ms = performance.now() - started
    for (const slice of slices) {
      append(got.offset, slice.offset)
      append(got.nbytes, slice.nbytes)
      append(got.nrec, slice.nrec)
    }
    last = got
    return { ms, firstMs, summary }
  } finally {
    worker.terminate()
  }
}

/** Decodes every indexed chunk with `n` of the app's decode workers; batches of ~8 MiB. */
interface DecodeOptions {
  batch?: number
  depth?: number
  kind?: string
}

async function decode(
  n: number,
  countOnly = false,
  opts: DecodeOptions = {},
): Promise<{ ms: number; records: number; bytes: number; spent: number }> {
  const got = last
  if (!got) throw new Error('index() first')
  const kind = opts.kind ?? (countOnly ? 'count' : 'app')
  const make = (): Worker =>
    kind === 'count'
      ? new Worker(new URL('./decodeOnly.worker.ts', import.meta.url), { type: 'module' })
      : kind === 'exp'
        ? new Worker(new URL('./_exp.worker.ts', import.meta.url), { type: 'module' })
        : new Worker(new URL('../../src/workers/decode.worker.ts', import.meta.url), { type: 'module' })
  const workers = Array.from({ length: n }, make)
  const apis = workers.map((w) => wrap<DecodeApi>(w))
  try {
    await Promise.all(apis.map((a) => a.open(file(), got.opened.prelude, got.opened.container)))
    const flags = (window as unknown as { benchFlags?: { readOnly?: boolean } }).benchFlags
    if (countOnly && flags?.readOnly) {
      await Promise.all(apis.map((a) => (a as unknown as { setReadOnly(v: boolean): Promise<void> }).setReadOnly(true)))
    }
    const batches: { chunk: number; offset: number; nbytes: number }[][] = []
    let batch: { chunk: number; offset: number; nbytes: number }[] = []
    let batchBytes = 0
    for (let k = 0; k < got.offset.length; k++) {
      batch.push({ chunk: k, offset: got.offset[k] ?? 0, nbytes: got.nbytes[k] ?? 0 })
      batchBytes += got.nbytes[k] ?? 0
      if (batchBytes >= (opts.batch ?? 8) << 20) {
        batches.push(batch)
        batch = []
        batchBytes = 0
      }
    }
    if (batch.length > 0) batches.push(batch)
    let next = 0
    let records = 0
    let bytes = 0
    const started = performance.now()
    // Two calls in flight per worker: the next batch's Blob read overlaps this batch's decoding.
    await Promise.all(
      Array.from({ length: (opts.depth ?? 2) * n }, (_, i) => apis[i % n]!).map(async (api) => {
        for (;;) {
          const mine = batches[next++]
          if (!mine) return
          let rest = mine
          while (rest.length > 0) {
            const cols = await api.decode(rest, got.convention)
            if (cols.length === 0) throw new Error(`chunk ${String(rest[0]?.chunk)} failed`)
            for (const c of cols) {
              records += c.recordCount
              bytes += c.nbytes
            }
            rest = rest.slice(cols.length)
          }
        }
      }),
    )
    const spent = countOnly ? await (apis[0] as unknown as { spent(): Promise<number> }).spent() : 0
    return { ms: performance.now() - started, records, bytes, spent }
  } finally {
    for (const w of workers) w.terminate()
  }
}

/** Scratch: decodeChunk alone in a worker over the first `mb` MiB of chunks. */
async function micro(mb: number, iters: number): Promise<{ bytes: number; times: number[] }> {
  const got = last
  if (!got) throw new Error('index() first')
  const worker = new Worker(new URL('./_exp.worker.ts', import.meta.url), { type: 'module' })
  const api = wrap<{
    open(f: Blob, p: unknown): Promise<void>
    micro(b: unknown, c: NbytesConvention, i: number): Promise<{ bytes: number; times: number[]; kern?: unknown }>
  }>(worker)
  try {
    await api.open(file(), got.opened.prelude)
    const batch = []
    let bytes = 0
    for (let k = 0; k < got.offset.length && bytes < mb << 20; k++) {
      batch.push({ chunk: k, offset: got.offset[k] ?? 0, nbytes: got.nbytes[k] ?? 0 })
      bytes += got.nbytes[k] ?? 0
    }
    return await api.micro(batch, got.convention, iters)
  } finally {
    worker.terminate()
  }
}

Object.assign(window, { radBench: { rawRead, index, decode, micro, ready: true } })
