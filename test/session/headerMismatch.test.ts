import { describe, expect, it } from 'vitest'
import { headerMismatch } from '../../src/session/open/indexClaims'
import { IndexStore } from '../../src/session/open/indexStore'
import type { ChunkColumns } from '../../src/rad/types'

/** An index of two chunks, as a sidecar states it. */
function claimed(): IndexStore {
  const store = new IndexStore()
  store.append({
    count: 2,
    offset: Float64Array.of(100, 1100),
    nbytes: Uint32Array.of(1000, 800),
    nrec: Uint32Array.of(40, 30),
    firstRecord: Float64Array.of(0, 40),
  })
  return store
}

/** What a decode says of a chunk: its own header's nbytes and nrec. */
function decoded(chunk: number, offset: number, nbytes: number, recordCount: number): ChunkColumns {
  return { chunk, offset, nbytes, recordCount } as ChunkColumns
}

describe('headerMismatch (a known index checked against each chunk header as it is read: docs/sidecar.md, "A sidecar is a claim")', () => {
  it('says nothing when the header agrees with the entry', () => {
    expect(headerMismatch(decoded(1, 1100, 800, 30), claimed())).toBeUndefined()
  })

  it('names the chunk, its byte, and both versions of nbytes and nrec when they differ', () => {
    expect(headerMismatch(decoded(0, 100, 1000, 1041), claimed())).toBe(
      "chunk 0's header at byte 100 says nbytes 1,000 and 1,041 records, the index nbytes 1,000 and 40 records",
    )
    expect(headerMismatch(decoded(1, 1100, 900, 30), claimed())).toMatch(/says nbytes 900 .* the index nbytes 800/)
  })
})
