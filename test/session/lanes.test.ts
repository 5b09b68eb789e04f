/** The one pass runner (src/session/lanes.ts): batches, lanes, the bad-chunk rule, order and cancel. */
import { describe, expect, it } from 'vitest'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { RadError } from '../../src/rad/errors'
import { passBatches, runLanes } from '../../src/session/rows/lanes'
import type { Lane } from '../../src/session/rows/lanes'
import { BULK_BATCH_BYTES } from '../../src/workers/protocol'
import type { BadChunk, ChunkRequest } from '../../src/workers/protocol'

describe('passBatches', () => {
  it('groups back-to-back chunks up to BULK_BATCH_BYTES and breaks at gaps', () => {
    const size = 10 << 20
    const reqs: ChunkRequest[] = [0, 1, 2, 3, 5].map((k) => ({ chunk: k, offset: 100 + k * size, nbytes: size }))
    const batches = passBatches(reqs, 'header-inclusive')
    expect(batches.map((b) => b.map((r) => r.chunk))).toEqual([[0, 1, 2], [3], [5]])
    for (const b of batches) {
      const last = b[b.length - 1]
      if (last && b[0]) {
        expect(last.offset + chunkSpan(last.nbytes, 'header-inclusive') - b[0].offset).toBeLessThanOrEqual(
          BULK_BATCH_BYTES,
        )
      }
    }
    expect(passBatches([{ chunk: 0, offset: 0, nbytes: BULK_BATCH_BYTES * 2 }], 'header-inclusive')).toHaveLength(1)
  })
})

interface Answer {
  chunks: number[]
  bad: BadChunk[]
}

/** Far-apart chunks: one batch each. */
const spread: ChunkRequest[] = Array.from({ length: 20 }, (_, k) => ({ chunk: k, offset: k * 1000, nbytes: 100 }))
const batches = spread.map((r) => [r])

/** A lane answering after a random delay (answers arrive out of order), listing the chunks in `bad` as a walk does. */
function lane(bad = new Set<number>()): Lane<Answer> {
  return async (batch) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 3))
    const error = (chunk: number) => new RadError('CHUNK_OVERRUN', `chunk ${String(chunk)} is bad`).toData()
    return {
      chunks: batch.filter((r) => !bad.has(r.chunk)).map((r) => r.chunk),
      bad: batch.filter((r) => bad.has(r.chunk)).map((r) => ({ chunk: r.chunk, error: error(r.chunk) })),
    }
  }
}

describe('runLanes', () => {
  it('hands every answer on once; in batch order when asked', async () => {
    const seen: number[] = []
    await runLanes([lane(), lane(), lane()], batches, (a) => seen.push(...a.chunks), { what: 'the test' })
    expect([...seen].sort((a, b) => a - b)).toEqual(spread.map((r) => r.chunk))
    const ordered: number[] = []
    await runLanes([lane(), lane(), lane()], batches, (a) => ordered.push(...a.chunks), {
      what: 'the test',
      inOrder: true,
    })
    expect(ordered).toEqual(spread.map((r) => r.chunk))
  })

  it('gives a bad chunk to onBadChunk and goes on; without onBadChunk the run rejects with its error', async () => {
    const seen: number[] = []
    const bad: number[] = []
    await runLanes([lane(new Set([2]))], [spread.slice(0, 5)], (a) => seen.push(...a.chunks), {
      what: 'the test',
      onBadChunk: (b) => bad.push(b.chunk),
    })
    expect(seen).toEqual([0, 1, 3, 4])
    expect(bad).toEqual([2])
    await expect(
      runLanes([lane(new Set([2]))], [spread.slice(0, 5)], () => undefined, { what: 'the test' }),
    ).rejects.toThrow(/chunk 2/)
  })

  it('a lane whose worker stopped ends the run even with onBadChunk; an aborted signal rejects with CANCELLED', async () => {
    const stopped: Lane<Answer> = () => Promise.reject(new RadError('WORKER_FAILED', 'a decode worker stopped'))
    const bad: number[] = []
    await expect(
      runLanes([stopped, lane()], batches, () => undefined, { what: 'the test', onBadChunk: (b) => bad.push(b.chunk) }),
    ).rejects.toThrow(/worker stopped/)
    expect(bad).toEqual([])
    const controller = new AbortController()
    controller.abort()
    await expect(
      runLanes([lane()], batches, () => undefined, { what: 'the test', signal: controller.signal }),
    ).rejects.toSatisfy(
      (e) => e instanceof RadError && e.code === 'CANCELLED' && /the test was cancelled/.test(e.message),
    )
  })
})
