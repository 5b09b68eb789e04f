import { chunkSpan } from '../rad/decode/chunk'
import type { ChunkIndex } from '../rad/chunkIndex'
import { RadError, fmtInt } from '../rad/errors'
import type { IntegrityIssue } from '../rad/checks/integrity'
import { patchNumChunks } from '../rad/prelude/prelude'
import type { NbytesConvention, Prelude } from '../rad/types'
import type { ByteSource } from './byteSource'
import { damageInPrelude } from './containerDamage'

/**
 * What "save the valid part" writes (docs/integrity.md): the prelude with `num_chunks`
 * set to the number of chunks kept, then every intact chunk, byte for byte.
 * Ranges are positions in the source, so a browser can assemble the file from
 * `Blob.slice`s without reading it, and the CLI can stream it.
 */
export interface SalvagePlan {
  /** Prelude and file-tag values with num_chunks patched. */
  head: Uint8Array
  /** [start, end) byte ranges of the kept chunks, merged where contiguous. */
  ranges: [number, number][]
  keptChunks: number
  keptRecords: number
  droppedChunks: number[]
  bytes: number
}

/** Chunks whose records are damaged (they stay out of the salvaged file). */
function damagedChunks(issues: readonly IntegrityIssue[], damaged: Iterable<number>): Set<number> {
  const bad = new Set<number>(damaged)
  for (const i of issues) {
    if (i.severity === 'error' && i.chunk !== undefined && i.part === 'chunk-records') bad.add(i.chunk)
  }
  return bad
}

/**
 * A .sz frame failing its checksum over the prelude (docs/integrity.md):
 * the reference names and tag schema may be wrong, and no chunk can stand in
 * for them, so nothing is salvaged.
 */
function refuseDamagedPrelude(source: ByteSource, prelude: Prelude): void {
  const damage = damageInPrelude(source, prelude.firstChunkOffset)
  if (!damage) return
  throw new RadError(
    'BAD_SNAPPY',
    `nothing to salvage: the header (bytes 0–${fmtInt(prelude.firstChunkOffset)}) lies in a damaged frame, so its ` +
      `reference names and tag schema may be wrong and no chunk can be kept safely: ${damage.issue.message}`,
    damage.start,
  )
}

export async function planSalvage(
  source: ByteSource,
  prelude: Prelude,
  index: ChunkIndex,
  convention: NbytesConvention,
  issues: readonly IntegrityIssue[],
  /**
   * Every damaged chunk (ScanResult.damagedChunks): `issues` lists only the
   * first 1,000, and a chunk left out of it would be kept, damaged.
   */
  damaged: Iterable<number> = [],
): Promise<SalvagePlan> {
  if (prelude.codec === 'unknown') {
    // The fault is in every chunk alike (§6): dropping chunks cannot make the file readable.
    throw new RadError(
      'BAD_CODEC',
      'nothing to salvage: the chunks use a codec this reader does not know, so no chunk can be checked or kept as intact',
      prelude.firstChunkOffset,
    )
  }
  const bad = damagedChunks(issues, damaged)
  const ranges: [number, number][] = []
  const droppedChunks: number[] = []
  let keptRecords = 0
  let bytes = prelude.firstChunkOffset
  for (let k = 0; k < index.count; k++) {
    if (bad.has(k)) {
      droppedChunks.push(k)
      continue
    }
    const start = index.offset[k] ?? 0
    const end = start + chunkSpan(index.nbytes[k] ?? 0, convention)
    const last = ranges[ranges.length - 1]
    if (last?.[1] === start) last[1] = end
    else ranges.push([start, end])
    keptRecords += index.nrec[k] ?? 0
    bytes += end - start
  }
  const keptChunks = index.count - droppedChunks.length
  const head = await source.read(0, prelude.firstChunkOffset)
  refuseDamagedPrelude(source, prelude)
  patchNumChunks(head, prelude, keptChunks)
  return { head, ranges, keptChunks, keptRecords, droppedChunks, bytes }
}

/**
 * The valid part of a dropped file as a File: the corrected prelude and
 * `Blob.slice`s of the intact chunks. Slicing reads nothing: the browser
 * copies the bytes only when the download is written (ADR 0001: only io/
 * slices a Blob).
 */
export function salvagedFile(file: Blob, plan: Pick<SalvagePlan, 'head' | 'ranges'>, name: string): File {
  const parts: BlobPart[] = [plan.head as Uint8Array<ArrayBuffer>]
  for (const [start, end] of plan.ranges) parts.push(file.slice(start, end))
  return new File(parts, name, { type: 'application/octet-stream' })
}
