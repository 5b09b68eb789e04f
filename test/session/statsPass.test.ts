import { describe, expect, it } from 'vitest'
import { BlobSource } from '../../src/io/blobSource'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { createStatsAccumulator, statsJson, statsTransferables } from '../../src/rad/stats'
import { DecodePool } from '../../src/session/rows/decodePool'
import { runStatsPass } from '../../src/session/passes/statsPass'
import type { StatsProgress } from '../../src/session/passes/statsPass'
import type { ChunkRequest, StatsReport } from '../../src/workers/protocol'
import { breakChunk, file, prelude, requests } from '../helpers/salmonChunks'
import { statsWorker } from '../helpers/statsWorker'
import { makeDecoder } from '../../src/workers/walkBatch'
import { statsMethods } from '../../src/workers/statsWorker'

/** The statistics of every chunk but `skip`, computed in one accumulator on this thread. */
function direct(skip = -1): unknown {
  const sem = inferSemantics(prelude)
  const acc = createStatsAccumulator(prelude, sem)
  for (const r of requests()) {
    if (r.chunk === skip) continue
    acc.addChunk(decodeChunk(file.subarray(r.offset), r.offset, r.chunk, prelude, 'header-inclusive'))
  }
  return statsJson(acc.exportState(), prelude, sem)
}

async function pass(
  bytes: Uint8Array<ArrayBuffer>,
  workers: number,
): Promise<{ report: StatsReport; last: StatsProgress | undefined }> {
  const pool = new DecodePool(
    { kind: 'file', file: new Blob([bytes]) },
    {
      size: workers,
      createWorker: statsWorker,
      onWorkerFailed: () => undefined,
    },
  )
  try {
    pool.open(prelude, 'none')
    pool.setConvention('header-inclusive')
    const { calls, convention } = pool.workers()
    let last: StatsProgress | undefined
    const report = await runStatsPass(calls, convention, requests(), {
      pass: 1,
      signal: new AbortController().signal,
      onProgress: (p) => {
        last = p
      },
      onPartial: () => undefined,
    })
    return { report, last }
  } finally {
    pool.dispose()
  }
}

/** Two decode workers' statistics methods, called on this thread, begun for `pass` as its two owners. */
async function twoWorkers(pass: number) {
  const workers = [0, 1].map(() => {
    const decoder = makeDecoder(new BlobSource(new Blob([file.slice()])), prelude)
    return statsMethods(() => Promise.resolve(decoder))
  })
  await Promise.all(workers.map((w, index) => w.statsBegin(pass, { count: 2, index })))
  return workers
}

describe('runStatsPass', () => {
  it('gives the JSON of one accumulator over the whole file, with 1 and 3 workers merged', async () => {
    const want = direct()
    for (const n of [1, 3]) {
      const { report, last } = await pass(file.slice(), n)
      expect(report.json).toEqual(want)
      expect(last?.chunks).toBe(requests().length)
      expect(last?.etaMs).toBe(0)
      expect(report.curve?.barcodes).toBe((want as { barcodes: { distinct: number } }).barcodes.distinct)
    }
  })

  it('reports on the way from copies of the other workers figures, and they go on counting', async () => {
    const workers = await twoWorkers(7)
    const reqs = requests()
    const half = Math.ceil(reqs.length / 2)
    const feed = async (batches: ChunkRequest[][], first = 0) => {
      let records = 0
      for (const [i, batch] of batches.entries()) {
        const r = await workers[(first + i) % 2]!.statsBatch(7, batch, 'header-inclusive')
        r.foreign.forEach((rows, owner) => {
          if (rows) workers[owner]!.statsRows(7, rows)
        })
        records += r.records
      }
      return records
    }
    await feed([reqs.slice(0, half), reqs.slice(half)])
    const partial = workers[0]!.statsReport(7, [workers[1]!.statsSnapshot(7)])
    expect(partial.json).toEqual(direct())
    const more = await feed([reqs.slice(0, 1)], 1) // worker 1 still holds what it counted
    expect(workers.map((w) => w.statsExactPairs(7))).toEqual([true, true])
    // Its figures without its pairs' UMIs: they merge exactly into worker 0's, of other buckets.
    const drained = workers[1]!.statsDrain(7, 'figures')
    expect(drained.partitions?.umis.every((u) => u.length === 0)).toBe(true)
    workers[0]!.statsMerge(7, [drained])
    expect(workers[0]!.statsReport(7).json.records).toBe((direct() as { records: number }).records + more)
  })

  it('gives a snapshot away whole: transferred, the worker’s own counts stay intact', async () => {
    const workers = await twoWorkers(9)
    const reqs = requests()
    const half = Math.ceil(reqs.length / 2)
    for (const [i, batch] of [reqs.slice(0, half), reqs.slice(half)].entries()) {
      const r = await workers[i]!.statsBatch(9, batch, 'header-inclusive')
      r.foreign.forEach((rows, owner) => {
        if (rows) workers[owner]!.statsRows(9, rows)
      })
    }
    // As the page passes it on (statsPass.ts): every buffer transferred, so detached here.
    const snapshot = workers[1]!.statsSnapshot(9)
    const buffers = statsTransferables(snapshot)
    const moved = structuredClone(snapshot, { transfer: buffers })
    expect(buffers.every((b) => b.byteLength === 0)).toBe(true)
    expect(workers[0]!.statsReport(9, [moved]).json).toEqual(direct())
    expect(workers[0]!.statsReport(9, [workers[1]!.statsSnapshot(9)]).json).toEqual(direct())
  })

  it('hands the rows of the other worker’s buckets over its channel, not through the page, and counts them all', async () => {
    const workers = [0, 1].map(() => {
      const decoder = makeDecoder(new BlobSource(new Blob([file.slice()])), prelude)
      return statsMethods(() => Promise.resolve(decoder))
    })
    await Promise.all(workers.map((w, index) => w.statsBegin(8, { count: 2, index })))
    const channel = new MessageChannel()
    await workers[0]!.statsPeers(8, [undefined, channel.port1])
    await workers[1]!.statsPeers(8, [channel.port2, undefined])
    const reqs = requests()
    for (const [i, batch] of reqs.map((r) => [r]).entries()) {
      const r = await workers[i % 2]!.statsBatch(8, batch, 'header-inclusive')
      expect(r.foreign.every((rows) => rows === undefined)).toBe(true)
    }
    await Promise.all(workers.map((w) => w.statsPeersDone(8)))
    workers[0]!.statsMerge(8, [workers[1]!.statsDrain(8, 'figures')])
    expect(workers[0]!.statsReport(8).json).toEqual(direct())
    for (const w of workers) w.statsEnd(8)
  })

  it('leaves out a chunk that does not decode and counts it as skipped', async () => {
    const { bytes } = breakChunk(1)
    const { report, last } = await pass(bytes, 2)
    expect(last?.skippedChunks).toBe(1)
    expect(report.json).toEqual(direct(1))
  })

  it('stops with CANCELLED when its signal is aborted', async () => {
    const pool = new DecodePool(
      { kind: 'file', file: new Blob([file.slice()]) },
      {
        size: 1,
        createWorker: statsWorker,
        onWorkerFailed: () => undefined,
      },
    )
    try {
      pool.open(prelude, 'none')
      pool.setConvention('header-inclusive')
      const { calls, convention } = pool.workers()
      const abort = new AbortController()
      abort.abort()
      await expect(
        runStatsPass(calls, convention, requests(), {
          pass: 2,
          signal: abort.signal,
          onProgress: () => undefined,
          onPartial: () => undefined,
        }),
      ).rejects.toThrow(/cancelled/)
    } finally {
      pool.dispose()
    }
  })
})
