/**
 * The RAD subset writer (docs/subsets.md): a valid RAD file holding only chosen
 * records of another. It streams: the prelude, then each output chunk as it
 * fills, go to a sink; nothing but the chunk being filled is held.
 *
 * What it writes (docs/subsets.md has the reasons):
 * - the source's prelude and file-tag values byte for byte (legacy or v2,
 *   §1), with `num_chunks` (§1.3) written as 0, "unknown" (§1.4), and
 *   patched to the real count by `finish()`, as salmon and piscem back-patch
 *   theirs; a file whose patch never lands is still valid, read to its end;
 * - every record's bytes exactly as in the source's (decompressed) chunk;
 * - chunks uncompressed, with `chunk_codec` (§6), when declared, set to 0
 *   (none): the value keeps its u8 width, so no offset moves;
 * - header-inclusive `nbytes` (8 + record bytes, §4.1–4.2), what every real
 *   producer writes, whatever convention the source used;
 * - records regrouped into chunks of at most SUBSET_MAX_RECORDS records and
 *   SUBSET_MAX_BYTES record bytes (a larger record gets a chunk alone), or,
 *   with `keepSourceChunks` (collated files, one cell barcode per chunk,
 *   §4.3), one output chunk per source chunk that keeps any record.
 */
import { CHUNK_HEADER_BYTES } from './decode/chunk'
import { RadError, fmtInt } from './errors'
import { numChunksBytes, patchNumChunks } from './prelude/prelude'
import type { Prelude } from './types'

/** Where the bytes go: appended in order, plus one rewrite of bytes already written. */
export interface ByteSink {
  write(bytes: Uint8Array): void | Promise<void>
  /** Overwrites bytes at `position` (already written); the subset patches num_chunks this way. */
  patch(position: number, bytes: Uint8Array): void | Promise<void>
}

/** salmon and piscem flush a chunk after ~5000 mapped reads (§4.2, §4.3): chunks of the same size. */
export const SUBSET_MAX_RECORDS = 5000
/** Record bytes per chunk at most: 4 MiB, ~40× a salmon chunk (~100 KB, chunkHeader.ts). */
export const SUBSET_MAX_BYTES = 4 << 20

export interface SubsetOptions {
  maxRecords?: number
  maxBytes?: number
  /** One output chunk per source chunk, never split or merged (collated files, §4.3). */
  keepSourceChunks?: boolean
}

export interface SubsetSummary {
  chunks: number
  records: number
  /** Bytes of the whole output file. */
  bytes: number
}

const U32_MAX = 0xffffffff

/**
 * The subset's prelude: `head` (the source's bytes [0, firstChunkOffset)), copied,
 * with num_chunks set to 0 (§1.4) and a declared `chunk_codec` set to 0 (§6).
 */
export function subsetHead(prelude: Prelude, head: Uint8Array): Uint8Array {
  if (head.length !== prelude.firstChunkOffset) {
    throw new Error('internal: the subset head must be the bytes before chunk 0')
  }
  const out = head.slice()
  patchNumChunks(out, prelude, 0)
  const codecTag = prelude.fileTags.findIndex((t) => t.name === 'chunk_codec')
  const at = prelude.fileTagValueOffsets[codecTag]
  if (codecTag >= 0 && at !== undefined) out[at] = 0
  return out
}

export class SubsetWriter {
  private readonly sink: ByteSink
  private readonly prelude: Prelude
  private readonly maxRecords: number
  private readonly maxBytes: number
  private readonly keepSourceChunks: boolean
  /** The chunk being filled: 8 header bytes, then its records. */
  private buffer = new Uint8Array(64 << 10)
  private filled = CHUNK_HEADER_BYTES
  private pendingRecords = 0
  private pendingSource = -1
  private chunks = 0
  private records = 0
  private bytes = 0

  constructor(prelude: Prelude, sink: ByteSink, opts: SubsetOptions = {}) {
    this.prelude = prelude
    this.sink = sink
    this.maxRecords = opts.maxRecords ?? SUBSET_MAX_RECORDS
    this.maxBytes = opts.maxBytes ?? SUBSET_MAX_BYTES
    this.keepSourceChunks = opts.keepSourceChunks ?? false
  }

  /** Writes the prelude (see subsetHead); `head` is the source's bytes before chunk 0. */
  async begin(head: Uint8Array): Promise<void> {
    const out = subsetHead(this.prelude, head)
    this.bytes += out.length
    await this.sink.write(out)
  }

  /**
   * Adds records of one source chunk: `payload` is its (decompressed) record
   * bytes, `bounds` their spans (recordBounds), `records` the chosen record
   * numbers within the chunk, ascending.
   */
  async addRecords(
    payload: Uint8Array,
    bounds: Uint32Array,
    records: Iterable<number>,
    sourceChunk: number,
  ): Promise<void> {
    for (const r of records) {
      const start = bounds[r]
      const end = bounds[r + 1]
      if (start === undefined || end === undefined) throw new Error(`internal: no record ${String(r)} in the chunk`)
      if (this.mustFlushBefore(end - start, sourceChunk)) await this.flush()
      this.append(payload.subarray(start, end))
      this.pendingSource = sourceChunk
    }
    if (this.keepSourceChunks) await this.flush()
  }

  private mustFlushBefore(recordBytes: number, sourceChunk: number): boolean {
    if (this.pendingRecords === 0) return false
    if (this.keepSourceChunks) return sourceChunk !== this.pendingSource
    const payload = this.filled - CHUNK_HEADER_BYTES
    return this.pendingRecords >= this.maxRecords || payload + recordBytes > this.maxBytes
  }

  private append(record: Uint8Array): void {
    const need = this.filled + record.length
    if (need > U32_MAX) {
      throw new RadError(
        'BAD_VALUE',
        `a subset chunk would exceed ${fmtInt(U32_MAX)} bytes, more than nbytes (u32) can say`,
      )
    }
    if (need > this.buffer.length) {
      const grown = new Uint8Array(Math.max(need, this.buffer.length * 2))
      grown.set(this.buffer.subarray(0, this.filled))
      this.buffer = grown
    }
    this.buffer.set(record, this.filled)
    this.filled = need
    this.pendingRecords++
  }

  /** Emits the chunk being filled: `[nbytes = 8 + records][nrec][records]` (§4.1). */
  private async flush(): Promise<void> {
    if (this.pendingRecords === 0) return
    const chunk = this.buffer.slice(0, this.filled)
    const view = new DataView(chunk.buffer)
    view.setUint32(0, chunk.length, true)
    view.setUint32(4, this.pendingRecords, true)
    this.chunks++
    this.records += this.pendingRecords
    this.bytes += chunk.length
    this.filled = CHUNK_HEADER_BYTES
    this.pendingRecords = 0
    this.pendingSource = -1
    await this.sink.write(chunk)
  }

  /** Writes the last chunk and patches num_chunks; the file is then complete. */
  async finish(): Promise<SubsetSummary> {
    await this.flush()
    await this.sink.patch(this.prelude.numChunksOffset, numChunksBytes(this.chunks))
    return { chunks: this.chunks, records: this.records, bytes: this.bytes }
  }
}
