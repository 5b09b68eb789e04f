/**
 * The one way the page passes over a whole file (ADR 0011, "One pass runner"). The indexed
 * chunks go in runs of back-to-back chunks (passBatches) to lanes, one call in flight per lane
 * and BULK_DEPTH lanes per decode worker (the next batch's read overlaps this one's work); each
 * answer reaches `onAnswer`. Inside the worker every call is one walk (workers/walkBatch.ts).
 * The statistics pass (statsPass.ts) and filters (filterPass.ts) are its consumers, as is the
 * benchmark's bulk decode.
 *
 * The one bad-chunk rule: the walk lists a chunk it cannot decode and goes on; here each one
 * listed goes to `onBadChunk`, and without one the pass fails with that chunk's error.
 */
import type { Remote } from 'comlink'
import { chunkSpan } from '../../rad/decode/chunk'
import { RadError } from '../../rad/errors'
import type { NbytesConvention } from '../../rad/types'
import { BULK_BATCH_BYTES, BULK_DEPTH } from '../../workers/protocol'
import type { BadChunk, ChunkRequest, DecodeWorkerApi, FedRanges } from '../../workers/protocol'
import type { IndexStore } from '../open/indexStore'
import type { WorkerCall } from './decodePool'

/** One call in flight at a time on one decode worker. */
export type Lane<A> = (batch: ChunkRequest[]) => Promise<A>

/** What every answer carries: the chunks its walk could not decode. */
export interface LaneAnswer {
  bad: readonly BadChunk[]
}

export interface LaneRunOptions {
  /** What runs, for the CANCELLED error ("the filter"). */
  what: string
  /** Stops issuing batches; the run then rejects with CANCELLED. */
  signal?: AbortSignal | undefined
  /** Answers in batch order (one that arrives early waits for those before it); else as they come. */
  inOrder?: boolean
  /** Told of each chunk an answer lists as bad, before the answer itself; without it, a bad chunk fails the run. */
  onBadChunk?: (bad: BadChunk) => void
}

/** BULK_DEPTH lanes on each worker, each one `ask` call in flight. */
export function lanesOf<A>(
  calls: readonly WorkerCall[],
  ask: (api: Remote<DecodeWorkerApi>, batch: ChunkRequest[]) => Promise<A>,
): Lane<A>[] {
  return calls.flatMap((call) =>
    Array.from({ length: BULK_DEPTH }, (): Lane<A> => (batch) => call((api) => ask(api, batch))),
  )
}

/**
 * Runs `batches` over `lanes`; resolves when every answer was handed on, rejects with CANCELLED
 * when `signal` aborts, or with the first failure (the other lanes then take no new batch).
 */
export async function runLanes<A extends LaneAnswer>(
  lanes: readonly Lane<A>[],
  batches: readonly ChunkRequest[][],
  onAnswer: (answer: A, batch: ChunkRequest[]) => void,
  opts: LaneRunOptions,
): Promise<void> {
  const { signal } = opts
  let next = 0
  let delivered = 0
  let failed = false
  const early = new Map<number, A>()
  const hand = (answer: A, batch: ChunkRequest[]): void => {
    for (const bad of answer.bad) {
      if (!opts.onBadChunk) throw RadError.fromData(bad.error)
      opts.onBadChunk(bad)
    }
    onAnswer(answer, batch)
  }
  const deliver = (): void => {
    for (let answer = early.get(delivered); answer; answer = early.get(delivered)) {
      early.delete(delivered)
      hand(answer, batches[delivered] ?? [])
      delivered++
    }
  }
  const cancelled = (): RadError => new RadError('CANCELLED', `${opts.what} was cancelled`)
  const run = async (lane: Lane<A>): Promise<void> => {
    for (;;) {
      if (signal?.aborted) throw cancelled()
      if (failed) return
      const i = next++
      const batch = batches[i]
      if (!batch) return
      const answer = await lane(batch)
      if (signal?.aborted) throw cancelled()
      if (failed) return
      if (!opts.inOrder) hand(answer, batch)
      else {
        early.set(i, answer)
        deliver()
      }
    }
  }
  await Promise.all(
    lanes.map((lane) =>
      run(lane).catch((e: unknown) => {
        failed = true
        throw e
      }),
    ),
  )
}

/** Every chunk indexed so far, as requests. */
export function indexedChunks(index: IndexedChunks): ChunkRequest[] {
  const reqs: ChunkRequest[] = []
  for (let chunk = 0; chunk < index.count; chunk++) {
    reqs.push({ chunk, offset: index.offset(chunk), nbytes: index.nbytes(chunk) })
  }
  return reqs
}

/** What the helpers below read of an index (IndexStore has it). */
export type IndexedChunks = Pick<IndexStore, 'count' | 'offset' | 'nbytes'>

/** The bytes (nbytes) of every chunk indexed so far. */
export function indexedBytes(index: IndexedChunks): number {
  let bytes = 0
  for (let chunk = 0; chunk < index.count; chunk++) bytes += index.nbytes(chunk)
  return bytes
}

/**
 * The indexed chunks the index walk did not feed a pass (`fed`: byte ranges [start, end)
 * flattened, in file order, each holding whole chunks; ADR 0017), as requests.
 */
export function chunksNotFed(index: IndexedChunks, fed: FedRanges | undefined): ChunkRequest[] {
  const ranges = fed?.ranges ?? []
  const reqs: ChunkRequest[] = []
  let r = 0
  for (let chunk = 0; chunk < index.count; chunk++) {
    const offset = index.offset(chunk)
    while (r < ranges.length && ranges[r + 1]! <= offset) r += 2
    if (r < ranges.length && ranges[r]! <= offset) continue
    reqs.push({ chunk, offset, nbytes: index.nbytes(chunk) })
  }
  return reqs
}

/** The indexed chunks in runs of back-to-back chunks of at most `maxBytes` (a larger chunk alone). */
export function passBatches(
  reqs: readonly ChunkRequest[],
  convention: NbytesConvention,
  maxBytes = BULK_BATCH_BYTES,
): ChunkRequest[][] {
  const out: ChunkRequest[][] = []
  let batch: ChunkRequest[] = []
  let end = -1
  let start = 0
  for (const req of reqs) {
    const span = chunkSpan(req.nbytes, convention)
    if (batch.length > 0 && (req.offset !== end || req.offset + span - start > maxBytes)) {
      out.push(batch)
      batch = []
    }
    if (batch.length === 0) start = req.offset
    batch.push(req)
    end = req.offset + span
  }
  if (batch.length > 0) out.push(batch)
  return out
}
