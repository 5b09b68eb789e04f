import { allocColumn, columnKindOf, fillFixedColumn, setColumnValue } from './columns'
import { Cursor } from './cursor'
import { RadError, fmtInt } from './errors'
import { fixedStride, fixedWidth, readValue, skipValue } from './tags'
import { TYPE_ID } from './types'
import type { ChunkColumns, ChunkHeader, Column, NbytesConvention, Prelude, TagDesc } from './types'

/** `[nbytes u32][nrec u32]` (RAD-FORMAT.md §4.1). */
export const CHUNK_HEADER_BYTES = 8

/**
 * A little-endian u32 at bytes[i] without a DataView: the chunk walk reads two
 * per chunk, and a million-chunk file made the DataView allocations show.
 */
export function u32le(bytes: Uint8Array, i: number): number {
  return (
    ((bytes[i] ?? 0) | ((bytes[i + 1] ?? 0) << 8) | ((bytes[i + 2] ?? 0) << 16) | ((bytes[i + 3] ?? 0) << 24)) >>> 0
  )
}

/** Bytes a chunk occupies on disk, header included, under a convention (§4.2). */
export function chunkSpan(nbytes: number, convention: NbytesConvention): number {
  return convention === 'header-inclusive' ? nbytes : nbytes + CHUNK_HEADER_BYTES
}

/** Reads a chunk header at `offset` of a window; no judgement beyond nbytes ≥ 8. */
export function readChunkHeader(view: DataView, at: number, offset: number): ChunkHeader {
  return { offset, nbytes: view.getUint32(at, true), nrec: view.getUint32(at + 4, true) }
}

/** The record layout precomputed from the descriptors (§5.2). */
export interface RecordLayout {
  readTags: readonly TagDesc[]
  alnTags: readonly TagDesc[]
  /** Σ widths of read tags, or -1 if any is variable-width. */
  readStride: number
  /** Σ widths of alignment tags, or -1 if any is variable-width. */
  alnStride: number
  /** Smallest possible record: naln + fixed read tags + the length prefix of each string/array. */
  minRecordBytes: number
}

/** Fewest bytes a value of this tag can take: a string its u16 length, an array its count. */
function minValueBytes(tag: TagDesc): number {
  const width = fixedWidth(tag.type)
  if (width > 0) return width
  if (tag.type.id === TYPE_ID.array) return fixedWidth({ id: tag.type.lengthType ?? TYPE_ID.u32 })
  return 2
}

export function recordLayout(prelude: Pick<Prelude, 'readTags' | 'alnTags'>): RecordLayout {
  const readStride = fixedStride(prelude.readTags)
  let minRead = 0
  for (const tag of prelude.readTags) minRead += minValueBytes(tag)
  return {
    readTags: prelude.readTags,
    alnTags: prelude.alnTags,
    readStride,
    alnStride: fixedStride(prelude.alnTags),
    minRecordBytes: 4 + (readStride >= 0 ? readStride : minRead),
  }
}

/** Where the records of a chunk are, once decompressed if need be. */
export interface ChunkPayload {
  chunk: number
  /** Absolute offset of the chunk header (for messages). */
  offset: number
  nbytes: number
  nrec: number
  /** The record bytes. */
  bytes: Uint8Array
  /** Absolute offset of bytes[0] in the file, or of the compressed payload. */
  bytesOffset: number
  compressed: boolean
}

export function overrun(p: ChunkPayload, record: number, at: number): RadError {
  const where = p.compressed ? `byte ${fmtInt(at - p.bytesOffset)} of its decompressed payload` : `byte ${fmtInt(at)}`
  return new RadError(
    'CHUNK_OVERRUN',
    `chunk ${fmtInt(p.chunk)} (at byte ${fmtInt(p.offset)}, nbytes ${fmtInt(p.nbytes)}, nrec ${fmtInt(p.nrec)}): ` +
      `record ${fmtInt(record)} at ${where} runs past the end of the chunk's ${fmtInt(p.bytes.length)} record bytes`,
    p.compressed ? p.offset : at,
    p.chunk,
  )
}

export function underrun(p: ChunkPayload, consumed: number): RadError {
  const extra = p.bytes.length - consumed
  const at = p.bytesOffset + consumed
  return new RadError(
    'CHUNK_UNDERRUN',
    `chunk ${fmtInt(p.chunk)} (at byte ${fmtInt(p.offset)}): its ${fmtInt(p.nrec)} records end ${fmtInt(extra)} bytes before the chunk does ` +
      `(records fill ${fmtInt(consumed)} of ${fmtInt(p.bytes.length)} record bytes; an undeclared field?)`,
    p.compressed ? p.offset : at,
    p.chunk,
  )
}

/** Refuses to allocate for more records than the payload could possibly hold. */
export function checkRecordCount(p: ChunkPayload, layout: RecordLayout): void {
  if (p.nrec * layout.minRecordBytes > p.bytes.length) {
    throw new RadError(
      'CHUNK_OVERRUN',
      `chunk ${fmtInt(p.chunk)} at byte ${fmtInt(p.offset)} declares ${fmtInt(p.nrec)} records, but its ${fmtInt(p.bytes.length)} record bytes ` +
        `can hold at most ${fmtInt(Math.floor(p.bytes.length / layout.minRecordBytes))}`,
      p.offset,
      p.chunk,
    )
  }
}

interface RecordWalk {
  /** Payload-relative start of each record. */
  recStart: Uint32Array
  /** CSR: alignments of record r are alnStart[r]..alnStart[r+1]. */
  alnStart: Uint32Array
  consumed: number
}

/** Layout pass when every tag is fixed-width: only naln is read (§5.2). */
function walkFixed(p: ChunkPayload, layout: RecordLayout, view: DataView): RecordWalk {
  const { nrec, bytes } = p
  const recStart = new Uint32Array(nrec)
  const alnStart = new Uint32Array(nrec + 1)
  const headBytes = 4 + layout.readStride
  const alnStride = layout.alnStride
  const end = bytes.length
  let pos = 0
  let total = 0
  for (let r = 0; r < nrec; r++) {
    if (pos + headBytes > end) throw overrun(p, r, p.bytesOffset + pos)
    const naln = view.getUint32(pos, true)
    recStart[r] = pos
    const next = pos + headBytes + naln * alnStride
    if (next > end) throw overrun(p, r, p.bytesOffset + pos)
    total += naln
    if (total > 0xffffffff) throw overrun(p, r, p.bytesOffset + pos)
    alnStart[r + 1] = total
    pos = next
  }
  return { recStart, alnStart, consumed: pos }
}

function skipTags(cur: Cursor, tags: readonly TagDesc[]): void {
  for (const tag of tags) skipValue(cur, tag.type)
}

/** Layout pass for variable-width tags: walks every value. */
function walkGeneric(p: ChunkPayload, layout: RecordLayout): RecordWalk {
  const { nrec, bytes } = p
  // Absolute positions for a plain chunk, so a bad value inside a record is
  // reported at its file offset; decompressed bytes have no file offset.
  const base = p.compressed ? 0 : p.bytesOffset
  const cur = new Cursor(bytes, base, base + bytes.length)
  const recStart = new Uint32Array(nrec)
  const alnStart = new Uint32Array(nrec + 1)
  let total = 0
  for (let r = 0; r < nrec; r++) {
    recStart[r] = cur.pos - base
    try {
      const naln = cur.u32()
      skipTags(cur, layout.readTags)
      if (layout.alnStride >= 0) cur.skip(naln * layout.alnStride)
      else for (let a = 0; a < naln; a++) skipTags(cur, layout.alnTags)
      total += naln
    } catch (e) {
      if (e instanceof RadError && e.code === 'TRUNCATED') throw overrun(p, r, p.bytesOffset + (recStart[r] ?? 0))
      if (e instanceof RadError) {
        const message = p.compressed ? `chunk ${fmtInt(p.chunk)}, decompressed payload: ${e.message}` : e.message
        throw new RadError(e.code, message, p.compressed ? p.offset : e.offset, p.chunk)
      }
      throw e
    }
    if (total > 0xffffffff) throw overrun(p, r, p.bytesOffset + (recStart[r] ?? 0))
    alnStart[r + 1] = total
  }
  return { recStart, alnStart, consumed: cur.pos - base }
}

function walkRecords(p: ChunkPayload, layout: RecordLayout, view: DataView): RecordWalk {
  checkRecordCount(p, layout)
  return layout.readStride >= 0 && layout.alnStride >= 0 ? walkFixed(p, layout, view) : walkGeneric(p, layout)
}

/**
 * Counts the bytes the chunk's records occupy, without requiring that they
 * fill the payload (used to detect the nbytes convention, §4.2).
 */
export function measureRecords(p: ChunkPayload, layout: RecordLayout): number {
  const view = new DataView(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength)
  return walkRecords(p, layout, view).consumed
}

/** Alignment start positions, payload-relative, for fixed-width alignment tags. */
function alignmentPositions(walk: RecordWalk, layout: RecordLayout, total: number): Uint32Array {
  const positions = new Uint32Array(total)
  const { recStart, alnStart } = walk
  const headBytes = 4 + layout.readStride
  let k = 0
  for (let r = 0; r < recStart.length; r++) {
    const n = (alnStart[r + 1] ?? 0) - (alnStart[r] ?? 0)
    let pos = (recStart[r] ?? 0) + headBytes
    for (let a = 0; a < n; a++, pos += layout.alnStride) positions[k++] = pos
  }
  return positions
}

function fillFixed(walk: RecordWalk, layout: RecordLayout, view: DataView, total: number): [Column[], Column[]] {
  const nrec = walk.recStart.length
  const readColumns: Column[] = []
  let delta = 4
  for (const tag of layout.readTags) {
    const col = allocColumn(columnKindOf(tag), nrec)
    fillFixedColumn(col, view, walk.recStart, delta)
    readColumns.push(col)
    delta += fixedWidth(tag.type)
  }
  const alnColumns: Column[] = []
  if (layout.alnTags.length > 0 && total > 0) {
    const positions = alignmentPositions(walk, layout, total)
    delta = 0
    for (const tag of layout.alnTags) {
      const col = allocColumn(columnKindOf(tag), total)
      fillFixedColumn(col, view, positions, delta)
      alnColumns.push(col)
      delta += fixedWidth(tag.type)
    }
  } else {
    for (const tag of layout.alnTags) alnColumns.push(allocColumn(columnKindOf(tag), total))
  }
  return [readColumns, alnColumns]
}

/** Whether this host stores numbers little-endian, as RAD does (every browser host does). */
export const LITTLE_ENDIAN_HOST = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1

/** `bytes` as u32 words (RAD's little-endian u32s) when the host is little-endian and they sit on a 4-byte boundary. */
export function alignedWords(bytes: Uint8Array): Uint32Array | undefined {
  if (!LITTLE_ENDIAN_HOST || bytes.byteOffset % 4 !== 0 || bytes.length % 4 !== 0) return undefined
  return new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
}

/**
 * Fast path for layouts made only of u32 tags (salmon/piscem scRNA: b, u,
 * compressed_ori_refid) whose payload sits on a 4-byte boundary: one pass
 * over a Uint32Array view fills every column. A well-formed chunk holds
 * exactly (words − nrec·head) / stride alignments, so the alignment columns
 * are sized before the pass; any inconsistency returns undefined and the
 * precise path (walkRecords) reports the fault. ~2× the general path.
 */
/**
 * The salmon/piscem scRNA record, `naln b u (ori_ref)×naln`, as its own loop
 * (1.6× the general word loop in Node). Returns the alignment count, or -1
 * when the words do not add up (the caller then takes the precise path).
 * Past the end, reads give undefined and writes are dropped, and the final
 * check fails; only a huge naln must be stopped early (it would spin).
 */
function fillScRnaWords(
  words: Uint32Array,
  nrec: number,
  total: number,
  b: Uint32Array,
  u: Uint32Array,
  aln: Uint32Array,
  alnStart: Uint32Array,
): number {
  let w = 0
  let k = 0
  for (let r = 0; r < nrec; r++) {
    const naln = words[w]!
    if (k + naln > total) return -1
    alnStart[r] = k
    b[r] = words[w + 1]!
    u[r] = words[w + 2]!
    w += 3
    for (const stop = k + naln; k < stop; k++) aln[k] = words[w++]!
  }
  alnStart[nrec] = k
  return w === words.length && k === total ? k : -1
}

/** Any all-u32 layout: the same pass with loops over the tags. */
function fillWords(
  words: Uint32Array,
  nrec: number,
  total: number,
  reads: Uint32Array[],
  alns: Uint32Array[],
  alnStart: Uint32Array,
): number {
  const nRead = reads.length
  const nAln = alns.length
  let w = 0
  let k = 0
  for (let r = 0; r < nrec; r++) {
    const naln = words[w]!
    if (k + naln > total) return -1
    alnStart[r] = k
    for (let t = 0; t < nRead; t++) reads[t]![r] = words[w + 1 + t]!
    w += 1 + nRead
    for (let a = 0; a < naln; a++, k++) for (let t = 0; t < nAln; t++) alns[t]![k] = words[w++]!
  }
  alnStart[nrec] = k
  return w === words.length && k === total ? k : -1
}

function decodeWordsU32(p: ChunkPayload, layout: RecordLayout): ChunkColumns | undefined {
  const allU32 = (tags: readonly TagDesc[]): boolean => tags.every((t) => t.type.id === TYPE_ID.u32)
  if (layout.alnTags.length === 0 || !allU32(layout.readTags) || !allU32(layout.alnTags)) return undefined
  const words = alignedWords(p.bytes)
  if (!words) return undefined
  const nrec = p.nrec
  const nRead = layout.readTags.length
  const nAln = layout.alnTags.length
  const headW = 1 + nRead
  const total = (words.length - nrec * headW) / nAln
  if (!Number.isInteger(total) || total < 0) return undefined
  const reads = layout.readTags.map(() => new Uint32Array(nrec))
  const alns = layout.alnTags.map(() => new Uint32Array(total))
  const alnStart = new Uint32Array(nrec + 1)
  const k =
    nRead === 2 && nAln === 1
      ? fillScRnaWords(words, nrec, total, reads[0]!, reads[1]!, alns[0]!, alnStart)
      : fillWords(words, nrec, total, reads, alns, alnStart)
  if (k < 0) return undefined
  const column = (values: Uint32Array): Column => ({ kind: 'u32', values })
  return {
    chunk: p.chunk,
    offset: p.offset,
    nbytes: p.nbytes,
    recordCount: nrec,
    alignmentCount: total,
    alnStart,
    readColumns: reads.map(column),
    alnColumns: alns.map(column),
  }
}

/**
 * Scratch for the in-place decode: the columns that cannot be written over
 * the record bytes while they are still being read. Reused across chunks;
 * one that a huge chunk needed is not kept past this size (words).
 */
let scratch = new Uint32Array(1 << 16)
const SCRATCH_KEEP_WORDS = 4 << 20

function scratchOf(words: number): Uint32Array {
  if (scratch.length >= words) return scratch
  const fresh = new Uint32Array(words)
  if (words <= SCRATCH_KEEP_WORDS) scratch = fresh
  return fresh
}

/**
 * True when `nrec` records of an all-u32 layout (`head` words before the
 * alignments, `stride` words per alignment) fill exactly words[from..]: the
 * only check the in-place decode needs before it overwrites the bytes.
 */
function wordsFill(words: Uint32Array, from: number, nrec: number, head: number, stride: number): boolean {
  const end = words.length
  let w = from
  for (let r = 0; r < nrec; r++) {
    if (w + head > end) return false
    w += head + words[w]! * stride
  }
  return w === end
}

/** The salmon/piscem scRNA shape in place; see decodeRecordsInPlace. Returns the alignment count. */
function inPlaceScRna(cw: Uint32Array, nrec: number): number {
  const total = cw.length - 2 - 3 * nrec
  const s = scratchOf(3 * nrec + 1)
  const bAt = nrec + 1
  const uAt = 2 * nrec + 1
  let w = 2
  let k = 0
  for (let r = 0; r < nrec; r++) {
    const naln = cw[w]!
    s[r] = k
    s[bAt + r] = cw[w + 1]!
    s[uAt + r] = cw[w + 2]!
    w += 3
    for (const stop = k + naln; k < stop; k++) cw[k] = cw[w++]!
  }
  s[nrec] = k
  cw.set(s.subarray(0, 3 * nrec + 1), total)
  return total
}

/** Any all-u32 layout in place; scratch holds alignment columns 1.., alnStart and the read columns. */
function inPlaceWords(cw: Uint32Array, nrec: number, nRead: number, nAln: number): number {
  const total = (cw.length - 2 - (1 + nRead) * nrec) / nAln
  const startAt = (nAln - 1) * total
  const readAt = startAt + nrec + 1
  const s = scratchOf(readAt + nRead * nrec)
  let w = 2
  let k = 0
  for (let r = 0; r < nrec; r++) {
    const naln = cw[w]!
    s[startAt + r] = k
    for (let t = 0; t < nRead; t++) s[readAt + t * nrec + r] = cw[w + 1 + t]!
    w += 1 + nRead
    for (const stop = k + naln; k < stop; k++) {
      cw[k] = cw[w]!
      for (let t = 1; t < nAln; t++) s[(t - 1) * total + k] = cw[w + t]!
      w += nAln
    }
  }
  s[startAt + nrec] = k
  cw.set(s.subarray(0, readAt + nRead * nrec), total)
  return total
}

/**
 * Decodes a plain (uncompressed) chunk of an all-u32 layout (salmon/piscem
 * scRNA and the like) by rearranging its own bytes into columns, with no
 * allocation but a few views: `chunkBytes` (the whole chunk, header
 * included, 4-byte aligned, `span` bytes) becomes [alignment column 0]
 * [alignment columns 1..][alnStart][read columns], one word to spare. Writes
 * trail reads (alignment k is read from word ≥ k + 3), so the pass is safe.
 * In Chromium this is ~2× decodeRecords: fresh typed arrays for the columns
 * cost more than filling them (their pages are faulted in on first write).
 *
 * The records are checked to fill the payload exactly before anything is
 * written; when they do not, or the layout or alignment does not suit,
 * returns undefined with the bytes untouched, and the caller decodes them
 * the ordinary way (which reports the fault precisely). Otherwise the
 * caller gives the bytes up: they now hold the columns.
 */
export function decodeRecordsInPlace(
  chunkBytes: Uint8Array,
  p: Pick<ChunkPayload, 'chunk' | 'offset' | 'nbytes' | 'nrec'>,
  layout: RecordLayout,
): ChunkColumns | undefined {
  const allU32 = (tags: readonly TagDesc[]): boolean => tags.every((t) => t.type.id === TYPE_ID.u32)
  if (layout.alnTags.length === 0 || !allU32(layout.readTags) || !allU32(layout.alnTags)) return undefined
  const cw = alignedWords(chunkBytes)
  if (!cw) return undefined
  const buffer = chunkBytes.buffer
  const base = chunkBytes.byteOffset
  const { nrec } = p
  const nRead = layout.readTags.length
  const nAln = layout.alnTags.length
  if (cw.length < 2 || !wordsFill(cw, 2, nrec, 1 + nRead, nAln)) return undefined
  const total = nRead === 2 && nAln === 1 ? inPlaceScRna(cw, nrec) : inPlaceWords(cw, nrec, nRead, nAln)
  const view = (atWord: number, n: number): Uint32Array => new Uint32Array(buffer, base + 4 * atWord, n)
  const alnColumns: Column[] = []
  for (let t = 0; t < nAln; t++) alnColumns.push({ kind: 'u32', values: view(t * total, total) })
  const startAt = nAln * total
  const readColumns: Column[] = []
  for (let t = 0; t < nRead; t++) readColumns.push({ kind: 'u32', values: view(startAt + nrec + 1 + t * nrec, nrec) })
  return {
    chunk: p.chunk,
    offset: p.offset,
    nbytes: p.nbytes,
    recordCount: nrec,
    alignmentCount: total,
    alnStart: view(startAt, nrec + 1),
    readColumns,
    alnColumns,
  }
}

function fillGeneric(p: ChunkPayload, walk: RecordWalk, layout: RecordLayout, total: number): [Column[], Column[]] {
  const nrec = walk.recStart.length
  const readColumns = layout.readTags.map((t) => allocColumn(columnKindOf(t), nrec))
  const alnColumns = layout.alnTags.map((t) => allocColumn(columnKindOf(t), total))
  const cur = new Cursor(p.bytes, 0, p.bytes.length)
  let k = 0
  for (let r = 0; r < nrec; r++) {
    const naln = cur.u32()
    layout.readTags.forEach((tag, t) => {
      setColumnValue(readColumns[t] as Column, r, readValue(cur, tag.type))
    })
    // With no alignment tags there is nothing to read: a naln of 2^32 − 1 must not spin.
    for (let a = 0; layout.alnTags.length > 0 && a < naln; a++, k++) {
      layout.alnTags.forEach((tag, t) => {
        setColumnValue(alnColumns[t] as Column, k, readValue(cur, tag.type))
      })
    }
  }
  return [readColumns, alnColumns]
}

/**
 * Decodes a chunk's (decompressed) record bytes into columns, checking that
 * the records fill the payload exactly (§5.4, on every chunk).
 */
export function decodeRecords(p: ChunkPayload, layout: RecordLayout): ChunkColumns {
  checkRecordCount(p, layout)
  const fast = decodeWordsU32(p, layout)
  if (fast) return fast
  const view = new DataView(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength)
  const walk = walkRecords(p, layout, view)
  if (walk.consumed !== p.bytes.length) throw underrun(p, walk.consumed)
  const total = walk.alnStart[p.nrec] ?? 0
  const fixed = layout.readStride >= 0 && layout.alnStride >= 0
  const [readColumns, alnColumns] = fixed ? fillFixed(walk, layout, view, total) : fillGeneric(p, walk, layout, total)
  return {
    chunk: p.chunk,
    offset: p.offset,
    nbytes: p.nbytes,
    recordCount: p.nrec,
    alignmentCount: total,
    alnStart: walk.alnStart,
    readColumns,
    alnColumns,
  }
}

/** Checks a chunk's records fill its payload exactly; returns its alignment count. */
export function checkRecords(p: ChunkPayload, layout: RecordLayout): number {
  const view = new DataView(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength)
  const walk = walkRecords(p, layout, view)
  if (walk.consumed !== p.bytes.length) throw underrun(p, walk.consumed)
  return walk.alnStart[p.nrec] ?? 0
}
