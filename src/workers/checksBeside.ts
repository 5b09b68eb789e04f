import { fmtInt } from '../rad/errors'
import type { IntegrityIssue } from '../rad/checks/integrity'
import type { StatsReport } from '../rad/stats/section'
import type { NbytesConvention, Prelude } from '../rad/types'
import { CheckBatcher, makeBatchChecker } from './recordChecks'
import type { CheckBatch, CheckResult } from './recordChecks'

/** A record checker in another thread (check.worker.ts); see ADR 0002. */
export interface RecordChecker {
  /** Checks a batch; its buffers may be transferred. Rejects when the checker is gone. */
  check(batch: CheckBatch): Promise<CheckResult>
  /**
   * A checker opened to count (walkCount.ts): the statistics of every chunk it checked, once the
   * last batch is answered. Rejects when the checker is gone.
   */
  counted?(): Promise<StatsReport | undefined>
  close(): void
}

/** At most this many damaged chunks are listed (scanChunks lists as many); the rest are counted. */
const MAX_LISTED = 1000

export interface CheckedRecords {
  alignments: number
  /** Damaged chunks (the first MAX_LISTED), then a note for the rest or for chunks left unchecked. */
  issues: IntegrityIssue[]
  damagedChunks: number[]
  /**
   * The whole-file statistics the checker counted (a checker opened to count, which checked every
   * batch itself); undefined when it did not count, or stopped before the end (its counts are lost
   * with it: the page's pass counts instead).
   */
  stats?: StatsReport | undefined
}

/**
 * The index worker's side of "record checks beside the index walk" (ADR
 * 0002): every chunk's bytes go into a CheckBatcher, whose batches go to the
 * checker thread. If that thread fails, the walk goes on and later batches
 * are checked here instead; a batch lost with it (its buffers were
 * transferred) is reported as unchecked, never as clean.
 */
export class ChecksBeside {
  readonly batcher: CheckBatcher
  private readonly prelude: Prelude
  private remote: RecordChecker | undefined
  private inline: ((batch: CheckBatch) => CheckResult) | undefined
  private alignments = 0
  private readonly listed: IntegrityIssue[] = []
  private readonly damaged: number[] = []
  private failure: string | undefined
  private readonly lost: [number, number][] = []

  constructor(prelude: Prelude, remote: RecordChecker | undefined) {
    this.prelude = prelude
    this.remote = remote
    this.batcher = new CheckBatcher((batch) => this.send(batch))
  }

  /** For scanChunks' onChunk: copies the chunk into the current batch; may ask the walk to wait. */
  readonly add = (
    bytes: Uint8Array,
    offset: number,
    chunk: number,
    convention: NbytesConvention,
  ): Promise<undefined> | undefined => {
    return this.batcher.add(bytes, offset, chunk, convention)?.then(() => undefined)
  }

  private async send(batch: CheckBatch): Promise<void> {
    const remote = this.remote
    if (remote) {
      const first = batch.chunk[0] ?? 0
      const last = batch.chunk[batch.count - 1] ?? first
      try {
        this.take(await remote.check(batch))
        return
      } catch (e) {
        this.failure ??= e instanceof Error ? e.message : String(e)
        if (this.remote === remote) {
          this.remote = undefined
          remote.close()
        }
        // Transferred before the checker died: these chunks cannot be checked any more.
        if (batch.bytes.byteLength === 0) {
          this.lost.push([first, last])
          return
        }
      }
    }
    this.inline ??= makeBatchChecker(this.prelude)
    this.take(this.inline(batch))
  }

  /** The remote checker's count, when it checked (and so counted) every batch; undefined otherwise. */
  private async counted(): Promise<StatsReport | undefined> {
    if (this.failure !== undefined || !this.remote?.counted) return undefined
    try {
      return await this.remote.counted()
    } catch {
      return undefined
    }
  }

  private take(result: CheckResult): void {
    this.alignments += result.alignments
    for (const issue of result.issues) if (this.listed.length < MAX_LISTED) this.listed.push(issue)
    for (const k of result.damagedChunks) this.damaged.push(k)
  }

  /** Sends the last batch, waits for every answer, and says what was found. */
  async finish(convention: NbytesConvention): Promise<CheckedRecords> {
    await this.batcher.drain(convention)
    const stats = await this.counted()
    this.close()
    const issues = [...this.listed].sort((a, b) => (a.chunk ?? 0) - (b.chunk ?? 0))
    const unlisted = this.damaged.length - issues.length
    if (unlisted > 0) {
      issues.push({
        kind: 'note',
        severity: 'warning',
        message: `${fmtInt(unlisted)} more damaged chunks are not listed`,
      })
    }
    if (this.failure !== undefined && this.lost.length === 0) {
      issues.push({
        kind: 'note',
        severity: 'info',
        message: `the record checker stopped (${this.failure}); the index worker checked the remaining chunks itself`,
      })
    }
    if (this.lost.length > 0) {
      const ranges = this.lost.map(([a, b]) => (a === b ? fmtInt(a) : `${fmtInt(a)}–${fmtInt(b)}`)).join(', ')
      issues.push({
        kind: 'note',
        severity: 'warning',
        message: `the records of chunks ${ranges} were not checked: the record checker stopped (${this.failure ?? 'unknown'}) while it held them`,
      })
    }
    const damagedChunks = [...this.damaged].sort((a, b) => a - b)
    return { alignments: this.alignments, issues, damagedChunks, ...(stats ? { stats } : {}) }
  }

  close(): void {
    this.remote?.close()
    this.remote = undefined
  }
}
