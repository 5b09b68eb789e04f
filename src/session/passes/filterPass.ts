/**
 * A record filter over the whole file (README "Command line", filters; src/rad/filter/recordFilter.ts), orchestrated on the main
 * thread: a consumer of the one pass runner (lanes.ts), the decode workers (DecodeApi.filter)
 * answering with record numbers only; the answers are taken in file order, so the first MAX_KEPT_MATCHES matches are
 * kept exactly and the rest only counted. Listeners hear of every batch.
 */
import { chunkSpan } from '../../rad/decode/chunk'
import { RadError } from '../../rad/errors'
import { identifyProducer } from '../../rad/prelude/producer'
import { barcodeOnly, compileFilter } from '../../rad/filter/recordFilter'
import type { CompiledFilter, RecordFilter } from '../../rad/filter/recordFilter'
import { inferSemantics } from '../../rad/prelude/semantics'
import type { NbytesConvention } from '../../rad/types'
import type { WorkerCall } from '../rows/decodePool'
import { indexedChunks, lanesOf, passBatches, runLanes } from '../rows/lanes'
import { Store } from '../store'
import type { FilterBatchResult, FilterJob } from '../../workers/protocol'
import type { IndexStore } from '../open/indexStore'
import type { ChunkRequest, OpenedFile } from '../../workers/protocol'

/** Record numbers kept (README "Command line", filters; src/rad/filter/recordFilter.ts): 8 MB as Float64 at most; matches past it are counted, not kept. */
export const MAX_KEPT_MATCHES = 1_000_000

export type FilterPhase = 'running' | 'done' | 'cancelled' | 'error'

export interface FilterState {
  phase: FilterPhase
  filter: RecordFilter
  /** Matching records found so far (all of them, kept or not). */
  matches: number
  /** Record numbers kept: min(matches, MAX_KEPT_MATCHES). */
  kept: number
  chunksDone: number
  chunks: number
  bytesDone: number
  bytes: number
  /** Chunks that could not be decoded and were skipped (the integrity panel has them). */
  badChunks: number
  /** References whose names matched the reference pattern, when there is one. */
  references: number | undefined
  /** The file is collated and the filter a barcode only: chunks answered from their first record (§4.3). */
  collatedFastPath: boolean
  error: Error | undefined
  elapsedMs: number
}

/** The record numbers found, in file order: the first MAX_KEPT_MATCHES kept, the rest counted. */
export class FilterMatches {
  private records = new Float64Array(1024)
  private readonly limit: number
  kept = 0
  total = 0

  constructor(limit = MAX_KEPT_MATCHES) {
    this.limit = limit
  }

  /** Record number `i` (0-based among the kept ones). */
  at(i: number): number {
    return this.records[i] ?? -1
  }

  private room(n: number): number {
    const want = Math.min(this.limit, this.kept + n)
    if (want > this.records.length) {
      const grown = new Float64Array(Math.min(this.limit, Math.max(want, this.records.length * 2)))
      grown.set(this.records.subarray(0, this.kept))
      this.records = grown
    }
    return want - this.kept
  }

  /** Adds one batch's answer; `firstRecord(chunk)` is the chunk's first record number. */
  add(found: FilterBatchResult, firstRecord: (chunk: number) => number): void {
    let listed = 0
    found.chunks.forEach((chunk, i) => {
      const count = found.counts[i] ?? 0
      const base = firstRecord(chunk)
      const whole = found.whole[i] === 1
      const room = this.room(count)
      for (let k = 0; k < room; k++) this.records[this.kept++] = base + (whole ? k : (found.records[listed + k] ?? 0))
      if (!whole) listed += count
      this.total += count
    })
  }
}

/** What a filter run needs from its session. */
export interface FilterSource {
  opened: OpenedFile
  index: IndexStore
  convention: NbytesConvention
  /** The decode workers (DecodePool.workers): BULK_DEPTH lanes each, answering with record numbers only. */
  workers: () => WorkerCall[]
}

function batchBytes(batch: readonly ChunkRequest[], convention: NbytesConvention): number {
  let n = 0
  for (const req of batch) n += chunkSpan(req.nbytes, convention)
  return n
}

/**
 * One filter over the chunks indexed when it starts: a small store the page
 * subscribes to (useSyncExternalStore), its matches, and cancel().
 */
export class FilterRun {
  readonly matches = new FilterMatches()
  private readonly store: Store<FilterState>
  private readonly controller = new AbortController()
  private readonly started = performance.now()

  constructor(filter: RecordFilter) {
    this.store = new Store<FilterState>({
      phase: 'running',
      filter,
      matches: 0,
      kept: 0,
      chunksDone: 0,
      chunks: 0,
      bytesDone: 0,
      bytes: 0,
      badChunks: 0,
      references: undefined,
      collatedFastPath: false,
      error: undefined,
      elapsedMs: 0,
    })
  }

  get subscribe(): Store<FilterState>['subscribe'] {
    return this.store.subscribe
  }

  get getState(): Store<FilterState>['getState'] {
    return this.store.getState
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  update(patch: Partial<FilterState>): void {
    if (this.store.getState().phase !== 'running') return
    this.store.update({ ...patch, elapsedMs: performance.now() - this.started })
  }

  /** Stops issuing batches; what was found so far stays. */
  cancel(): void {
    if (this.store.getState().phase !== 'running') return
    this.controller.abort()
    this.update({ phase: 'cancelled' })
  }
}

function compiled(run: FilterRun, source: FilterSource, filter: RecordFilter): CompiledFilter | undefined {
  const { prelude } = source.opened
  try {
    return compileFilter(filter, prelude, inferSemantics(prelude))
  } catch (e) {
    run.update({ phase: 'error', error: e instanceof Error ? e : new Error(String(e)) })
    return undefined
  }
}

/**
 * Starts a filter over every chunk indexed so far. A filter the file cannot
 * answer (no UMI tag, a barcode of another length, a bad regex) ends at
 * once in phase 'error' with a sentence for the user.
 */
export function startFilterRun(source: FilterSource, filter: RecordFilter): FilterRun {
  const run = new FilterRun(filter)
  const compiledFilter = compiled(run, source, filter)
  if (!compiledFilter) return run
  const { opened, index, convention } = source
  const reqs = indexedChunks(index)
  const bytes = batchBytes(reqs, convention)
  const collated = identifyProducer(opened.prelude, opened.container).name === 'alevin-fry collate'
  const job: FilterJob = { filter: compiledFilter, collated }
  const fast = collated && barcodeOnly(compiledFilter)
  run.update({
    chunks: reqs.length,
    bytes,
    references: compiledFilter.alignment?.refs ? compiledFilter.alignment.refCount : undefined,
    collatedFastPath: fast,
  })
  let done = { chunks: 0, bytes: 0 }
  let bad = 0
  const firstRecord = (chunk: number): number => index.firstRecord(chunk)
  const onBatch = (found: FilterBatchResult, batch: ChunkRequest[]): void => {
    run.matches.add(found, firstRecord)
    done = { chunks: done.chunks + batch.length, bytes: done.bytes + batchBytes(batch, convention) }
    const m = run.matches
    run.update({ matches: m.total, kept: m.kept, chunksDone: done.chunks, bytesDone: done.bytes, badChunks: bad })
  }
  const start = async (): Promise<void> => {
    const lanes = lanesOf(source.workers(), (api, batch) => api.filter(batch, convention, job))
    await runLanes(lanes, passBatches(reqs, convention), onBatch, {
      what: 'the filter',
      signal: run.signal,
      inOrder: true,
      onBadChunk: () => {
        bad++
      },
    })
  }
  start().then(
    () => {
      run.update({ phase: 'done' })
    },
    (e: unknown) => {
      if (e instanceof RadError && e.code === 'CANCELLED') return
      run.update({ phase: 'error', error: e instanceof Error ? e : new Error(String(e)) })
    },
  )
  return run
}
