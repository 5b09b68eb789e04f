/**
 * The integrity pass over every record (docs/integrity.md), run beside the index walk
 * rather than inside it: the index worker copies each chunk's bytes into a
 * batch (memcpy, ~10× faster than the Blob read that brought them) and
 * transfers full batches to a checker worker, which runs the in-place checks
 * (src/rad/checks/valueChecks.ts) on the second core. Checking inside the index
 * worker instead cut the index to ~0.6 of the browser's read speed (bench/results.md).
 */
import { transfer } from 'comlink'
import { CHUNK_HEADER_BYTES, recordLayout } from '../rad/decode/chunk'
import type { ChunkPayload } from '../rad/decode/chunk'
import { chunkPayload } from '../rad/decode/decodeChunk'
import { RadError } from '../rad/errors'
import { isChunkLocal, issueFromError } from '../rad/checks/integrity'
import { inferSemantics } from '../rad/prelude/semantics'
import type { NbytesConvention, Prelude } from '../rad/types'
import type { StatsReport } from '../rad/stats/section'
import { checkChunk, makeCheckPlan } from '../rad/checks/valueChecks'
import { WalkCounter } from './walkCount'
import type { CheckBatch, CheckResult, CheckerApi } from './protocol'

export type { CheckBatch, CheckResult, CheckerApi } from './protocol'

const BATCH_BYTES = 8 << 20
const BATCH_CHUNKS = 4096

/** Batches sent but not yet checked before `add` makes the walk wait (memory stays bounded). */
const MAX_BATCHES_IN_FLIGHT = 4

/**
 * Collects chunk copies into batches of ~8 MiB and hands each full one to
 * `send`. When the checker falls behind, `add` returns a promise the walk
 * awaits, so memory never grows with the file.
 */
export class CheckBatcher {
  private bytes = new Uint8Array(BATCH_BYTES)
  private chunk = new Uint32Array(BATCH_CHUNKS)
  private offset = new Float64Array(BATCH_CHUNKS)
  private start = new Uint32Array(BATCH_CHUNKS + 1)
  private count = 0
  private used = 0
  private readonly inFlight = new Set<Promise<unknown>>()
  private readonly send: (batch: CheckBatch) => Promise<unknown>

  constructor(send: (batch: CheckBatch) => Promise<unknown>) {
    this.send = send
  }

  add(bytes: Uint8Array, offset: number, chunk: number, convention: NbytesConvention): Promise<unknown> | undefined {
    let wait: Promise<unknown> | undefined
    if (this.count === BATCH_CHUNKS || (this.count > 0 && this.used + bytes.length > this.bytes.length)) {
      wait = this.flush(convention)
    }
    if (bytes.length > this.bytes.length) this.bytes = new Uint8Array(bytes.length)
    this.bytes.set(bytes, this.used)
    this.chunk[this.count] = chunk
    this.offset[this.count] = offset
    this.start[this.count] = this.used
    this.used += bytes.length
    this.count++
    this.start[this.count] = this.used
    return wait
  }

  /** Sends what has gathered; resolves when the checker has room again. */
  flush(convention: NbytesConvention): Promise<unknown> | undefined {
    if (this.count === 0) return undefined
    const sent = this.send({
      bytes: this.bytes.subarray(0, this.used),
      chunk: this.chunk.subarray(0, this.count),
      offset: this.offset.subarray(0, this.count),
      start: this.start.subarray(0, this.count + 1),
      count: this.count,
      convention,
    })
    this.inFlight.add(sent)
    void sent.finally(() => this.inFlight.delete(sent)).catch(() => undefined)
    // The sent buffers now belong to the checker (transferred): start fresh ones.
    this.bytes = new Uint8Array(BATCH_BYTES)
    this.chunk = new Uint32Array(BATCH_CHUNKS)
    this.offset = new Float64Array(BATCH_CHUNKS)
    this.start = new Uint32Array(BATCH_CHUNKS + 1)
    this.count = 0
    this.used = 0
    return this.inFlight.size >= MAX_BATCHES_IN_FLIGHT ? Promise.race(this.inFlight) : undefined
  }

  /** Sends the last batch and waits until every batch has been checked. */
  async drain(convention: NbytesConvention): Promise<void> {
    void this.flush(convention)
    await Promise.all(this.inFlight)
  }
}

/** The buffers a batch owns, for a transfer list. */
export function batchBuffers(batch: CheckBatch): ArrayBuffer[] {
  return [batch.bytes.buffer, batch.chunk.buffer, batch.offset.buffer, batch.start.buffer] as ArrayBuffer[]
}

const MAX_ISSUES_PER_BATCH = 100

/**
 * The checker's body, prepared once per file: every chunk of a batch through checkChunk (pure;
 * Node-testable). With a `counter`, every chunk is also added to the walk's statistics
 * (walkCount.ts), whatever its check found: the pass counts what decodes, not what checks clean.
 * Counting decodes a plain chunk in place, so the batch's bytes are not to be read afterwards.
 */
export function makeBatchChecker(prelude: Prelude, counter?: WalkCounter): (batch: CheckBatch) => CheckResult {
  const layout = recordLayout(prelude)
  const plan = makeCheckPlan(prelude, inferSemantics(prelude))
  return (batch) => {
    const result: CheckResult = { alignments: 0, issues: [], damaged: 0, damagedChunks: [] }
    for (let i = 0; i < batch.count; i++) {
      const at = batch.start[i] ?? 0
      const bytes = batch.bytes.subarray(at, batch.start[i + 1] ?? at)
      const chunk = batch.chunk[i] ?? 0
      if (bytes.length < CHUNK_HEADER_BYTES) continue
      const offset = batch.offset[i] ?? 0
      let payload: ChunkPayload | undefined
      try {
        payload = chunkPayload(bytes, offset, chunk, prelude.codec, batch.convention)
        result.alignments += checkChunk(payload, layout, plan)
      } catch (e) {
        if (!(e instanceof RadError && isChunkLocal(e.code))) throw e
        result.damaged++
        result.damagedChunks.push(chunk)
        if (result.issues.length < MAX_ISSUES_PER_BATCH) {
          result.issues.push(issueFromError(e.inChunk(chunk).inPart('chunk-records')))
        }
      }
      counter?.add(bytes, offset, chunk, batch.convention, payload)
    }
    return result
  }
}

/**
 * The record checker worker's body (check.worker.ts exposes it): open once per file, then check
 * batches. Opened with `count`, it also counts the whole-file statistics of every chunk it is
 * given (walkCount.ts), and `counted` answers with their report once the walk is over.
 */
export function makeCheckerApi(): CheckerApi {
  let check: ((batch: CheckBatch) => CheckResult) | undefined
  let counter: WalkCounter | undefined
  return {
    open(prelude: Prelude, count = false): void {
      counter = count ? new WalkCounter(prelude) : undefined
      check = makeBatchChecker(prelude, counter)
    },
    check(batch: CheckBatch): CheckResult {
      if (!check) throw new Error('internal: record checker used before open()')
      return check(batch)
    },
    counted(): StatsReport | undefined {
      const report = counter?.report()
      const curve = report?.curve
      return curve ? transfer(report, [curve.rank.buffer, curve.count.buffer, curve.cumulative.buffer]) : report
    },
  }
}
