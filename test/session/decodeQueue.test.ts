import { describe, expect, it } from 'vitest'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { BATCH_BYTES, BATCH_CHUNKS, DecodeQueue } from '../../src/session/rows/decodeQueue'
import type { Queued } from '../../src/session/rows/decodeQueue'

/** Back-to-back chunks of `nbytes` each (header-inclusive), from byte 1000. */
function item(chunk: number, priority = 0, nbytes = 100): Queued {
  return { req: { chunk, offset: 1000 + chunk * nbytes, nbytes }, priority, seq: 0 }
}

function chunksOf(batch: readonly Queued[] | undefined): number[] {
  return (batch ?? []).map((q) => q.req.chunk)
}

/** Takes single far-apart chunks one batch at a time: the order the queue serves them in. */
function order(queue: DecodeQueue<Queued>): number[] {
  const out: number[] = []
  for (let b = queue.takeBatch('header-inclusive'); b; b = queue.takeBatch('header-inclusive')) out.push(...chunksOf(b))
  return out
}

describe('DecodeQueue: ordering', () => {
  it('serves the lowest priority number first, and among equals the latest asked', () => {
    const queue = new DecodeQueue<Queued>()
    for (const [chunk, priority] of [
      [10, 5],
      [20, 1],
      [30, 5],
      [40, 1],
    ] as const) {
      queue.add(item(chunk, priority))
    }
    expect(order(queue)).toEqual([40, 20, 30, 10])
    expect(queue.size).toBe(0)
  })

  it('reprioritize moves a queued chunk and makes it the latest asked; false when it is not queued', () => {
    const queue = new DecodeQueue<Queued>()
    queue.add(item(10, 0))
    queue.add(item(20, 0))
    queue.add(item(30, 3))
    expect(queue.reprioritize(10, 0)).toBe(true)
    expect(queue.reprioritize(30, -1)).toBe(true)
    expect(queue.reprioritize(99, 0)).toBe(false)
    expect(order(queue)).toEqual([30, 10, 20])
  })

  it('keeps one request per chunk: asking again replaces the earlier one', () => {
    const queue = new DecodeQueue<Queued>()
    const first = item(10, 5)
    const again = item(10, 0)
    queue.add(first)
    queue.add(again)
    expect(queue.size).toBe(1)
    expect(queue.get(10)).toBe(again)
  })
})

describe('DecodeQueue: dropping stale requests', () => {
  it('drop takes out and returns the chunks `keep` refuses, and leaves the rest in order', () => {
    const queue = new DecodeQueue<Queued>()
    for (const chunk of [10, 20, 30, 40]) queue.add(item(chunk))
    const dropped = queue.drop((chunk) => chunk === 20 || chunk === 40)
    expect(chunksOf(dropped).sort((a, b) => a - b)).toEqual([10, 30])
    expect(queue.get(10)).toBeUndefined()
    expect(order(queue)).toEqual([40, 20])
  })

  it('clear takes out everything', () => {
    const queue = new DecodeQueue<Queued>()
    for (const chunk of [1, 2, 3]) queue.add(item(chunk))
    expect(chunksOf(queue.clear())).toEqual([1, 2, 3])
    expect(queue.size).toBe(0)
    expect(queue.takeBatch('header-inclusive')).toBeUndefined()
  })
})

describe('DecodeQueue: batching', () => {
  it('batches the first chunk with the queued chunks right after it, not those before it nor past a gap', () => {
    const queue = new DecodeQueue<Queued>()
    for (const chunk of [4, 6, 7, 8, 10]) queue.add(item(chunk, 1))
    queue.add(item(5, 0))
    expect(chunksOf(queue.takeBatch('header-inclusive'))).toEqual([5, 6, 7, 8])
    expect(chunksOf(queue.takeBatch('header-inclusive'))).toEqual([10])
    expect(chunksOf(queue.takeBatch('header-inclusive'))).toEqual([4])
  })

  it('stops at BATCH_CHUNKS chunks', () => {
    const queue = new DecodeQueue<Queued>()
    for (let chunk = 0; chunk < BATCH_CHUNKS + 10; chunk++) queue.add(item(chunk, chunk === 0 ? -1 : 0, 8))
    expect(queue.takeBatch('header-inclusive')).toHaveLength(BATCH_CHUNKS)
    expect(queue.size).toBe(10)
  })

  it('stops before BATCH_BYTES, counting spans by the convention; a larger first chunk goes alone', () => {
    const nbytes = 1 << 20
    const queue = new DecodeQueue<Queued>()
    for (let chunk = 0; chunk < 8; chunk++) queue.add(item(chunk, chunk === 0 ? -1 : 0, nbytes))
    const inclusive = queue.takeBatch('header-inclusive') ?? []
    expect(inclusive.length * nbytes).toBeLessThanOrEqual(BATCH_BYTES)
    expect(chunksOf(inclusive)).toEqual([0, 1, 2, 3])
    // Payload-only: each chunk spans 8 more bytes, so four no longer fit.
    queue.reprioritize(4, -1)
    const payloadOnly = queue.takeBatch('payload-only') ?? []
    expect(chunksOf(payloadOnly)).toEqual([4, 5, 6])
    expect(payloadOnly.length * chunkSpan(nbytes, 'payload-only')).toBeLessThanOrEqual(BATCH_BYTES)

    const big = new DecodeQueue<Queued>()
    big.add(item(0, -1, BATCH_BYTES * 2))
    big.add(item(1, 0, BATCH_BYTES * 2))
    expect(chunksOf(big.takeBatch('header-inclusive'))).toEqual([0])
  })

  it('putBack returns undecoded items with their priority, unless their chunk was asked for again', () => {
    const queue = new DecodeQueue<Queued>()
    for (const chunk of [3, 2, 1]) queue.add(item(chunk, 2))
    queue.add(item(9, 0))
    const batch = queue.takeBatch('header-inclusive')
    expect(chunksOf(batch)).toEqual([9])
    const taken = queue.takeBatch('header-inclusive') ?? []
    expect(chunksOf(taken)).toEqual([1, 2, 3])
    const newer = item(3, 7)
    queue.add(newer)
    queue.putBack(taken.slice(1))
    expect(queue.get(2)?.priority).toBe(2)
    expect(queue.get(3)).toBe(newer)
    expect(chunksOf(queue.takeBatch('header-inclusive'))).toEqual([2, 3])
  })
})
