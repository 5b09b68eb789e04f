/**
 * The statistics pass inside a decode worker (protocol.ts): decode a
 * batch into this worker's own read buffers and add every chunk to its
 * accumulator, so no record's columns ever leave the worker. Imported by
 * decode.worker.ts.
 */
import { transfer } from 'comlink'
import { RadError, fmtInt } from '../rad/errors'
import { inferSemantics } from '../rad/prelude/semantics'
import type { NbytesConvention } from '../rad/types'
import type { BucketOwners, ChunkRequest, SpillPlan, StatsBatchResult, StatsWorkerApi } from './protocol'
import { ReadBuffers, chunksIn, visitChunks, walkBatch } from './walkBatch'
import type { ChunkVisit, Decoder } from './walkBatch'
import {
  barcodeRuns,
  barcodesAtLeast,
  statsTsvText,
  createStatsAccumulator,
  expectCellsCutoff,
  forceCellsCutoff,
  statsJson,
  reportState,
  statsTransferables,
} from '../rad/stats'
import type { CountRuns, StatsAccumulator, StatsState } from '../rad/stats'
import { rankCurveOf, umiRankCurveOf } from '../rad/stats/section'
import type { Semantics } from '../rad/prelude/semantics'
import type { StatsReport } from './protocol'
import { OpfsSpill } from './opfsSpill'
import { StatsPeers } from './statsPeers'
import { FeedIn } from './statsFeed'
import type { FedTotals } from './statsProtocol'

interface Pass {
  id: number
  /** The file its lists spill to (removed when the pass ends or drains), if it may spill. */
  spill: OpfsSpill | undefined
  /** Bytes spilled by files already removed (a drained accumulator's). */
  spilledBefore: number
  /** The channels to the pass's other workers, when the page gave them (statsPeers). */
  peers: StatsPeers | undefined
  /** The index walk's channel, when it feeds this pass (statsFeed, ADR 0017). */
  feed: FeedIn | undefined
  decoder: Decoder
  sem: Semantics
  acc: StatsAccumulator
  owners: BucketOwners
  /** Barcodes it keeps a row for (SpillPlan.rowsUpTo). */
  rowsUpTo: number
  /** Reads per barcode, descending, as of the last report (the cut-offs are asked of it). */
  descending: CountRuns | undefined
}

/** This worker's read buffers: once a batch's columns are added to the accumulator, its buffer is free. */
const buffers = new ReadBuffers()

export function statsMethods(decoder: () => Promise<Decoder>): StatsWorkerApi {
  let pass: Pass | undefined
  let starting: Promise<Pass> | undefined
  const current = async (id: number): Promise<Pass> => {
    const p = pass ?? (await starting)
    if (!p || p.id !== id) throw new RadError('CANCELLED', 'that statistics pass has ended')
    return p
  }
  const currentNow = (id: number): Pass => {
    if (!pass || pass.id !== id) throw new RadError('CANCELLED', 'that statistics pass has ended')
    return pass
  }
  return {
    async statsBegin(id, owners = { count: 1, index: 0 }, plan) {
      void pass?.spill?.remove()
      pass?.peers?.close()
      pass = undefined
      starting = decoder().then(async (d) => (pass = await startPass(id, d, owners, plan)))
      await starting
    },
    async statsBatch(id, batch, convention) {
      const p = await current(id)
      return addBatch(p, batch, convention)
    },
    async statsPeers(id, ports) {
      const p = await current(id)
      p.peers?.close()
      p.peers = new StatsPeers(ports, (rows) => {
        p.acc.addForeignRows(rows)
      })
    },
    async statsPeersDone(id) {
      await currentNow(id).peers?.end()
    },
    ...feedMethods(current, currentNow),
    statsRows(id, rows) {
      currentNow(id).acc.addForeignRows(rows)
    },
    statsDrain(id, what = 'whole') {
      const p = currentNow(id)
      const state = p.acc.exportState(what)
      p.acc = createStatsAccumulator(p.decoder.prelude, p.sem, { pairShift: state.pairShift, bucketOwners: p.owners })
      // Drained at the pass's end: what it spilled is in the state now.
      releaseSpill(p)
      return transfer(state, statsTransferables(state))
    },
    statsSettle(id, what) {
      const p = currentNow(id)
      p.acc.settle(what, p.rowsUpTo)
      releaseSpill(p)
    },
    statsExactPairs(id) {
      return currentNow(id).acc.exactPairs
    },
    statsSnapshot(id) {
      // Transferred, not cloned: a copy already (reportState), and on a run whose barcodes are
      // nearly all distinct it holds millions of them; a clone here and another on its way to
      // worker 0 took the renderer past 512 MiB at times (bench/results.md, issue 35).
      const state = reportState(currentNow(id).acc.exportState('partial'))
      return transfer(state, statsTransferables(state))
    },
    statsMerge(id, states) {
      const p = currentNow(id)
      for (const s of states) p.acc.merge(s)
    },
    statsReport(id, others) {
      const p = currentNow(id)
      const report = others ? reportOf(p, sumSoFar(p, others)) : reportOf(p, p.acc)
      // The final report merged what this worker spilled: its file is no longer read.
      if (!others) releaseSpill(p)
      return report.curve
        ? transfer(report, [report.curve.rank.buffer, report.curve.count.buffer, report.curve.cumulative.buffer])
        : report
    },
    statsCutoffs(id, expectCells, forceCells) {
      const desc = currentNow(id).descending ?? []
      return {
        expect: expectCells === undefined ? undefined : expectCellsCutoff(desc, expectCells),
        force: forceCells === undefined ? undefined : forceCellsCutoff(desc, forceCells),
      }
    },
    statsBarcodesAtLeast(id, minCount) {
      const set = barcodesAtLeast(rowsOf(currentNow(id), 'the cells need'), minCount)
      return transfer(set, [set.keys.buffer])
    },
    statsTsv(id) {
      const p = currentNow(id)
      const state = rowsOf(p, 'the TSV lists')
      const knee = statsJson(state, p.decoder.prelude, p.sem).cutoffs?.knee?.minCount ?? null
      return statsTsvText(state, p.sem, knee)
    },
    statsSpilled(id) {
      const p = currentNow(id)
      return p.spilledBefore + (p.spill?.size ?? 0)
    },
    statsEnd(id) {
      if (pass?.id !== id) return
      void pass.spill?.remove()
      pass.peers?.close()
      pass.feed?.close()
      pass = undefined
    },
  }
}

/** The index walk's feed into a pass (ADR 0017): its channel, and the end of what it sent. */
function feedMethods(
  current: (id: number) => Promise<Pass>,
  currentNow: (id: number) => Pass,
): Pick<StatsWorkerApi, 'statsFeed' | 'statsFedDone'> {
  return {
    async statsFeed(id, port) {
      const p = await current(id)
      p.feed?.close()
      p.feed = new FeedIn(port, (bytes, segments, convention) => countFed(p, bytes, segments, convention))
    },
    async statsFedDone(id) {
      const feed = currentNow(id).feed
      return feed ? await feed.done() : { chunks: 0, bytes: 0, records: 0, bad: [] }
    },
  }
}

/** A pass's accumulator, spilling to a file of the origin's private file system when `plan` asks and there is room. */
async function startPass(id: number, d: Decoder, owners: BucketOwners, plan: SpillPlan | undefined): Promise<Pass> {
  const sem = inferSemantics(d.prelude)
  const spill = plan ? await OpfsSpill.open(plan.bytes) : undefined
  const spilling =
    plan && spill
      ? {
          spill: { store: spill, budget: plan.budget, partialReports: true, partialBarcodesUpTo: plan.rowsUpTo },
          pendingKeys: plan.pendingKeys,
        }
      : {}
  const acc = createStatsAccumulator(d.prelude, sem, { bucketOwners: owners, ...spilling })
  const rowsUpTo = plan?.rowsUpTo ?? Infinity
  return {
    id,
    spill,
    spilledBefore: 0,
    peers: undefined,
    feed: undefined,
    decoder: d,
    sem,
    acc,
    owners,
    rowsUpTo,
    descending: undefined,
  }
}

/**
 * The finished pass's state with a row per barcode; a clear error where its barcodes were too
 * many and were folded into a digest (ADR 0016): `need` says what wanted them.
 */
function rowsOf(p: Pass, need: string): StatsState {
  const state = p.acc.exportState('figures')
  const folded = state.partitions?.digest
  if (!folded) return state
  const n = fmtInt(state.partitions?.barcodeCount ?? folded.barcodes)
  throw new RadError(
    'TOO_MANY_BARCODES',
    `this run has ${n} barcodes, more than the page keeps one by one (${fmtInt(p.rowsUpTo * p.owners.count)}), ` +
      `and ${need} every one (the figures shown are exact). On the command line, \`rad stats FILE --tsv\` lists them (with --t2g, the cells).`,
  )
}

/** Removes the pass's spill file once its lists are merged, keeping the count of what it held. */
function releaseSpill(p: Pass): void {
  p.spilledBefore += p.spill?.size ?? 0
  void p.spill?.remove()
  p.spill = undefined
}

/** A walk's visitor adding each chunk to the pass's accumulator and to `out`'s tallies. */
function countInto(
  p: Pass,
  out: { chunks: number; bytes: number; records: number },
  convention: NbytesConvention,
): (chunk: ChunkVisit) => void {
  return (chunk) => {
    // A plain scRNA chunk is counted from its bytes (StatsAccumulator.addChunkBytes), else decoded.
    out.records += p.acc.addChunkOrDecode(chunk.bytes, chunk.req.chunk, convention, () => chunk.decode())
    out.chunks++
    out.bytes += chunk.req.nbytes
  }
}

/** Walks the batch (walkBatch.ts) into the accumulator; bad chunks are listed and skipped. */
async function addBatch(p: Pass, batch: ChunkRequest[], convention: NbytesConvention): Promise<StatsBatchResult> {
  const out: StatsBatchResult = { chunks: 0, bytes: 0, records: 0, bad: [], foreign: [] }
  const walk = await walkBatch(p.decoder, batch, convention, buffers.take(), countInto(p, out, convention))
  buffers.giveBack(walk.buffer)
  out.bad = walk.bad
  const foreign = p.acc.takeForeignRows()
  if (p.peers) p.peers.send(foreign)
  else out.foreign = foreign
  return transfer(
    out,
    out.foreign.flatMap((rows) => (rows ? [rows.buffer as ArrayBuffer] : [])),
  )
}

/**
 * Counts a buffer the index walk fed (statsFeed.ts): its segments' chunks, back to back, as a
 * batch's (the bytes are ours: a chunk that must be decoded is decoded in place). The rows of
 * others' buckets go to their owners over the peers' channels, which a fed pass always has.
 */
function countFed(p: Pass, bytes: Uint8Array, segments: readonly number[], convention: NbytesConvention): FedTotals {
  const totals: FedTotals = { chunks: 0, bytes: 0, records: 0, bad: [] }
  for (let s = 0, at = 0; s + 2 < segments.length; s += 3) {
    const [offset, length, first] = [segments[s]!, segments[s + 1]!, segments[s + 2]!]
    const segment = bytes.subarray(at, at + length)
    at += length
    const reqs = chunksIn(segment, offset, first, convention)
    totals.bad.push(
      ...visitChunks(p.decoder, segment, offset, reqs, convention, true, countInto(p, totals, convention)),
    )
  }
  const foreign = p.acc.takeForeignRows()
  if (p.peers) p.peers.send(foreign)
  else if (foreign.some(Boolean)) {
    throw new Error('internal: a fed pass of several workers without channels between them')
  }
  return totals
}

/** This worker's accumulator and the others' snapshots, summed for a partial report. */
function sumSoFar(p: Pass, others: StatsState[]): StatsAccumulator {
  const sum = createStatsAccumulator(p.decoder.prelude, p.sem)
  sum.merge(p.acc.exportState('partial'))
  for (const s of others) sum.merge(s)
  return sum
}

/** The JSON of `acc` so far, and its rank curve thinned for the plot (the cut-offs drawn exactly). */
function reportOf(p: Pass, acc: StatsAccumulator): StatsReport {
  const state = acc.exportState('figures')
  const json = statsJson(state, p.decoder.prelude, p.sem)
  const desc = barcodeRuns(state)
  p.descending = desc
  // The same curve `rad index` stores in a sidecar (rad/stats/section.ts).
  return { json, curve: rankCurveOf(desc, json), umiCurve: umiRankCurveOf(state, json) }
}
