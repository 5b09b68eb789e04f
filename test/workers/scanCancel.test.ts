/** Issues found before a Cancel are kept and shown (docs/integrity.md): scanChunks and the index worker's scan. */
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { scanFile } from '../../src/workers/scanFile'
import { SC_READS, salmonScRna } from '../helpers/assays'
import { withChunk } from '../helpers/integrityCases'
import { buildRad } from '../helpers/radWriter'

const CHUNKS = 60
const spec = salmonScRna(
  Array.from({ length: CHUNKS }, (_, i) => SC_READS[i % SC_READS.length]!),
  1,
)
const rec = spec.chunks?.[1]?.records?.[0]
if (!rec) throw new Error('no record in chunk 1')
/** Chunk 1's record claims 2^32 − 1 alignments: a chunk-local fault, so the walk goes on past it. */
const built = buildRad(withChunk(spec, 1, { records: [{ ...rec, naln: 0xffffffff }] }))
const stopAt = built.layout.chunks[40]?.offset ?? 0

/** The file, whose reads past chunk 40 press Cancel first (the user did, mid-walk). */
function cancelledMidWalk(): { source: BytesSource; controller: AbortController } {
  const controller = new AbortController()
  const source = new BytesSource(built.bytes, 'cancel.rad')
  const read = source.read.bind(source)
  source.read = (offset, length) => {
    if (offset >= stopAt) controller.abort()
    return read(offset, length)
  }
  return { source, controller }
}

describe('Cancel keeps what was found', () => {
  it('scanChunks: cancelled, the corrupt chunk before the Cancel still reported', async () => {
    const { source, controller } = cancelledMidWalk()
    const { prelude } = await openRad(source)
    const result = await scanChunks(source, prelude, {
      signal: controller.signal,
      blockSize: 256,
      check: makeCheckPlan(prelude, inferSemantics(prelude)),
    })
    expect(result.cancelled).toBe(true)
    expect(result.index.count).toBeGreaterThan(1)
    expect(result.index.count).toBeLessThan(CHUNKS)
    expect(result.issues).toMatchObject([{ kind: 'corrupt-chunk', chunk: 1 }])
    expect(result.damagedChunks).toEqual([1])
  })

  it('scanFile: the summary is cancelled and incomplete, with the issue and the damaged chunk', async () => {
    // The walk reads 256-byte blocks; the read that reaches chunk 40 presses Cancel first. No timing:
    // the cancel lands at the same chunk on any machine, however fast or busy.
    const { source, controller } = cancelledMidWalk()
    const sink = { opened: () => undefined, first: () => undefined, index: () => undefined, progress: () => undefined }
    const summary = await scanFile(source, sink, { signal: controller.signal, blockSize: 256 })
    expect(summary.chunks).toBeLessThan(CHUNKS)
    expect(summary).toMatchObject({ cancelled: true, status: 'incomplete', damagedChunks: [1] })
    expect(summary.issues).toMatchObject([{ kind: 'corrupt-chunk', chunk: 1 }])
    expect(summary.chunks).toBeGreaterThan(1)
  })
})
