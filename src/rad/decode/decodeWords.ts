/**
 * The u32 word decode (chunk.ts has the table of paths): layouts made only of
 * u32 tags, read as one Uint32Array into fresh columns.
 */
import { alignedWords } from './chunk'
import type { ChunkPayload, RecordLayout } from './chunk'
import type { ChunkColumns, Column } from '../types'

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

/**
 * Fast path for layouts made only of u32 tags (salmon/piscem scRNA: b, u,
 * compressed_ori_refid) whose payload sits on a 4-byte boundary: one pass
 * over a Uint32Array view fills every column. A well-formed chunk holds
 * exactly (words − nrec·head) / stride alignments, so the alignment columns
 * are sized before the pass; any inconsistency returns undefined and the
 * exact path (decodeExact.ts) reports the fault. ~2× the exact path.
 * The caller has checked the record count (checkRecordCount).
 */
export function decodeWordsU32(p: ChunkPayload, layout: RecordLayout): ChunkColumns | undefined {
  if (!layout.allU32) return undefined
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
