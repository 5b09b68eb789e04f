/**
 * The in-place decode (chunk.ts has the table of paths): a plain chunk of an
 * all-u32 layout rearranged, in its own bytes, into its columns.
 */
import { alignedWords } from './chunk'
import type { ChunkPayload, RecordLayout } from './chunk'
import type { ChunkColumns, Column } from '../types'

/** Scratch a huge chunk needed is dropped past this many words (16 MiB). */
const SCRATCH_KEEP_WORDS = 4 << 20

/**
 * Room for the columns that cannot be written over the record bytes while
 * they are still being read. The caller owns one and passes it to every
 * decode (one per decode worker): reused across chunks, so the decode
 * allocates nothing but a few views.
 */
export class InPlaceScratch {
  private kept = new Uint32Array(1 << 16)

  /** At least `n` words, not zeroed. */
  words(n: number): Uint32Array {
    if (this.kept.length >= n) return this.kept
    const fresh = new Uint32Array(n)
    if (n <= SCRATCH_KEEP_WORDS) this.kept = fresh
    return fresh
  }
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
function inPlaceScRna(cw: Uint32Array, nrec: number, scratch: InPlaceScratch): number {
  const total = cw.length - 2 - 3 * nrec
  const s = scratch.words(3 * nrec + 1)
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
function inPlaceWords(cw: Uint32Array, nrec: number, nRead: number, nAln: number, scratch: InPlaceScratch): number {
  const total = (cw.length - 2 - (1 + nRead) * nrec) / nAln
  const startAt = (nAln - 1) * total
  const readAt = startAt + nrec + 1
  const s = scratch.words(readAt + nRead * nrec)
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
  scratch: InPlaceScratch,
): ChunkColumns | undefined {
  if (!layout.allU32) return undefined
  const cw = alignedWords(chunkBytes)
  if (!cw) return undefined
  const buffer = chunkBytes.buffer
  const base = chunkBytes.byteOffset
  const { nrec } = p
  const nRead = layout.readTags.length
  const nAln = layout.alnTags.length
  if (cw.length < 2 || !wordsFill(cw, 2, nrec, 1 + nRead, nAln)) return undefined
  const total =
    nRead === 2 && nAln === 1 ? inPlaceScRna(cw, nrec, scratch) : inPlaceWords(cw, nrec, nRead, nAln, scratch)
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
