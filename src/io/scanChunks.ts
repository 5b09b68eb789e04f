/**
 * The chunk scan (§4): reads the chunks front to back and builds the chunk
 * index, with the integrity report. This module holds the reading (blocks,
 * hops, reads in flight, yields, progress); what a header, a clean run or
 * the bytes after the chunks mean is decided in the core: rad/chunkHeader,
 * rad/cleanRun, rad/scanIssues. Its options and result are in scanChunksTypes.ts.
 */
import { CHUNK_HEADER_BYTES, recordLayout, u32le } from '../rad/decode/chunk'
import type { RecordLayout } from '../rad/decode/chunk'
import {
  checkChunkHeader,
  chunkBounds,
  chunkRecordCount,
  cutHeaderError,
  missingChunksError,
} from '../rad/decode/chunkHeader'
import type { ChunkBounds } from '../rad/decode/chunkHeader'
import { ChunkIndexBuilder, chunksOverlapping } from '../rad/chunkIndex'
import type { ChunkIndex } from '../rad/chunkIndex'
import { canScanCleanRuns, canScanHeaderRuns, scanCleanRun, scanHeaderRun } from '../rad/checks/cleanRun'
import { chunkPayload } from '../rad/decode/decodeChunk'
import { RadError } from '../rad/errors'
import type { RadErrorData } from '../rad/errors'
import { isChunkLocal, issueFromError } from '../rad/checks/integrity'
import { ScanIssues, afterChunksIssue, fileIssues } from '../rad/checks/scanIssues'
import { looksLikeRadStart } from '../rad/prelude/prelude'
import type { NbytesConvention, Prelude } from '../rad/types'
import { checkChunk } from '../rad/checks/valueChecks'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'
import { ScanPace } from './scanPace'
import type { ChunkVerdict, ScanChunksOptions, ScanResult } from './scanChunksTypes'
import { SequentialReader } from './sequentialReader'
import { findConvention } from './scanConvention'

export type { ChunkVerdict, ScanChunksOptions, ScanProgress, ScanResult } from './scanChunksTypes'

/**
 * Streaming reads: blocks grow to 16 MiB; 3 windows (the one being scanned and
 * two reads in flight). Measured in this machine's Chromium (bench/): with the
 * scan yielding (yieldTask) the reads progress while it computes, and 16 MiB
 * blocks index as fast as 32 MiB ones (0.58–0.59 against 0.54–0.69 GB/s,
 * back to back) for half the memory: the renderer's peak while indexing
 * 5 GiB was 297 MiB above idle with 32 MiB × 3 (goal < 300, docs/adr/0002).
 */
export const DEFAULT_BLOCK = 16 << 20
const READS_IN_FLIGHT = 3
/**
 * Above this average chunk size, hop from header to header instead of
 * streaming: a Blob read costs ~0.8 ms, worth ~0.5–0.8 MB of streaming (bench/).
 */
const HOP_THRESHOLD = 1 << 20
/** The careful path reports progress and yields every this many chunks (a power of 2). */
const CAREFUL_REPORT_EVERY = 256

/**
 * Scans the chunks from the end of the prelude (§4), building the chunk index.
 * Small chunks are streamed in large blocks with reads in flight; large ones
 * are hopped header to header (unless every byte is needed for `onChunk` or
 * `check`). A problem inside one chunk's records is reported and the scan goes
 * on; a problem with the chunk structure stops it, keeping everything before.
 */
export async function scanChunks(
  source: ByteSource,
  prelude: Prelude,
  opts: ScanChunksOptions = {},
): Promise<ScanResult> {
  const pace = new ScanPace(opts.signal, opts.held)
  const convention = await findConvention(source, prelude, opts.signal)
  const scan = new ChunkScan(source, prelude, convention, opts, pace)
  try {
    await scan.run()
  } catch (e) {
    // Cancelled: the issues found so far are kept (docs/integrity.md), marked as not covering the whole file.
    if (opts.signal?.aborted) return { ...scan.result(), cancelled: true }
    if (!(e instanceof RadError)) throw e
    scan.fail(e)
  }
  return scan.result()
}

/** Bytes of the file from `start`: a block in hand, or one header read alone. */
interface Held {
  readonly start: number
  readonly bytes: Uint8Array
}

/**
 * One scan's state. `run` is its loop; each step is a call into the core
 * (src/rad). The careful path stays synchronous unless it must wait for
 * bytes or for `onChunk`: a million tiny chunks must not cost a million awaits.
 */
class ChunkScan {
  private readonly source: ByteSource
  private readonly prelude: Prelude
  private readonly convention: NbytesConvention
  private readonly opts: ScanChunksOptions
  private readonly pace: ScanPace
  private readonly index: ChunkIndexBuilder
  private readonly issues: ScanIssues
  private readonly reader: SequentialReader
  private readonly layout: RecordLayout
  private readonly bounds: ChunkBounds
  private readonly cleanRuns: boolean
  private readonly headerRuns: boolean
  private readonly needBytes: boolean
  /** Chunks to scan: num_chunks, or until the end of the file when it is 0 (§1.4). */
  private readonly kEnd: number
  private readonly started = Date.now()
  /** The next chunk's number and offset. */
  private k = 0
  private pos: number
  private alignments = 0
  /** Chunks the last clean run indexed. */
  private runChunks = 0
  private error: RadErrorData | undefined
  private reported = 0
  private lastProgress = 0

  constructor(
    source: ByteSource,
    prelude: Prelude,
    convention: NbytesConvention,
    given: ScanChunksOptions,
    pace: ScanPace,
  ) {
    this.source = source
    this.prelude = prelude
    this.convention = convention
    // An unknown codec (§6) leaves the records unreadable: the chunk table is mapped from headers alone.
    const opts = prelude.codec === 'unknown' ? { ...given, check: undefined } : given
    this.opts = opts
    this.pace = pace
    this.pos = prelude.firstChunkOffset
    // Reserve what num_chunks says, but no more chunks than the bytes can hold: the header may be corrupt.
    this.index = new ChunkIndexBuilder(Math.min(prelude.numChunks, (source.size - this.pos) / CHUNK_HEADER_BYTES))
    this.issues = new ScanIssues(fileIssues(prelude, convention))
    const blockSize = opts.blockSize ?? DEFAULT_BLOCK
    // Fed to the statistics, every byte handed on is copied: the blocks left behind are read into again.
    const reuse = opts.onCleanRun !== undefined && !opts.onChunk
    this.reader = new SequentialReader(source, this.pos, blockSize, READS_IN_FLIGHT, opts.signal, reuse)
    this.layout = recordLayout(prelude)
    this.bounds = chunkBounds(prelude, convention, source.size)
    this.needBytes = opts.onChunk !== undefined || opts.check !== undefined
    // The hot path scans records as words, and nobody asks for each chunk's bytes.
    this.cleanRuns = canScanCleanRuns(prelude, opts.check) && !opts.onChunk
    // Compressed chunks mapped without their records (docs/adr/0003): headers only.
    this.headerRuns = canScanHeaderRuns(prelude, opts.check) && !opts.onChunk
    this.kEnd = prelude.numChunks === 0 ? Infinity : prelude.numChunks
  }

  async run(): Promise<void> {
    while (this.k < this.kEnd) {
      const block = this.hop() ? undefined : this.reader.block(this.pos, CHUNK_HEADER_BYTES)
      const run = block && this.headerRuns ? this.headerRun(block.start, block.bytes) : false
      const from = this.pos
      if (run || (this.cleanRuns && block?.words && this.cleanRun(block.start, block.words))) {
        const fed = block && !run ? this.feed(block.start, block.bytes, from) : undefined
        if (fed) await this.pace.waitForFeed(fed)
        this.flush(false)
        await this.pace.pause()
        continue
      }
      if (this.pos === this.source.size) {
        if (this.prelude.numChunks === 0) return
        throw missingChunksError(this.k, this.prelude.numChunks, this.pos)
      }
      // The careful path, one chunk: from the block in hand when it holds the chunk, else read.
      const { k, pos } = this
      const held = block ?? (await this.readHeader())
      const at = pos - held.start
      const nbytes = u32le(held.bytes, at)
      const nrec = chunkRecordCount(held.bytes, at)
      if (this.secondFileAt(held.bytes.subarray(at, at + 8))) return
      const span = checkChunkHeader(this.bounds, k, pos, nbytes, nrec)
      const bytes = this.needBytes ? (this.inHand(held, at, span) ?? (await this.readChunk(span))) : undefined
      const damagedBefore = this.issues.damagedChunks.length
      const verdict = bytes ? this.visit(bytes) : undefined
      const stop = (verdict instanceof Promise ? await verdict : verdict) === true
      // A chunk that passed its checks here (one straddling the walk's blocks) is fed as a run of one.
      const fed =
        bytes && this.issues.damagedChunks.length === damagedBefore
          ? this.opts.onCleanRun?.(bytes, pos, k, 1, this.convention)
          : undefined
      if (fed) await this.pace.waitForFeed(fed)
      this.index.push(pos, nbytes, nrec)
      this.pos += span
      this.k++
      if ((k & (CAREFUL_REPORT_EVERY - 1)) === 0) {
        this.flush(k === 0)
        await this.pace.pause()
      }
      if (stop) return
    }
    if (this.prelude.numChunks > 0 && this.pos < this.source.size) {
      const head = await this.source.read(this.pos, 8, this.opts.signal) // afterChunksIssue looks at 8 bytes
      this.issues.add(afterChunksIssue(head, this.pos, this.source.size, this.index.count, true))
    }
  }

  /**
   * With num_chunks 0 (§1.4) chunks are read to the end of the file, so a
   * second file joined on would be read as chunks: a header that fails its
   * checks where a prelude seems to start is the end of this file instead
   * (listed as a concatenation). A header that passes is a chunk.
   */
  private secondFileAt(head: Uint8Array): boolean {
    if (this.prelude.numChunks !== 0 || this.k === 0 || !looksLikeRadStart(head)) return false
    try {
      checkChunkHeader(this.bounds, this.k, this.pos, u32le(head, 0), chunkRecordCount(head))
      return false
    } catch {
      this.issues.add(afterChunksIssue(head, this.pos, this.source.size, this.index.count, false))
      return true
    }
  }

  /** The hot path over the block in hand; false when it could not take the next chunk. */
  private cleanRun(start: number, words: Uint32Array): boolean {
    const run = scanCleanRun(words, start, this.pos, this.kEnd - this.k, this.bounds, this.opts.check, this.index)
    this.runChunks = run.chunks
    this.k += run.chunks
    this.pos = run.end
    this.alignments += run.alignments
    return run.chunks > 0
  }

  /** Hands the clean run just walked (the block's bytes [from, pos)) to onCleanRun. */
  private feed(blockStart: number, bytes: Uint8Array, from: number): Promise<void> | undefined {
    const { onCleanRun } = this.opts
    if (!onCleanRun) return undefined
    const run = bytes.subarray(from - blockStart, this.pos - blockStart)
    return onCleanRun(run, from, this.k - this.runChunks, this.runChunks, this.convention)
  }

  /** The hot path over the block in hand for compressed chunks, headers only; false when it took none. */
  private headerRun(start: number, bytes: Uint8Array): boolean {
    const run = scanHeaderRun(bytes, start, this.pos, this.kEnd - this.k, this.bounds, this.index)
    this.k += run.chunks
    this.pos = run.end
    return run.chunks > 0
  }

  /** The next chunk's bytes when `held` has them all. */
  private inHand(held: Held, at: number, span: number): Uint8Array | undefined {
    return at + span <= held.bytes.length ? held.bytes.subarray(at, at + span) : undefined
  }

  private readChunk(span: number): Promise<Uint8Array> {
    return this.pace.waitFor(this.reader.get(this.pos, span))
  }

  /**
   * The plan's checks and `onChunk` on the next chunk's bytes; onChunk's
   * verdict. A problem inside the records is listed and the scan goes on.
   */
  private visit(bytes: Uint8Array): ChunkVerdict | Promise<ChunkVerdict> {
    const { k, pos, prelude, opts, convention } = this
    try {
      if (opts.check) {
        this.alignments += checkChunk(chunkPayload(bytes, pos, k, prelude.codec, convention), this.layout, opts.check)
      }
      const verdict = opts.onChunk?.(bytes, pos, k, convention)
      return verdict instanceof Promise ? verdict.catch((e: unknown) => this.damaged(e, k)) : verdict
    } catch (e) {
      return this.damaged(e, k)
    }
  }

  /** Lists a problem inside chunk k's records (no verdict); rethrows any other. */
  private damaged(e: unknown, k: number): ChunkVerdict {
    if (!(e instanceof RadError && isChunkLocal(e.code))) throw e
    this.issues.addDamaged(issueFromError(e.inChunk(k).inPart('chunk-records')))
    return false
  }

  /** Large chunks: read each header alone instead of streaming (unless every byte is needed). */
  private hop(): boolean {
    const count = this.index.count
    return !this.needBytes && count > 0 && (this.pos - this.prelude.firstChunkOffset) / count > HOP_THRESHOLD
  }

  /** The next chunk's header when it is not in the block in hand. */
  private async readHeader(): Promise<Held> {
    const { pos, source } = this
    const read = this.hop()
      ? source.read(pos, CHUNK_HEADER_BYTES, this.opts.signal)
      : this.reader.get(pos, CHUNK_HEADER_BYTES)
    const bytes = await this.pace.waitFor(read)
    throwIfAborted(this.opts.signal)
    if (bytes.length < CHUNK_HEADER_BYTES) throw cutHeaderError(this.k, pos, source.size)
    return { start: pos, bytes }
  }

  /** Reports progress (at most every progressIntervalMs unless forced) and hands out new index entries. */
  private flush(force: boolean): void {
    const now = Date.now()
    if (!force && now - this.lastProgress < (this.opts.progressIntervalMs ?? 100)) return
    this.lastProgress = now
    const { index, opts } = this
    if (opts.onIndex && index.count > this.reported) {
      opts.onIndex(index.snapshot(this.reported), this.convention)
      this.reported = index.count
    }
    opts.onProgress?.({
      bytesScanned: this.pos,
      bytesTotal: this.source.size,
      chunks: index.count,
      records: index.records,
      elapsedMs: now - this.started,
    })
  }

  /** The problem that stopped the scan. */
  fail(e: RadError): void {
    const fault = e.inChunk(e.chunk ?? this.index.count)
    this.error = fault.toData()
    this.issues.add(issueFromError(fault))
  }

  /** Damage the source found in its container (a .sz frame failing its checksum) spoils the chunks it holds. */
  private addSourceDamage(index: ChunkIndex): void {
    for (const { issue, start, end } of this.source.damage?.() ?? []) {
      const [first, last] = chunksOverlapping(index, this.pos, start, end)
      for (let c = first; c < last; c++) this.issues.damagedChunks.push(c)
      this.issues.add(first < last ? { ...issue, chunk: first } : issue)
    }
  }

  result(): ScanResult {
    this.flush(true)
    const index = this.index.finish()
    this.addSourceDamage(index)
    const issues = this.issues.finish()
    return {
      index,
      timing: this.pace.finish(),
      records: this.index.records,
      alignments: this.opts.check ? this.alignments : undefined,
      convention: this.convention,
      endOffset: this.pos,
      error: this.error,
      issues,
      damagedChunks: this.issues.damagedChunks,
      warnings: issues.filter((i) => i.severity !== 'error').map((i) => i.message),
      cancelled: false,
    }
  }
}
