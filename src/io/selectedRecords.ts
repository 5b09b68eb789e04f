/**
 * Walks the chunks that hold a selection of records (docs/subsets.md: a chunk
 * range, a record range, a filter's matches) and hands each one, with its
 * chosen records, to a visitor: the RAD subset writer, or the TSV / JSON
 * Lines exports. Chunks outside the selection are not decoded; the walk
 * stops after the selection's last chunk.
 *
 * With the chunk index in hand (the page's export worker) the chunks are
 * read directly, coalesced into blocks; without it (the CLI) the file is
 * scanned from chunk 0 (scanNumberedChunks, the numbered walk `view` and
 * `dump` print from too). A damaged chunk in the selection stops the walk
 * with its error: an export never silently leaves records out.
 */
import { chunkSpan, recordLayout } from '../rad/decode/chunk'
import type { ChunkPayload, RecordLayout } from '../rad/decode/chunk'
import { chunkRecordCount } from '../rad/decode/chunkHeader'
import type { ChunkIndex } from '../rad/chunkIndex'
import { chunkPayload, decodeRecords } from '../rad/decode/decodeChunk'
import { recordBounds } from '../rad/decode/decodeExact'
import { RadError } from '../rad/errors'
import type { ChunkColumns, NbytesConvention, Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'
import { throwIfAborted } from './byteSource'
import { throwIfContainerDamaged } from './containerDamage'
import { scanChunks } from './scanChunks'
import type { ChunkVerdict, ScanResult } from './scanChunks'

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

/** The chosen records of a decoded chunk whose record 0 is `firstRecord`: chunk-relative, ascending. */
export function chosenRecords(sel: RecordSelection, firstRecord: number, cols: ChunkColumns): number[] {
  const [from, to] = inRange(sel, firstRecord, cols.recordCount)
  return chosen(from, to, sel.match?.(cols))
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
    const [from, to] = inRange(this.sel, firstRecord, chunkRecordCount(bytes))
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

/** Scans from chunk 0 (no index yet): the numbered walk, stopped by the first damaged chunk it visits. */
async function walkScanned(
  source: ByteSource,
  prelude: Prelude,
  selector: Selector,
  sel: RecordSelection,
  opts: WalkOptions,
): Promise<Walked> {
  let failure: Error | undefined
  const scan = await scanNumberedChunks(
    source,
    prelude,
    sel,
    async (c) => {
      try {
        await selector.chunk(c.bytes, c.offset, c.chunk, c.firstRecord, c.convention)
      } catch (e) {
        failure = e instanceof Error ? e : new Error(String(e))
        return true
      }
      return false
    },
    opts,
  )
  const walked = { index: scan.index, endOfChunks: scan.endOffset }
  return damageFirst(source, walked, () => {
    if (failure !== undefined) throw failure
    if (scan.cancelled) throwIfAborted(opts.signal)
    // The walk stops quietly once past the selection: a scan error is a fault it met before that.
    if (scan.error) throw RadError.fromData(scan.error)
    return Promise.resolve()
  })
}

/** A chunk of the numbered walk, as read: its on-disk bytes (header included), where it is, its first record's number. */
export interface NumberedChunk {
  bytes: Uint8Array
  offset: number
  chunk: number
  /** Global number of the chunk's record 0 (the `ID` of `view`). */
  firstRecord: number
  convention: NbytesConvention
}

/**
 * The numbered chunk walk: scans from chunk 0 (scanChunks), numbering the
 * records by what every chunk header declares (§4.1), in a damaged chunk too
 * (docs/integrity.md, "Record numbers"): the records after it keep theirs.
 * It hands `visit` each chunk in the selection's chunk range that reaches
 * into its record range (`match` is not looked at: nothing is decoded here),
 * and stops right after a visited chunk that ends either range, or at the
 * first chunk past the chunk range; `visit` returning true stops it too.
 * What `visit` throws goes to scanChunks: a RadError local to the chunk is
 * listed in the scan's issues and the walk goes on (`view` and `dump` print
 * what decodes and list the rest); any other RadError stops it, as the
 * scan's error. Returns the scan.
 */
export async function scanNumberedChunks(
  source: ByteSource,
  prelude: Prelude,
  sel: RecordSelection,
  visit: (c: NumberedChunk) => Promise<ChunkVerdict>,
  opts: Pick<WalkOptions, 'signal' | 'onProgress' | 'blockSize'> = {},
): Promise<ScanResult> {
  const [from, to] = chunkBound(sel)
  let records = 0
  return scanChunks(source, prelude, {
    signal: opts.signal,
    blockSize: opts.blockSize,
    onChunk: async (bytes, offset, chunk, convention) => {
      const firstRecord = records
      records += chunkRecordCount(bytes)
      if (chunk > to) return true
      if (chunk < from) return false
      // A chunk before the record range is passed over, and the walk goes on even when it ends the chunk range.
      const holds = sel.records === undefined || records > sel.records[0]
      if (holds && (await visit({ bytes, offset, chunk, firstRecord, convention })) === true) return true
      opts.onProgress?.(chunk - from + 1, undefined)
      return holds && (chunk >= to || pastRecords(sel, records))
    },
  })
}
