/**
 * The index worker's body (scanFile) on every hand-made damage class: the
 * same integrity report as scanChunks with a check plan (test/io/integrity),
 * and for compressed files the two passes of ADR 0003 — every chunk indexed
 * by a headers-only pass, the records checked by the pass after it.
 */
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import type { ScanSummary } from '../../src/workers/protocol'
import { scanFile } from '../../src/workers/scanFile'
import { expectIssues, integrityCases } from '../helpers/integrityCases'
import { loadZstd } from '../helpers/radWriter'

await loadZstd()
const cases = integrityCases()

/** scanFile over `bytes`; the chunks it streamed (first screen and index slices), in order. */
async function scan(bytes: Uint8Array): Promise<{ summary: ScanSummary; offsets: number[] }> {
  const offsets: number[] = []
  const take = (index: ChunkIndex): void => {
    offsets.push(...Array.from(index.offset))
  }
  const summary = await scanFile(new BytesSource(bytes, 'case.rad'), {
    opened: () => undefined,
    first: take,
    index: take,
    progress: () => undefined,
  })
  return { summary, offsets }
}

describe('scanFile: the integrity report of every damage class', () => {
  it.each(cases)('$name', async (c) => {
    const { summary, offsets } = await scan(c.bytes)
    expect(summary.status).toBe(c.integrity)
    if (c.chunks !== undefined) expect(summary.chunks).toBe(c.chunks)
    if (c.chunkOffsets) expect(offsets).toEqual(c.chunkOffsets)
    expectIssues(summary.issues, c.issues)
  })
})

describe('scanFile: compressed chunks are indexed first, checked after (ADR 0003)', () => {
  const zstdCase = cases.find((c) => c.name.startsWith('corrupt chunk inside a zstd frame'))

  it('streams each chunk once, reports when the index was complete, and finds the damage inside a frame', async () => {
    if (!zstdCase) throw new Error('the zstd case is missing from the table')
    const { summary, offsets } = await scan(zstdCase.bytes)
    expect(offsets).toEqual(zstdCase.chunkOffsets)
    expect(summary.mappedMs).toBeGreaterThanOrEqual(0)
    expect(summary.mappedMs).toBeLessThanOrEqual(summary.elapsedMs)
    expect(summary.status).toBe('damaged')
    expect(summary.damagedChunks).toEqual([2])
    expect(summary.alignments).toBeGreaterThan(0)
  })

  it('plain files are checked in the one pass', async () => {
    const clean = cases.find((c) => c.name === 'clean (legacy)')
    if (!clean) throw new Error('the clean case is missing from the table')
    const { summary } = await scan(clean.bytes)
    expect(summary.mappedMs).toBeUndefined()
    expect(summary.status).toBe('clean')
  })
})
