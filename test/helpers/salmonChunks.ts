/**
 * The small salmon v3 fixture as decode requests, and what each chunk
 * decodes to through decodeChunk alone, for the decode worker's tests.
 */
import { readFileSync } from 'node:fs'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import type { ChunkColumns } from '../../src/rad/types'
import type { ChunkRequest } from '../../src/workers/protocol'
import { SALMON_V3 } from './fixtures'

export const file = new Uint8Array(readFileSync(SALMON_V3))
export const prelude = parsePrelude(file, file.length)

/** One request per chunk, in file order (the fixture's nbytes are header-inclusive). */
export function requests(): ChunkRequest[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const out: ChunkRequest[] = []
  let offset = prelude.firstChunkOffset
  for (let k = 0; k < prelude.numChunks; k++) {
    const nbytes = view.getUint32(offset, true)
    out.push({ chunk: k, offset, nbytes })
    offset += nbytes
  }
  return out
}

/** A chunk's columns as plain numbers, comparable whichever buffers hold them. */
export function plain(cols: ChunkColumns): number[][] {
  return [
    Array.from(cols.alnStart),
    ...[...cols.readColumns, ...cols.alnColumns].map((c) => Array.from(c.values as ArrayLike<number>)),
  ]
}

export function expected(req: ChunkRequest): number[][] {
  return plain(decodeChunk(file.subarray(req.offset), req.offset, req.chunk, prelude, 'header-inclusive'))
}

/** The fixture with chunk `k`'s record count raised by one: it no longer fills its chunk. */
export function breakChunk(k: number): { bytes: Uint8Array<ArrayBuffer>; req: ChunkRequest } {
  const req = requests()[k]
  if (!req) throw new Error(`the fixture has no chunk ${String(k)}`)
  const bytes = file.slice()
  const view = new DataView(bytes.buffer)
  view.setUint32(req.offset + 4, view.getUint32(req.offset + 4, true) + 1, true)
  return { bytes, req }
}
