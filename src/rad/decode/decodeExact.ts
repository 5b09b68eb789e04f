/**
 * The exact decode (chunk.ts has the table of paths): any layout, every
 * value walked, and the path that explains a fault — which record, which
 * byte. A DataView pass when every tag is fixed-width (§5.2), a Cursor walk
 * when a string or array makes records variable-width (§5.1).
 */
import { allocColumn, columnKindOf, fillFixedColumn, setColumnValue } from './columns'
import { checkRecordCount, overrun, underrun } from './chunk'
import type { ChunkPayload, RecordLayout } from './chunk'
import { Cursor } from './cursor'
import { RadError, fmtInt } from '../errors'
import { fixedWidth, readValue, skipValue } from '../prelude/tags'
import type { ChunkColumns, Column, TagDesc } from '../types'

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

const isFixed = (layout: RecordLayout): boolean => layout.readStride >= 0 && layout.alnStride >= 0

function walkRecords(p: ChunkPayload, layout: RecordLayout, view: DataView): RecordWalk {
  checkRecordCount(p, layout)
  return isFixed(layout) ? walkFixed(p, layout, view) : walkGeneric(p, layout)
}

const viewOf = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/**
 * Counts the bytes the chunk's records occupy, without requiring that they
 * fill the payload (used to detect the nbytes convention, §4.2).
 */
export function measureRecords(p: ChunkPayload, layout: RecordLayout): number {
  return walkRecords(p, layout, viewOf(p.bytes)).consumed
}

/**
 * Where each record of a chunk starts and ends in its (decompressed) record
 * bytes: `nrec + 1` payload-relative offsets, record r being
 * `bytes[starts[r], starts[r + 1])` (§5.1). Checks that the records fill the
 * payload exactly (§5.4), as the decodes do; a subset copies records by these spans.
 */
export function recordBounds(p: ChunkPayload, layout: RecordLayout): Uint32Array {
  const walk = walkRecords(p, layout, viewOf(p.bytes))
  if (walk.consumed !== p.bytes.length) throw underrun(p, walk.consumed)
  const bounds = new Uint32Array(p.nrec + 1)
  bounds.set(walk.recStart)
  bounds[p.nrec] = walk.consumed
  return bounds
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
 * the records fill the payload exactly (§5.4).
 */
export function decodeExact(p: ChunkPayload, layout: RecordLayout): ChunkColumns {
  const view = viewOf(p.bytes)
  const walk = walkRecords(p, layout, view)
  if (walk.consumed !== p.bytes.length) throw underrun(p, walk.consumed)
  const total = walk.alnStart[p.nrec] ?? 0
  const [readColumns, alnColumns] = isFixed(layout)
    ? fillFixed(walk, layout, view, total)
    : fillGeneric(p, walk, layout, total)
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
