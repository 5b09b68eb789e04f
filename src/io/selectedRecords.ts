/**
 * Walks the chunks that hold a selection of records (docs/subsets.md: a chunk
 * range, a record range, a filter's matches) and hands each one, with its
 * chosen records, to a visitor: the RAD subset writer, or the TSV / JSON
 * Lines exports. Chunks outside the selection are not decoded; the walk
 * stops after the selection's last chunk.
 *
 * With the chunk index in hand (the page's export worker) the chunks are
 * read directly, coalesced into blocks; without it (the CLI) the file is
 * scanned from chunk 0 (scanChunks). A damaged chunk in the selection stops
 * the walk with its error: an export never silently leaves records out.
 */
import { CHUNK_HEADER_BYTES, chunkSpan, recordLayout, u32le } from '../rad/decode/chunk'
import type { ChunkPayload, RecordLayout } from '../rad/decode/chunk'
import type { ChunkIndex } from '../rad/chunkIndex'
import { chunkPayload, decodeRecords } from '../rad/decode/decodeChunk'
import { recordBounds } from '../rad/decode/decodeExact'
import { RadError } from '../rad/errors'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'
import { throwIfContainerDamaged } from './containerDamage'
import { scanChunks } from './scanChunks'

/** Which records: every bound given must hold (AND). Ranges are 0-based and inclusive. */
export interface RecordSelection {
  chunks?: readonly [number, number]
  /** Global record numbers (the `ID` of `view`). */
  records?: readonly [number, number]
  /**
   * A record filter (rad/filter/recordFilter.ts: `(cols) => matchRecords(cols, compiled)`):
   * the chunk-relative numbers, ascending, of a decoded chunk's records it keeps.
   * Chunks are decoded only when this is given.
   */
  match?: (cols: ChunkColumns) => ArrayLike<number>
}

/** One chunk of the selection, as the visitor sees it. */
export interface SelectedChunk {
  chunk: number
  /** Global number of the chunk's record 0. */
  firstRecord: number
  /** The chunk's record bytes, decompressed. */
  payload: ChunkPayload
  /** The chosen records, chunk-relative, ascending. */
  records: number[]
  /** Each record's span in payload.bytes (recordBounds). */
  bounds: Uint32Array
  /** The chunk decoded (once, on first call). */
  columns: () => ChunkColumns
}

export interface WalkOptions {
  /** The index and nbytes convention, when a scan already found them. */
  known?: { index: ChunkIndex; convention: NbytesConvention }
  signal?: AbortSignal
  /** Chunks visited so far, of `total` when known. */
  onProgress?: (visited: number, total: number | undefined) => void
  /** Largest read of a scanned walk (scanChunks' blockSize): smaller for writers whose memory counts. */
  blockSize?: number
}

/** Reads the known chunks this many bytes at a time (the scan's streaming block, scanChunks.ts). */
const READ_BLOCK = 16 << 20

type Visit = (c: SelectedChunk) => Promise<void>

/** Chunks [first, last] the selection can touch, from its chunk bound alone. */
function chunkBound(sel: RecordSelection): [number, number] {
  return [sel.chunks?.[0] ?? 0, sel.chunks?.[1] ?? Number.MAX_SAFE_INTEGER]
}

/** Whether no chunk from `firstRecord` on can hold a selected record. */
function pastRecords(sel: RecordSelection, firstRecord: number): boolean {
  return sel.records !== undefined && firstRecord > sel.records[1]
}

/** The chunk-relative records [from, to) the record range allows. */
function inRange(sel: RecordSelection, firstRecord: number, nrec: number): [number, number] {
  const from = sel.records ? Math.max(0, sel.records[0] - firstRecord) : 0
  const to = sel.records ? Math.min(nrec, sel.records[1] - firstRecord + 1) : nrec
  return [from, to]
}

/** The records of [from, to) that `matches` (ascending) holds, or all of them. */
function chosen(from: number, to: number, matches: ArrayLike<number> | undefined): number[] {
  const out: number[] = []
  if (!matches) {
    for (let r = from; r < to; r++) out.push(r)
    return out
  }
  for (let i = 0; i < matches.length; i++) {
    const r = matches[i] ?? -1
    if (r >= from && r < to) out.push(r)
  }
  return out
}

class Selector {
  private readonly layout: RecordLayout
  private readonly prelude: Prelude
  private readonly sel: RecordSelection
  private readonly visit: Visit
  /** The bytes whose data went out: the prelude (file tags, reference names), then the visited chunks' span. */
  readonly used: [number, number][]

  constructor(prelude: Prelude, sel: RecordSelection, visit: Visit) {
    this.used = [[0, prelude.firstChunkOffset]]
    this.prelude = prelude
    this.sel = sel
    this.visit = visit
    this.layout = recordLayout(prelude)
  }

  /** Visits chunk k given its on-disk bytes, when it holds chosen records. */
  async chunk(
    bytes: Uint8Array,
    offset: number,
    k: number,
    firstRecord: number,
    convention: NbytesConvention,
  ): Promise<void> {
    const [from, to] = inRange(this.sel, firstRecord, u32le(bytes, 4))
    if (from >= to) return
    const payload = chunkPayload(bytes, offset, k, this.prelude.codec, convention)
    const bounds = recordBounds(payload, this.layout)
    let cols: ChunkColumns | undefined
    const columns = (): ChunkColumns => (cols ??= decodeRecords(payload, this.layout))
    const records = chosen(from, to, this.sel.match?.(columns()))
    if (records.length === 0) return
    this.markUsed(offset, offset + bytes.length)
    await this.visit({ chunk: k, firstRecord, payload, records, bounds, columns })
  }

  private markUsed(start: number, end: number): void {
    const span = this.used[1]
    if (span) span[1] = end
    else this.used.push([start, end])
  }
}

/**
 * Visits every chunk of the selection in file order. When the source's
 * container was found damaged where the visited data lies (a .sz frame
 * failing its checksum over the prelude or a visited chunk), it throws the
 * error `validate` reports for it: nothing read from such a frame leaves as
 * data (containerDamage.ts).
 */
export async function eachSelectedChunk(
  source: ByteSource,
  prelude: Prelude,
  sel: RecordSelection,
  visit: Visit,
  opts: WalkOptions = {},
): Promise<void> {
  const selector = new Selector(prelude, sel, visit)
  const walked = opts.known
    ? await walkKnown(source, selector, sel, opts.known, opts)
    : await walkScanned(source, prelude, selector, sel, opts)
  throwIfContainerDamaged(source, walked.index, walked.endOfChunks, selector.used)
}

/** Runs a walk; when it fails, the container's damage, which may be the cause, is the error. */
async function damageFirst(source: ByteSource, walked: Walked, walk: () => Promise<void>): Promise<Walked> {
  try {
    await walk()
  } catch (e) {
    throwIfContainerDamaged(source, walked.index, walked.endOfChunks, [[0, Infinity]])
    throw e
  }
  return walked
}

/** The index a walk had or built, and where its chunks end (to place container damage in a chunk). */
interface Walked {
  index: ChunkIndex
  endOfChunks: number
}

/** The chunks [from, to] of an index, read in blocks of up to READ_BLOCK bytes. */
async function walkKnown(
  source: ByteSource,
  selector: Selector,
  sel: RecordSelection,
  known: { index: ChunkIndex; convention: NbytesConvention },
  opts: WalkOptions,
): Promise<Walked> {
  const { index, convention } = known
  const [from, bound] = chunkBound(sel)
  const to = Math.min(bound, index.count - 1)
  const spanOf = (k: number): number => chunkSpan(index.nbytes[k] ?? 0, convention)
  const last = index.count - 1
  const endOfChunks = last < 0 ? 0 : (index.offset[last] ?? 0) + spanOf(last)
  return damageFirst(source, { index, endOfChunks }, () =>
    walkKnownChunks(source, selector, sel, known, opts, from, to),
  )
}

async function walkKnownChunks(
  source: ByteSource,
  selector: Selector,
  sel: RecordSelection,
  { index, convention }: { index: ChunkIndex; convention: NbytesConvention },
  opts: WalkOptions,
  from: number,
  to: number,
): Promise<void> {
  const spanOf = (k: number): number => chunkSpan(index.nbytes[k] ?? 0, convention)
  for (let k = from; k <= to;) {
    if (pastRecords(sel, index.firstRecord[k] ?? 0)) break
    const start = index.offset[k] ?? 0
    let end = k + 1
    while (end <= to && (index.offset[end] ?? 0) + spanOf(end) - start <= READ_BLOCK) end++
    const block = await source.read(start, (index.offset[end - 1] ?? 0) + spanOf(end - 1) - start, opts.signal)
    for (; k < end; k++) {
      throwIfAborted(opts.signal)
      const at = (index.offset[k] ?? 0) - start
      await selector.chunk(block.subarray(at, at + spanOf(k)), start + at, k, index.firstRecord[k] ?? 0, convention)
      opts.onProgress?.(k - from + 1, to - from + 1)
    }
  }
}

/** Scans from chunk 0 (no index yet), stopping after the selection's last chunk. */
async function walkScanned(
  source: ByteSource,
  prelude: Prelude,
  selector: Selector,
  sel: RecordSelection,
  opts: WalkOptions,
): Promise<Walked> {
  const [from, to] = chunkBound(sel)
  let firstRecord = 0
  let failure: Error | undefined
  let finished = false
  const scan = await scanChunks(source, prelude, {
    signal: opts.signal,
    blockSize: opts.blockSize,
    onChunk: async (bytes, offset, k, convention) => {
      const nrec = bytes.length >= CHUNK_HEADER_BYTES ? u32le(bytes, 4) : 0
      const first = firstRecord
      firstRecord += nrec
      if (k > to || pastRecords(sel, first)) return (finished = true)
      if (k < from) return false
      try {
        await selector.chunk(bytes, offset, k, first, convention)
      } catch (e) {
        failure = e instanceof Error ? e : new Error(String(e))
        return true
      }
      opts.onProgress?.(k - from + 1, undefined)
      return false
    },
  })
  const walked = { index: scan.index, endOfChunks: scan.endOffset }
  return damageFirst(source, walked, () => {
    if (failure !== undefined) throw failure
    if (scan.cancelled) throwIfAborted(opts.signal)
    if (scan.error && !finished) throw RadError.fromData(scan.error)
    return Promise.resolve()
  })
}
