/**
 * `rad stats` on every core (docs/adr/0009, "Counters own bucket ranges"; bench/results.md,
 * ADR 0009's fourth round): the main thread reads and checks the chunks (scanChunks) and copies
 * them into ~4 MiB batches, each posted to the next worker thread with room. At most IN_FLIGHT
 * batches wait per worker, so a fast disk does not queue the file in memory; an answered batch's
 * buffer comes back to be filled again.
 *
 * Each thread decodes its batches into its own accumulator, which owns a contiguous range of the
 * exact pairs' buckets (StatsOptions.bucketOwners) and spills its lists to a file of its own past
 * its share of the budget (spillFile.ts, PassMemory). A batch's answer carries the rows (barcode,
 * UMI) of the other threads' buckets, which the main thread posts on to their owner, so no pair
 * is held twice. Once every batch is answered (every row relayed), each thread ends with its
 * state: `figures`, or `digest` where no row per barcode is needed (ADR 0016), or `whole` where it
 * left the exact pairs. The buckets being disjoint, figures and digests merge without the pairs'
 * UMIs (the caller merges the states: stats.ts).
 *
 * The worker runs this same module (the CLI bundle, or this file through tsx): it starts when
 * loaded in a worker thread whose workerData says so.
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { recordLayout } from '../rad/decode/chunk'
import { decodeChunkInPlace } from '../rad/decode/decodeChunk'
import { InPlaceScratch } from '../rad/decode/decodeInPlace'
import { parsePrelude } from '../rad/prelude/prelude'
import { inferSemantics } from '../rad/prelude/semantics'
import { createStatsAccumulator, statsTransferables } from '../rad/stats'
import type { StatsState } from '../rad/stats'
import type { NbytesConvention } from '../rad/types'
import { SpillFailed, SpillFile } from './spillFile'

/** The spill file's folder, the lists' budget and the keys waiting, all threads together. */
export interface PassMemory {
  folder: string
  budget: number
  pendingKeys: number
}

const KIND = 'rad-stats-thread'
const BATCH_BYTES = 4 << 20
const IN_FLIGHT = 2
interface ThreadData {
  kind: typeof KIND
  prelude: Uint8Array
  fileSize: number
  /** This thread's range of the exact pairs' buckets (StatsOptions.bucketOwners). */
  index: number
  count: number
  /** Its spill file's folder, and its share of the lists' budget (spillFile.ts). */
  spillFolder: string
  spillBudget: number
  /** Keys waiting before the pairs are sorted and merged, all threads together (PassMemory). */
  pendingKeys: number
  /** What each thread's exact partitions end as: a row per barcode, or folded (ADR 0016). */
  ending: 'figures' | 'digest'
}

/** A batch of whole chunks: chunk i is buffer[starts[i], starts[i + 1]). */
interface BatchMessage {
  type: 'batch'
  buffer: ArrayBuffer
  starts: Uint32Array
  offsets: Float64Array
  chunks: Uint32Array
  convention: NbytesConvention
}

/** Rows of this thread's buckets that another thread decoded. */
interface RowsMessage {
  type: 'rows'
  rows: Uint32Array
}

type ToThread = BatchMessage | RowsMessage | { type: 'end' }
type FromThread =
  | { type: 'done'; foreign: (Uint32Array | undefined)[]; buffer: ArrayBuffer }
  | { type: 'state'; state: StatsState }
  | { type: 'error'; message: string; spill: boolean }

function runThread(data: ThreadData, port: NonNullable<typeof parentPort>): void {
  const prelude = parsePrelude(data.prelude, data.fileSize)
  const store = new SpillFile(data.spillFolder)
  const acc = createStatsAccumulator(prelude, inferSemantics(prelude), {
    bucketOwners: { count: data.count, index: data.index },
    pendingKeys: data.pendingKeys,
    spill: { store, budget: data.spillBudget },
  })
  const layout = recordLayout(prelude)
  const scratch = new InPlaceScratch()
  port.on('message', (m: ToThread) => {
    try {
      if (m.type === 'end') {
        // Each thread owns its buckets: the figures (or digests) merge exactly without the pairs' UMIs.
        const state = acc.exportState(acc.exactPairs ? data.ending : 'whole')
        store.close()
        port.postMessage({ type: 'state', state } satisfies FromThread, statsTransferables(state))
        return
      }
      if (m.type === 'rows') {
        acc.addForeignRows(m.rows)
        return
      }
      const bytes = new Uint8Array(m.buffer)
      for (let i = 0; i < m.chunks.length; i++) {
        const chunk = bytes.subarray(m.starts[i], m.starts[i + 1])
        acc.addChunkOrDecode(chunk, m.chunks[i]!, m.convention, () =>
          decodeChunkInPlace(chunk, m.offsets[i]!, m.chunks[i]!, prelude, m.convention, layout, scratch),
        )
      }
      const foreign = acc.takeForeignRows()
      const buffers = foreign.flatMap((rows) => (rows ? [rows.buffer as ArrayBuffer] : []))
      // The batch's buffer goes back to be filled again: fresh 4 MiB buffers would pile up
      // between collections (external memory) and cost more RSS than the counts.
      port.postMessage({ type: 'done', foreign, buffer: m.buffer } satisfies FromThread, [...buffers, m.buffer])
    } catch (e) {
      port.postMessage({
        type: 'error',
        message: e instanceof Error ? e.message : String(e),
        spill: e instanceof SpillFailed,
      } satisfies FromThread)
    }
  })
}

if (!isMainThread && parentPort && (workerData as Partial<ThreadData> | null)?.kind === KIND) {
  runThread(workerData as ThreadData, parentPort)
}

/** A larger young generation: the decode's per-chunk views die young, and scavenges were ~8 % of the CPU. */
const YOUNG = { maxYoungGenerationSizeMb: 64 }

/** A worker of this module, from the bundle or (through tsx) from the source. */
function spawn(data: ThreadData): Worker {
  const self = new URL(import.meta.url)
  if (!self.pathname.endsWith('.ts')) return new Worker(self, { workerData: data, resourceLimits: YOUNG })
  const boot = `import('tsx/esm/api').then((m) => m.register()).then(() => import(${JSON.stringify(self.href)}))`
  return new Worker(boot, { eval: true, workerData: data, resourceLimits: YOUNG })
}

interface Thread {
  worker: Worker
  waiting: number
}

export class StatsThreads {
  private readonly threads: Thread[]
  private next = 0
  private buffer = new Uint8Array(BATCH_BYTES)
  private readonly spare: ArrayBuffer[] = []
  private used = 0
  private starts: number[] = [0]
  private offsets: number[] = []
  private chunks: number[] = []
  private convention: NbytesConvention = 'header-inclusive'
  private failed: Error | undefined
  private wake: (() => void) | undefined
  private readonly states: StatsState[] = []
  private finished: (() => void) | undefined

  constructor(
    preludeBytes: Uint8Array,
    fileSize: number,
    count: number,
    memory: PassMemory,
    ending: ThreadData['ending'],
  ) {
    const shared = {
      ending,
      kind: KIND,
      prelude: preludeBytes,
      fileSize,
      count,
      spillFolder: memory.folder,
      spillBudget: Math.floor(memory.budget / count),
      pendingKeys: memory.pendingKeys,
    } as const
    this.threads = Array.from({ length: count }, (_, index) => ({
      worker: spawn({ ...shared, index }),
      waiting: 0,
    }))
    for (const t of this.threads) {
      t.worker.on('message', (m: FromThread) => {
        this.heard(t, m)
      })
      t.worker.on('error', (e) => {
        this.fail(e)
      })
    }
  }

  private heard(t: Thread, m: FromThread): void {
    if (m.type === 'error') this.fail(m.spill ? new SpillFailed(m.message) : new Error(m.message))
    else if (m.type === 'state') {
      this.states.push(m.state)
      if (this.states.length === this.threads.length) this.finished?.()
    } else {
      t.waiting--
      if (this.spare.length < this.threads.length) this.spare.push(m.buffer)
      // Another thread's rows, to the thread that owns their buckets (messages keep their order).
      m.foreign.forEach((rows, o) => {
        if (rows) {
          this.threads[o]?.worker.postMessage({ type: 'rows', rows } satisfies ToThread, [rows.buffer as ArrayBuffer])
        }
      })
    }
    const wake = this.wake
    this.wake = undefined
    wake?.()
  }

  private fail(e: Error): void {
    this.failed ??= e
    this.wake?.()
    this.finished?.()
  }

  /** Takes a chunk's bytes (copied); a promise when every worker has IN_FLIGHT batches waiting. */
  add(bytes: Uint8Array, offset: number, chunk: number, convention: NbytesConvention): Promise<undefined> | undefined {
    if (this.failed) throw this.failed
    this.convention = convention
    if (this.used + bytes.length > this.buffer.length && this.chunks.length > 0) {
      const sent = this.send()
      if (sent) return sent.then(() => this.add(bytes, offset, chunk, convention))
    }
    if (bytes.length > this.buffer.length) this.buffer = new Uint8Array(bytes.length)
    this.buffer.set(bytes, this.used)
    this.used += bytes.length
    this.starts.push(this.used)
    this.offsets.push(offset)
    this.chunks.push(chunk)
    return undefined
  }

  /** Posts the batch to the next worker with room; a promise (to try again) when none has. */
  private send(): Promise<void> | undefined {
    const n = this.threads.length
    let k = 0
    while (k < n && this.threads[(this.next + k) % n]!.waiting >= IN_FLIGHT) k++
    if (k === n) return new Promise((resolve) => (this.wake = resolve))
    const thread = this.threads[(this.next + k) % n]!
    this.next = (this.next + k + 1) % n
    const message: BatchMessage = {
      type: 'batch',
      buffer: this.buffer.buffer,
      starts: Uint32Array.from(this.starts),
      offsets: Float64Array.from(this.offsets),
      chunks: Uint32Array.from(this.chunks),
      convention: this.convention,
    }
    thread.waiting++
    thread.worker.postMessage(message, [message.buffer])
    this.buffer = new Uint8Array(this.spare.pop() ?? new ArrayBuffer(BATCH_BYTES))
    this.used = 0
    this.starts = [0]
    this.offsets = []
    this.chunks = []
    return undefined
  }

  /** Sends what is left, then every worker's state (the workers end). */
  async finish(): Promise<StatsState[]> {
    while (this.chunks.length > 0) {
      const wait = this.send()
      if (wait) await wait
    }
    // Every batch answered, so every row handed over was posted before the end.
    while (this.threads.some((t) => t.waiting > 0) && !this.failed) {
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
    const done = new Promise<void>((resolve) => (this.finished = resolve))
    for (const t of this.threads) t.worker.postMessage({ type: 'end' } satisfies ToThread)
    await done
    await Promise.all(this.threads.map((t) => t.worker.terminate()))
    if (this.failed) throw this.failed
    return this.states
  }
}
