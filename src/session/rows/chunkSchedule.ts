/**
 * Which chunks the screen wants decoded, and in what order: the page's half
 * of decode scheduling (the pool's queue serves the lowest priority number
 * first). Pure: no workers, no timers; RadSession.want() feeds it and hands
 * its answers to the pool.
 */

/** A chunk to decode, with its place in the pool's queue (lower = sooner). */
export interface Ask {
  chunk: number
  priority: number
}

/**
 * A queued chunk that none of the last this many want() calls asked for is
 * dropped: the user has scrolled on. Eight calls cover a quick fling past a
 * few screens without decoding what flew by, while a chunk that stays in view
 * (asked for again by every call) is never dropped.
 */
export const STALE_WANTS = 8

/**
 * Priorities are ticket numbers that count down: each call takes a block of
 * numbers below every earlier call's and hands them out in the order it lists
 * the chunks (visible ones, then the prefetch). So the newest call comes
 * first, and within it the order the caller gave; a chunk already queued
 * moves to its new number.
 */
export class ChunkSchedule {
  private calls = 0
  private lowest = 0
  /** The last call that asked for each chunk; only calls that are not yet stale are kept. */
  private readonly askedBy = new Map<number, number>()

  /**
   * Records what the screen needs now and returns it in order, each chunk
   * once, without chunks outside 0..chunkCount-1.
   */
  want(visible: readonly number[], prefetch: readonly number[], chunkCount: number): Ask[] {
    const call = ++this.calls
    const chunks = [...new Set([...visible, ...prefetch])].filter((k) => k >= 0 && k < chunkCount)
    this.lowest -= chunks.length
    const asks = chunks.map((chunk, rank) => ({ chunk, priority: this.lowest + rank }))
    for (const { chunk } of asks) this.askedBy.set(chunk, call)
    for (const [chunk, by] of this.askedBy) if (by <= call - STALE_WANTS) this.askedBy.delete(chunk)
    return asks
  }

  /** False for a chunk no recent call asked for: its queued request can go. */
  readonly isWanted = (chunk: number): boolean => this.askedBy.has(chunk)

  /** How many chunks are remembered (at most STALE_WANTS calls' worth). */
  get remembered(): number {
    return this.askedBy.size
  }
}
