/**
 * The statistics pass the index walk feeds (ADR 0017): the walk's clean runs go over channels
 * (WalkFeed) to two decode workers' statistics methods (FeedIn), which count them as they come; the
 * chunks the walk did not feed (straddling its blocks, or all of them when the feed stopped) are
 * read by the pass itself. The report must equal the pass that reads every chunk.
 */
import { describe, expect, it } from 'vitest'
import { BlobSource } from '../../src/io/blobSource'
import { scanChunks } from '../../src/io/scanChunks'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import type { NbytesConvention } from '../../src/rad/types'
import { runFedStatsPass, runStatsPass } from '../../src/session/passes/statsPass'
import type { StatsProgress, WalkedRest } from '../../src/session/passes/statsPass'
import { DecodePool } from '../../src/session/rows/decodePool'
import { chunksNotFed, indexedBytes, indexedChunks } from '../../src/session/rows/lanes'
import type { IndexedChunks } from '../../src/session/rows/lanes'
import { WalkFeed } from '../../src/workers/walkFeed'
import type { FedRanges, FeedMessage } from '../../src/workers/protocol'
import { salmonScRna } from '../helpers/assays'
import type { ScRead } from '../helpers/assays'
import { radBytes } from '../helpers/radWriter'
import { statsWorker } from '../helpers/statsWorker'

/** `n` scRNA reads over a few hundred barcodes and UMIs, 1–3 alignments each. */
function reads(n: number): ScRead[] {
  const bases = 'ACGT'
  const seq = (v: number, len: number) => Array.from({ length: len }, (_, i) => bases[(v >> (2 * i)) & 3]).join('')
  return Array.from({ length: n }, (_, i) => ({
    cb: seq((i * 7919) % 613, 16),
    umi: seq((i * 13) % 4001, 12),
    alns: Array.from({ length: 1 + (i % 3) }, (_, a) => ({ ref: (i + a) % 6, fw: (i + a) % 2 === 0 })),
  }))
}

const asIndexed = (index: ChunkIndex): IndexedChunks => ({
  count: index.count,
  offset: (k) => index.offset[k]!,
  nbytes: (k) => index.nbytes[k]!,
})

function poolOf(bytes: Uint8Array<ArrayBuffer>, convention: NbytesConvention): DecodePool {
  const prelude = parsePrelude(bytes, bytes.length)
  const pool = new DecodePool(
    { kind: 'file', file: new Blob([bytes]) },
    { size: 2, createWorker: () => statsWorker(prelude), onWorkerFailed: () => undefined },
  )
  pool.open(prelude, 'none')
  pool.setConvention(convention)
  return pool
}

/** The pass reading every chunk itself, as before the feed. */
async function readPass(bytes: Uint8Array<ArrayBuffer>, convention: NbytesConvention): Promise<unknown> {
  const pool = poolOf(bytes, convention)
  try {
    const prelude = parsePrelude(bytes, bytes.length)
    const scan = await scanChunks(new BlobSource(new Blob([bytes])), prelude)
    const { calls } = pool.workers()
    const reqs = indexedChunks(asIndexed(scan.index))
    const quiet = (): void => undefined
    const report = await runStatsPass(calls, convention, reqs, {
      pass: 1,
      signal: new AbortController().signal,
      onProgress: quiet,
      onPartial: quiet,
    })
    return report.json
  } finally {
    pool.dispose()
  }
}

/** The pass begun beside the walk, fed as the walk checks the chunks (64 KiB blocks, `feedBytes` buffers). */
async function fedPass(
  bytes: Uint8Array<ArrayBuffer>,
  convention: NbytesConvention,
  feedBytes: number,
  stopFirst = false,
): Promise<{ json: unknown; fed: FedRanges; rest: WalkedRest; last: StatsProgress | undefined }> {
  const pool = poolOf(bytes, convention)
  try {
    const prelude = parsePrelude(bytes, bytes.length)
    const { calls } = pool.workers()
    const channels = calls.map(() => new MessageChannel())
    let walkEnded: (rest: WalkedRest) => void = () => undefined
    const walked = new Promise<WalkedRest>((resolve) => {
      walkEnded = resolve
    })
    let last: StatsProgress | undefined
    const running = runFedStatsPass(
      calls,
      { ports: channels.map((c) => c.port1), expectedBytes: bytes.length, walked },
      {
        pass: 1,
        signal: new AbortController().signal,
        onProgress: (p) => {
          last = p
        },
        onPartial: () => undefined,
      },
    )
    const feed = new WalkFeed(
      channels.map((c) => c.port2),
      feedBytes,
    )
    if (stopFirst) feed.stop()
    const scan = await scanChunks(new BlobSource(new Blob([bytes])), prelude, {
      check: makeCheckPlan(prelude, inferSemantics(prelude)),
      blockSize: 64 << 10,
      onCleanRun: feed.offer,
    })
    const fed = feed.finish()
    const index = asIndexed(scan.index)
    const rest = {
      convention: scan.convention,
      reqs: chunksNotFed(index, fed),
      totalChunks: index.count,
      totalBytes: indexedBytes(index),
    }
    walkEnded(rest)
    const report = await running
    return { json: report.json, fed, rest, last }
  } finally {
    pool.dispose()
  }
}

describe('the statistics pass the index walk feeds', () => {
  for (const convention of ['header-inclusive', 'payload-only'] as const) {
    it(`equals the pass that reads every chunk (${convention})`, async () => {
      const bytes = radBytes({ ...salmonScRna(reads(6000), 23), nbytes: convention }) as Uint8Array<ArrayBuffer>
      const want = await readPass(bytes, convention)
      const { json, fed, rest, last } = await fedPass(bytes, convention, 96 << 10)
      expect(json).toEqual(want)
      // Every chunk came from the walk: its clean runs, and the chunks straddling its blocks.
      expect(fed.chunks).toBe(rest.totalChunks)
      expect(rest.reqs).toEqual([])
      expect(last?.chunks).toBe(rest.totalChunks)
      expect(last?.bytes).toBe(rest.totalBytes)
    })
  }

  it('a damaged chunk is not fed: the pass reads it and leaves it out, as the reading pass does', async () => {
    const bytes = radBytes(salmonScRna(reads(6000), 23)) as Uint8Array<ArrayBuffer>
    const prelude = parsePrelude(bytes, bytes.length)
    const clean = await scanChunks(new BlobSource(new Blob([bytes])), prelude)
    const damaged = Math.floor(clean.index.count / 2)
    // One more record than the chunk holds: its records no longer fill it (§4.1).
    const at = clean.index.offset[damaged]! + 4
    new DataView(bytes.buffer).setUint32(at, new DataView(bytes.buffer).getUint32(at, true) + 1, true)
    const want = await readPass(bytes, 'header-inclusive')
    const { json, fed, rest, last } = await fedPass(bytes, 'header-inclusive', 96 << 10)
    expect(json).toEqual(want)
    expect(rest.reqs.map((r) => r.chunk)).toEqual([damaged])
    expect(fed.chunks).toBe(rest.totalChunks - 1)
    expect(last?.skippedChunks).toBe(1)
  })

  it('a feed stopped before the walk: the pass reads every chunk itself, the same report', async () => {
    const bytes = radBytes(salmonScRna(reads(3000), 23)) as Uint8Array<ArrayBuffer>
    const want = await readPass(bytes, 'header-inclusive')
    const { json, fed, rest } = await fedPass(bytes, 'header-inclusive', 96 << 10, true)
    expect(fed.chunks).toBe(0)
    expect(rest.reqs.length).toBe(rest.totalChunks)
    expect(json).toEqual(want)
  })
})

describe('WalkFeed', () => {
  const convention = 'header-inclusive'
  const run = (n: number, fill: number) => new Uint8Array(n).fill(fill)

  it('fills buffers with back-to-back runs as one segment, and lists what it fed', async () => {
    const { port1, port2 } = new MessageChannel()
    const got: FeedMessage[] = []
    // Resolves on the walk's `end`, the last message: every message before it has come.
    const ended = new Promise<void>((resolve) => {
      port2.onmessage = (e: MessageEvent<FeedMessage>) => {
        got.push(e.data)
        if (e.data.kind === 'end') resolve()
      }
    })
    const feed = new WalkFeed([port1], 100)
    expect(feed.offer(run(40, 1), 1000, 0, 2, convention)).toBeUndefined()
    expect(feed.offer(run(40, 2), 1040, 2, 3, convention)).toBeUndefined()
    // A gap (a chunk the walk checked on its careful path): a new segment in the same buffer.
    expect(feed.offer(run(12, 3), 1100, 6, 1, convention)).toBeUndefined()
    // No room left: the buffer goes, the next one takes the run.
    expect(feed.offer(run(30, 4), 1112, 7, 1, convention)).toBeUndefined()
    const fed = feed.finish()
    expect(fed).toEqual({ ranges: [1000, 1080, 1100, 1142], bytes: 122, chunks: 7 })
    await ended
    const [first, second, end] = got
    expect(first?.kind === 'bytes' && [first.length, first.segments]).toEqual([92, [1000, 80, 0, 1100, 12, 6]])
    expect(second?.kind === 'bytes' && [second.length, second.segments]).toEqual([30, [1112, 30, 7]])
    expect(end).toEqual({ kind: 'end' })
    port1.close()
    port2.close()
  })

  it('waits for a buffer back, and stops feeding when none comes back in time', async () => {
    const { port1, port2 } = new MessageChannel()
    port2.onmessage = () => undefined // a worker that never gives a buffer back
    const feed = new WalkFeed([port1], 64, 30)
    // Two buffers lent, each filled by one run.
    expect(feed.offer(run(60, 1), 0, 0, 1, convention)).toBeUndefined()
    expect(feed.offer(run(60, 1), 60, 1, 1, convention)).toBeUndefined()
    const waiting = feed.offer(run(60, 1), 120, 2, 1, convention)
    expect(waiting).toBeInstanceOf(Promise)
    await waiting
    // Stopped: the walk goes on alone, and the runs are not listed as fed.
    expect(feed.offer(run(60, 1), 180, 3, 1, convention)).toBeUndefined()
    expect(feed.finish()).toEqual({ ranges: [0, 120], bytes: 120, chunks: 2 })
    port1.close()
    port2.close()
  })

  it('a run larger than a buffer is left to the pass', () => {
    const { port1, port2 } = new MessageChannel()
    const feed = new WalkFeed([port1], 64)
    expect(feed.offer(run(65, 1), 0, 0, 1, convention)).toBeUndefined()
    expect(feed.finish()).toEqual({ ranges: [], bytes: 0, chunks: 0 })
    port1.close()
    port2.close()
  })
})

describe('chunksNotFed', () => {
  it('leaves out the chunks inside the fed ranges', () => {
    const offsets = [10, 20, 30, 40, 50, 60]
    const index: IndexedChunks = { count: offsets.length, offset: (k) => offsets[k]!, nbytes: () => 10 }
    const chunks = (fed: FedRanges | undefined) => chunksNotFed(index, fed).map((r) => r.chunk)
    expect(chunks(undefined)).toEqual([0, 1, 2, 3, 4, 5])
    expect(chunks({ ranges: [10, 30, 40, 60], bytes: 40, chunks: 4 })).toEqual([2, 5])
    expect(chunks({ ranges: [30, 70], bytes: 40, chunks: 4 })).toEqual([0, 1])
  })
})
