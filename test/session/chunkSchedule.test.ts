import { describe, expect, it } from 'vitest'
import { ChunkSchedule, STALE_WANTS } from '../../src/session/rows/chunkSchedule'
import type { Ask } from '../../src/session/rows/chunkSchedule'

/** The chunks in the order the decode pool serves them: lowest priority number first. */
function served(asks: readonly Ask[]): number[] {
  return [...asks].sort((a, b) => a.priority - b.priority).map((a) => a.chunk)
}

describe('ChunkSchedule', () => {
  it('serves the visible chunks first, in their order, then the prefetch in its order', () => {
    const schedule = new ChunkSchedule()
    const asks = schedule.want([7, 5, 6], [8, 4, 9], 100)
    expect(asks.map((a) => a.chunk)).toEqual([7, 5, 6, 8, 4, 9])
    expect(served(asks)).toEqual([7, 5, 6, 8, 4, 9])
  })

  it('puts every chunk of a newer call before every chunk of the older ones', () => {
    const schedule = new ChunkSchedule()
    const older = schedule.want([1, 2], [3], 100)
    const newer = schedule.want([10, 11, 12], [13, 9], 100)
    expect(served([...older, ...newer])).toEqual([10, 11, 12, 13, 9, 1, 2, 3])
    const newest = schedule.want([], [20], 100)
    expect(served([...older, ...newer, ...newest])[0]).toBe(20)
  })

  it('moves a chunk asked for again to its new place', () => {
    const schedule = new ChunkSchedule()
    const first = schedule.want([1, 2, 3], [], 100)
    const again = schedule.want([4], [2], 100)
    // The pool keeps one entry per chunk: a newer ask replaces the older one.
    const latest = new Map<number, number>()
    for (const a of [...first, ...again]) latest.set(a.chunk, a.priority)
    const order = [...latest].sort((a, b) => a[1] - b[1]).map(([chunk]) => chunk)
    expect(order).toEqual([4, 2, 1, 3])
  })

  it('asks for each chunk once per call, at its first mention, and only for chunks that exist', () => {
    const schedule = new ChunkSchedule()
    const asks = schedule.want([-1, 3, 4, 3], [4, 5, 2, 6], 6)
    expect(asks.map((a) => a.chunk)).toEqual([3, 4, 5, 2])
    expect(schedule.isWanted(6)).toBe(false)
    expect(schedule.isWanted(-1)).toBe(false)
  })

  it(`drops a chunk that none of the last ${String(STALE_WANTS)} calls asked for`, () => {
    const schedule = new ChunkSchedule()
    schedule.want([1], [2], 100)
    for (let call = 1; call < STALE_WANTS; call++) {
      schedule.want([10 + call], [], 100)
      expect(schedule.isWanted(1)).toBe(true)
    }
    schedule.want([50], [], 100)
    expect(schedule.isWanted(1)).toBe(false)
    expect(schedule.isWanted(2)).toBe(false)
    expect(schedule.isWanted(11)).toBe(true)
    expect(schedule.isWanted(50)).toBe(true)
  })

  it('never drops a chunk that stays in view', () => {
    const schedule = new ChunkSchedule()
    for (let call = 0; call < 3 * STALE_WANTS; call++) schedule.want([0, 100 + call], [], 1000)
    expect(schedule.isWanted(0)).toBe(true)
  })

  it(`remembers at most ${String(STALE_WANTS)} calls' worth of chunks, however long the user scrolls`, () => {
    const schedule = new ChunkSchedule()
    const perCall = 259 // RecordTable: up to 256 visible chunks and 3 to prefetch
    for (let call = 0; call < 200; call++) {
      const visible = Array.from({ length: perCall }, (_, i) => call * perCall + i)
      schedule.want(visible, [], Number.MAX_SAFE_INTEGER)
      expect(schedule.remembered).toBeLessThanOrEqual(STALE_WANTS * perCall)
    }
  })
})
