import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { CheckBatcher, makeBatchChecker } from '../../src/workers/recordChecks'
import type { CheckBatch, CheckResult } from '../../src/workers/recordChecks'
import { SALMON_V3 } from '../helpers/fixtures'

/** The index worker's side (walk + batch) and the checker's side, run inline. */
async function checkBeside(bytes: Uint8Array): Promise<{ results: CheckResult[]; batches: number }> {
  const { source, prelude } = await openRad(new BytesSource(bytes))
  const check = makeBatchChecker(prelude)
  const results: CheckResult[] = []
  let batches = 0
  const batcher = new CheckBatcher((batch: CheckBatch) => {
    batches++
    results.push(check(structuredClone(batch)))
    return Promise.resolve()
  })
  const scan = await scanChunks(source, prelude, {
    onChunk: async (chunk, offset, k, convention) => {
      await batcher.add(chunk, offset, k, convention)
      return undefined
    },
  })
  await batcher.drain(scan.convention)
  return { results, batches }
}

describe('record checks beside the index walk (batched, as the checker worker runs them)', () => {
  const fixture = new Uint8Array(readFileSync(SALMON_V3))

  it('counts every alignment of the salmon fixture and finds nothing wrong', async () => {
    const { results } = await checkBeside(fixture)
    expect(results.reduce((n, r) => n + r.alignments, 0)).toBe(36199)
    expect(results.flatMap((r) => r.issues)).toEqual([])
  })

  it('reports a reference id out of range in chunk 2 with its chunk and byte, and checks the rest', async () => {
    const bytes = fixture.slice()
    const view = new DataView(bytes.buffer)
    let at = 5197
    for (let k = 0; k < 2; k++) at += view.getUint32(at, true)
    // Chunk 2, record 0: naln, b, u, then the first alignment word.
    view.setUint32(at + 8 + 12, 0x80000000 + 244, true)
    const { results } = await checkBeside(bytes)
    const issues = results.flatMap((r) => r.issues)
    expect(issues).toHaveLength(1)
    expect(issues[0]).toMatchObject({
      kind: 'corrupt-chunk',
      chunk: 2,
      offset: at + 8,
      code: 'BAD_VALUE',
      part: 'chunk-records',
    })
    expect(results.reduce((n, r) => n + r.damaged, 0)).toBe(1)
  })
})
