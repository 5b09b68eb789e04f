import { readFileSync } from 'node:fs'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { SALMON_V3 } from './fixtures'

/** The v3 fixture's chunks repeated `copies` times after its prelude, num_chunks corrected (4 chunks a copy). */
export function repeatedFixture(copies: number): Uint8Array {
  const one = new Uint8Array(readFileSync(SALMON_V3))
  const prelude = parsePrelude(one, one.length)
  const body = one.subarray(prelude.firstChunkOffset)
  const out = new Uint8Array(prelude.firstChunkOffset + body.length * copies)
  out.set(one.subarray(0, prelude.firstChunkOffset))
  new DataView(out.buffer).setBigUint64(prelude.numChunksOffset, BigInt(prelude.numChunks * copies), true)
  for (let i = 0; i < copies; i++) out.set(body, prelude.firstChunkOffset + i * body.length)
  return out
}
