/** A worker's progress to the page (src/workers/progressPace.ts): paced, the last one always sent. */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { PROGRESS_EVERY_MS, pacedProgress } from '../../src/workers/progressPace'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('pacedProgress', () => {
  it('sends the first call, drops those within the pace, and always sends the end', () => {
    let now = 1000
    vi.spyOn(performance, 'now').mockImplementation(() => now)
    const sent: number[] = []
    const progress = pacedProgress((visited) => sent.push(visited))
    progress(1, 10)
    progress(2, 10)
    now += PROGRESS_EVERY_MS - 1
    progress(3, 10)
    now += 1
    progress(4, 10)
    progress(5, 10)
    progress(10, 10)
    expect(sent).toEqual([1, 4, 10])
  })
})
