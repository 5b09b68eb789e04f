import { CHUNK_HEADER_BYTES, LITTLE_ENDIAN_HOST, chunkSpan, recordLayout, u32le } from '../rad/chunk'
import type { RecordLayout } from '../rad/chunk'
import { ChunkIndexBuilder, chunksOverlapping } from '../rad/chunkIndex'
import type { ChunkIndex } from '../rad/chunkIndex'
import { chunkPayload, detectConvention } from '../rad/decodeChunk'
import { RadError, fmtInt } from '../rad/errors'
import type { RadErrorData } from '../rad/errors'
import { isChunkLocal, issueFromError } from '../rad/integrity'
import type { IntegrityIssue } from '../rad/integrity'
import { RAD_MAGIC } from '../rad/prelude'
import { declaredLengthIssues } from '../rad/semantics'
import type { NbytesConvention, Prelude } from '../rad/types'
import { checkChunk, scanWords } from '../rad/valueChecks'
import type { CheckPlan } from '../rad/valueChecks'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'
import { SequentialReader } from './sequentialReader'
import { yieldTask } from './yieldTask'
import type { ArrivedBlock } from './sequentialReader'

/** Largest chunk we accept; salmon's are ~100 KB, collated ones a few MB. */
export const MAX_CHUNK_BYTES = 1 << 30
/** Chunk 0 is measured to detect the nbytes convention (§4.2) only up to this size. */
const MAX_CONVENTION_PROBE = 64 << 20
/**
 * Streaming reads: blocks grow to 16 MiB; 3 windows (the one being walked and
 * two reads in flight). Measured in this machine's Chromium (bench/): with the
 * walk yielding (yieldTask) the reads progress while it computes, and 16 MiB
 * blocks index as fast as 32 MiB ones (0.58–0.59 against 0.54–0.69 GB/s,
 * back to back) for half the memory: the renderer's peak while indexing
 * 5 GiB was 297 MiB above idle with 32 MiB × 3 (goal < 300, issue 4).
 */
export const DEFAULT_BLOCK = 16 << 20
const READS_IN_FLIGHT = 3
/**
 * Above this average chunk size, hop from header to header instead of
 * streaming: a Blob read costs ~0.8 ms, worth ~0.5–0.8 MB of streaming (issue 4).
 */
const HOP_THRESHOLD = 1 << 20

export interface ScanProgress {
  bytesScanned: number
  bytesTotal: number
  chunks: number
  records: number
  elapsedMs: number
}

export type ChunkVerdict = boolean | undefined

export interface WalkOptions {
  signal?: AbortSignal
  /**
   * Every chunk's on-disk bytes (header included). Throwing a RadError stops
   * the walk with that error; returning (or resolving to) true stops it quietly.
   */
  onChunk?: (
    bytes: Uint8Array,
    offset: number,
    chunk: number,
    convention: NbytesConvention,
  ) => ChunkVerdict | Promise<ChunkVerdict>
  /** Check every chunk's records in place (layout, reference ids, sequence widths). */
  check?: CheckPlan
  /** New index entries since the last call (fresh buffers, safe to transfer). */
  onIndex?: (added: ChunkIndex, convention: NbytesConvention) => void
  onProgress?: (p: ScanProgress) => void
  progressIntervalMs?: number
  blockSize?: number
  /**
   * Milliseconds the walk should stay paused now (0: go on). The page asks
   * for pauses while the user scrolls, so that on a machine with few cores
   * the walk does not take the CPU the page needs for its frames (issue 4).
   */
  held?: () => number
}

/** Where the walk's time went (the benchmark prints it: what bounds the index, issue 4). */
export interface WalkTiming {
  /** From the start of the walk to its end. */
  walkMs: number
  /** Waiting for bytes not yet read. */
  readWaitMs: number
  /** In yields: the thread's other tasks, such as the reads in flight taking in their bytes. */
  yieldMs: number
  /** Paused at the page's request (`held`). */
  heldMs: number
}

export interface ScanResult {
  index: ChunkIndex
  timing: WalkTiming
  records: number
  convention: NbytesConvention
  /** Where the walk stopped (end of the last good chunk). */
  endOffset: number
  /** Alignments in all chunks, when `check` was given. */
  alignments: number | undefined
  /** The problem that stopped the walk; every chunk before it is in `index`. */
  error: RadErrorData | undefined
  /** Everything worth saying about the file, the stopping error included. */
  issues: IntegrityIssue[]
  /** Every chunk whose records failed a check, listed in `issues` or not (a salvage leaves them out). */
  damagedChunks: number[]
  /** The messages of the issues that are not errors. */
  warnings: string[]
}

function conventionWarning(convention: NbytesConvention): string[] {
  if (convention === 'header-inclusive') return []
  return [
    'chunk nbytes excludes the 8-byte chunk header (payload-only, as an older C++ writer did, RAD-FORMAT.md §4.2); every real producer includes it — read this file accordingly',
  ]
}

/** §4.2: decide the nbytes convention from chunk 0. */
async function findConvention(source: ByteSource, prelude: Prelude, signal?: AbortSignal): Promise<NbytesConvention> {
  const at = prelude.firstChunkOffset
  if (at + CHUNK_HEADER_BYTES > source.size) return 'header-inclusive'
  const head = await source.read(at, CHUNK_HEADER_BYTES, signal)
  const nbytes = new DataView(head.buffer, head.byteOffset, head.byteLength).getUint32(0, true)
  const length = Math.min(nbytes + CHUNK_HEADER_BYTES, source.size - at)
  if (length > MAX_CONVENTION_PROBE) return 'header-inclusive'
  return detectConvention(await source.read(at, length, signal), at, prelude)
}

function chunkAt(k: number, pos: number): string {
  return `chunk ${fmtInt(k)} at byte ${fmtInt(pos)}`
}

/** Sanity checks on one chunk header before trusting it (§4.1). */
function checkHeader(
  k: number,
  pos: number,
  nbytes: number,
  nrec: number,
  span: number,
  size: number,
  prelude: Prelude,
  layout: RecordLayout,
): void {
  if (span < CHUNK_HEADER_BYTES) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${chunkAt(k, pos)}: nbytes is ${fmtInt(nbytes)}, but a chunk is at least its 8-byte header`,
      pos,
      k,
    )
  }
  if (span > MAX_CHUNK_BYTES) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${chunkAt(k, pos)}: nbytes is ${fmtInt(nbytes)}, an absurd size for one chunk (limit ${fmtInt(MAX_CHUNK_BYTES)})`,
      pos,
      k,
    )
  }
  if (pos + span > size) {
    throw new RadError(
      'TRUNCATED',
      `file ends inside ${chunkAt(k, pos)}: it declares nbytes ${fmtInt(nbytes)} (${fmtInt(nrec)} records) but only ${fmtInt(size - pos)} bytes remain`,
      pos,
      k,
    )
  }
  if (prelude.codec === 'none' && nrec * layout.minRecordBytes > span - CHUNK_HEADER_BYTES) {
    throw new RadError(
      'BAD_CHUNK_HEADER',
      `${chunkAt(k, pos)}: nrec is ${fmtInt(nrec)}, but its ${fmtInt(span - CHUNK_HEADER_BYTES)} record bytes can hold at most ${fmtInt(Math.floor((span - CHUNK_HEADER_BYTES) / layout.minRecordBytes))} records`,
      pos,
      k,
    )
  }
}

function startsWithMagic(bytes: Uint8Array): boolean {
  return RAD_MAGIC.every((b, i) => bytes[i] === b)
}

/** After the declared chunks: trailing bytes, or a second RAD file (concatenation). */
async function trailingIssue(
  source: ByteSource,
  pos: number,
  chunks: number,
  signal?: AbortSignal,
): Promise<IntegrityIssue> {
  const head = await source.read(pos, 8, signal)
  const extra = source.size - pos
  if (startsWithMagic(head) || looksLikeLegacyPrelude(head)) {
    return {
      kind: 'concatenated',
      severity: 'warning',
      part: 'after-chunks',
      offset: pos,
      message: `a second RAD file seems to start at byte ${fmtInt(pos)}, after the ${fmtInt(chunks)} chunks that num_chunks declares: files were concatenated; only the first is shown (${fmtInt(extra)} bytes follow)`,
    }
  }
  return {
    kind: 'trailing-bytes',
    severity: 'warning',
    part: 'after-chunks',
    offset: pos,
    message: `${fmtInt(extra)} trailing bytes after the ${fmtInt(chunks)} chunks that num_chunks declares (from byte ${fmtInt(pos)}); they are ignored`,
  }
}

/** A legacy header starts with paired 0/1 then a u64 ref_count whose high bytes are 0. */
function looksLikeLegacyPrelude(head: Uint8Array): boolean {
  return (
    head.length === 8 &&
    (head[0] === 0 || head[0] === 1) &&
    head[5] === 0 &&
    head[6] === 0 &&
    head[7] === 0 &&
    (head[1] ?? 0) + (head[2] ?? 0) > 0
  )
}

function fileIssues(prelude: Prelude, convention: NbytesConvention): IntegrityIssue[] {
  const issues: IntegrityIssue[] = prelude.warnings.map((message) => ({
    kind: message.startsWith('num_chunks is 0') ? 'num-chunks-unknown' : 'note',
    severity: 'info',
    message,
    part: 'prelude',
  }))
  issues.push(...declaredLengthIssues(prelude))
  for (const message of conventionWarning(convention)) {
    issues.push({
      kind: 'payload-only-nbytes',
      severity: 'info', // a convention a real writer used (§4.2), not a deviation
      message,
      offset: prelude.firstChunkOffset,
      chunk: 0,
    })
  }
  return issues
}

/** Where walkCleanRun stopped: the next chunk's number and offset, and the alignments counted so far. */
interface CleanRun {
  k: number
  pos: number
  alignments: number
}

/** Chunks and bytes walked per walkCleanRun call at most, so the walk can yield, report and be cancelled. */
const CLEAN_RUN_MAX = 4096
const CLEAN_RUN_BYTES = 1 << 20
/** Longest stretch of computing between yields to the thread's tasks, where the reads in flight make progress (yieldTask). */
const YIELD_MS = 1
/** A pause asked for by `held` is re-checked at least this often. */
const MAX_HOLD_MS = 250

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/**
 * The walk's hot path (issue 4: a collated file has a million chunks of ~60
 * bytes). Walks, from `run`, the chunks that lie whole and 4-byte aligned in
 * `block` with a sane header (§4.1) and records that pass the word scan of
 * valueChecks, allocating nothing per chunk. It stops before the first chunk
 * that is not so — straddling the block, suspect, damaged, or past `kEnd` —
 * and leaves it to the careful path, which reads it again and explains.
 * `headerExtra` is 8 for payload-only nbytes (§4.2), else 0.
 */
function walkCleanRun(
  run: CleanRun,
  block: ArrivedBlock,
  words: Uint32Array,
  kEnd: number,
  sizes: { file: number; headerExtra: number; minRecordBytes: number },
  plan: CheckPlan | undefined,
  builder: ChunkIndexBuilder,
): void {
  const { file, headerExtra, minRecordBytes } = sizes
  const start = block.start
  const length = block.bytes.length
  let { k, pos, alignments } = run
  const stop = pos + CLEAN_RUN_BYTES
  for (let n = 0; n < CLEAN_RUN_MAX && k < kEnd && pos < stop; n++) {
    const rel = pos - start
    if ((rel & 3) !== 0 || rel + CHUNK_HEADER_BYTES > length) break
    const w = rel >>> 2
    const nbytes = words[w]!
    const nrec = words[w + 1]!
    const span = nbytes + headerExtra
    if (span < CHUNK_HEADER_BYTES || span > MAX_CHUNK_BYTES || (span & 3) !== 0) break
    if (rel + span > length || pos + span > file || nrec * minRecordBytes > span - CHUNK_HEADER_BYTES) break
    if (plan) {
      const found = scanWords(words, w + 2, w + span / 4, nrec, plan)
      if (found < 0) break
      alignments += found
    }
    builder.push(pos, nbytes, nrec)
    pos += span
    k++
  }
  run.k = k
  run.pos = pos
  run.alignments = alignments
}

/** At most this many chunk-level issues are listed; later ones are only counted. */
const MAX_LISTED_ISSUES = 1000

/**
 * Walks the chunks from the end of the prelude (§4), building the chunk index.
 * Small chunks are streamed in large blocks with reads in flight; large ones
 * are hopped header to header (unless every byte is needed for `onChunk` or
 * `check`). A problem inside one chunk's records is reported and the walk goes
 * on; a problem with the chunk structure stops it, keeping everything before.
 */
export async function walkChunks(source: ByteSource, prelude: Prelude, opts: WalkOptions = {}): Promise<ScanResult> {
  const { signal, onChunk, onIndex, onProgress, check } = opts
  const started = Date.now()
  const walkStarted = performance.now()
  const convention = await findConvention(source, prelude, signal)
  const issues = fileIssues(prelude, convention)
  const layout = recordLayout(prelude)
  const size = source.size
  // Reserve what num_chunks says, but no more chunks than the bytes can hold: the header may be corrupt.
  const builder = new ChunkIndexBuilder(
    Math.min(prelude.numChunks, (size - prelude.firstChunkOffset) / CHUNK_HEADER_BYTES),
  )
  const interval = opts.progressIntervalMs ?? 100
  const needBytes = onChunk !== undefined || check !== undefined
  const reader = new SequentialReader(
    source,
    prelude.firstChunkOffset,
    opts.blockSize ?? DEFAULT_BLOCK,
    READS_IN_FLIGHT,
    signal,
  )
  let pos = prelude.firstChunkOffset
  let reported = 0
  let lastProgress = 0
  let lastYield = performance.now()
  const timing: WalkTiming = { walkMs: 0, readWaitMs: 0, yieldMs: 0, heldMs: 0 }
  /** Awaits a read, counting the time as waiting for bytes. */
  const waitFor = async (read: Promise<Uint8Array>): Promise<Uint8Array> => {
    const asked = performance.now()
    try {
      return await read
    } finally {
      timing.readWaitMs += performance.now() - asked
    }
  }
  /** Yields to the thread's tasks when it has computed for YIELD_MS, and stays paused while `held` asks. */
  const pause = async (): Promise<void> => {
    if (performance.now() - lastYield < YIELD_MS) return
    const asked = performance.now()
    for (let hold = opts.held?.() ?? 0; hold > 0; hold = opts.held?.() ?? 0) {
      await sleep(Math.min(hold, MAX_HOLD_MS))
      throwIfAborted(signal)
    }
    const resumed = performance.now()
    timing.heldMs += resumed - asked
    await yieldTask()
    throwIfAborted(signal)
    lastYield = performance.now()
    timing.yieldMs += lastYield - resumed
  }
  let alignments = 0
  let badChunks = 0
  const damagedChunks: number[] = []
  let error: RadErrorData | undefined
  let stopped = false

  const flush = (force: boolean): void => {
    const now = Date.now()
    if (!force && now - lastProgress < interval) return
    lastProgress = now
    if (onIndex && builder.count > reported) {
      onIndex(builder.snapshot(reported), convention)
      reported = builder.count
    }
    onProgress?.({
      bytesScanned: pos,
      bytesTotal: size,
      chunks: builder.count,
      records: builder.records,
      elapsedMs: now - started,
    })
  }
  const report = (issue: IntegrityIssue): void => {
    badChunks++
    if (issue.chunk !== undefined) damagedChunks.push(issue.chunk)
    if (badChunks <= MAX_LISTED_ISSUES) issues.push(issue)
  }
  /** Large chunks: read each header alone instead of streaming (unless every byte is needed). */
  const hop = (): boolean =>
    !needBytes && builder.count > 0 && (pos - prelude.firstChunkOffset) / builder.count > HOP_THRESHOLD
  /** Chunk k's 8 header bytes when they are not in the block in hand. */
  const readHeader = async (k: number): Promise<Uint8Array> => {
    const bytes = await waitFor(
      hop() ? source.read(pos, CHUNK_HEADER_BYTES, signal) : reader.get(pos, CHUNK_HEADER_BYTES),
    )
    throwIfAborted(signal)
    if (bytes.length < CHUNK_HEADER_BYTES) {
      throw new RadError(
        'TRUNCATED',
        `file ends inside the header of chunk ${fmtInt(k)} at byte ${fmtInt(pos)} (${fmtInt(size - pos)} of 8 bytes present)`,
        pos,
        k,
        'chunk-header',
      )
    }
    return bytes
  }
  // The hot path needs plain records it can scan as words, and nobody asking for each chunk's bytes.
  const cleanRuns = prelude.codec === 'none' && LITTLE_ENDIAN_HOST && !onChunk && (!check || check.words !== undefined)
  const run: CleanRun = { k: 0, pos, alignments: 0 }
  const sizes = { file: size, headerExtra: chunkSpan(0, convention), minRecordBytes: layout.minRecordBytes }
  const kEnd = prelude.numChunks === 0 ? Infinity : prelude.numChunks
  let k = 0

  try {
    for (; k < kEnd; k++) {
      const block = hop() ? undefined : reader.block(pos, CHUNK_HEADER_BYTES)
      if (cleanRuns && block?.words) {
        Object.assign(run, { k, pos, alignments })
        walkCleanRun(run, block, block.words, kEnd, sizes, check, builder)
        if (run.k > k) {
          pos = run.pos
          alignments = run.alignments
          k = run.k - 1 // the loop's k++ brings it to the next chunk
          flush(false)
          await pause()
          continue
        }
      }
      if (pos === size && prelude.numChunks === 0) break
      if (pos === size) {
        throw new RadError(
          'TRUNCATED',
          `file ends after ${fmtInt(k)} of the ${fmtInt(prelude.numChunks)} chunks that num_chunks declares (at byte ${fmtInt(pos)}): ` +
            'the file was cut at a chunk boundary, or num_chunks is wrong',
          pos,
          k,
          'after-chunks',
        )
      }
      // The careful path, one chunk: from the block in hand when it holds the chunk, else read.
      const head = block ? block.bytes : await readHeader(k)
      const at = block ? pos - block.start : 0
      const nbytes = u32le(head, at)
      const nrec = u32le(head, at + 4)
      const span = chunkSpan(nbytes, convention)
      checkHeader(k, pos, nbytes, nrec, span, size, prelude, layout)
      let stop: ChunkVerdict = false
      if (needBytes) {
        const bytes =
          block && at + span <= block.bytes.length
            ? block.bytes.subarray(at, at + span)
            : await waitFor(reader.get(pos, span))
        try {
          if (check) alignments += checkChunk(chunkPayload(bytes, pos, k, prelude.codec, convention), layout, check)
          const verdict = onChunk?.(bytes, pos, k, convention)
          stop = verdict instanceof Promise ? await verdict : verdict
        } catch (e) {
          if (!(e instanceof RadError && isChunkLocal(e.code))) throw e
          report(issueFromError(e.inChunk(k).inPart('chunk-records')))
        }
      }
      builder.push(pos, nbytes, nrec)
      pos += span
      if (k === 0 || (k & 255) === 0) {
        flush(k === 0)
        await pause()
      }
      if (stop === true) {
        stopped = true
        break
      }
    }
    if (!stopped && prelude.numChunks > 0 && pos < size) {
      issues.push(await trailingIssue(source, pos, builder.count, signal))
    }
  } catch (e) {
    if (!(e instanceof RadError)) throw e
    const fault = e.inChunk(e.chunk ?? builder.count)
    error = fault.toData()
    issues.push(issueFromError(fault))
  }
  if (badChunks > MAX_LISTED_ISSUES) {
    issues.push({
      kind: 'note',
      severity: 'warning',
      message: `${fmtInt(badChunks - MAX_LISTED_ISSUES)} more damaged chunks are not listed`,
    })
  }
  flush(true)
  timing.walkMs = performance.now() - walkStarted
  const index = builder.finish()
  // Damage the source found in its container (a .sz frame failing its checksum) spoils the chunks it holds.
  for (const { issue, start, end } of source.damage?.() ?? []) {
    const [first, last] = chunksOverlapping(index, pos, start, end)
    for (let c = first; c < last; c++) damagedChunks.push(c)
    issues.push(first < last ? { ...issue, chunk: first } : issue)
  }
  return {
    index,
    timing,
    records: builder.records,
    alignments: check ? alignments : undefined,
    convention,
    endOffset: pos,
    error,
    issues,
    damagedChunks,
    warnings: issues.filter((i) => i.severity !== 'error').map((i) => i.message),
  }
}
