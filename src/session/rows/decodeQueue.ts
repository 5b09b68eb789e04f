import { chunkSpan } from '../../rad/decode/chunk'
import type { NbytesConvention } from '../../rad/types'
import type { ChunkRequest } from '../../workers/protocol'

/** One read and one call for a run of small chunks, up to this many bytes… */
export const BATCH_BYTES = 4 << 20
/** …and this many chunks (collated files have ~1 chunk per cell). */
export const BATCH_CHUNKS = 64

/** A request waiting in the queue. `seq` is the queue's: the later a request was (re)prioritized, the higher. */
export interface Queued {
  readonly req: ChunkRequest
  priority: number
  seq: number
}

/**
 * The decode pool's waiting requests, at most one per chunk, pure (no
 * workers, no timers). Lower priority numbers go first; among equals the
 * latest asked goes first, as the newest screen is what the user looks at.
 * A batch is the first request plus the chunks right after it that are
 * queued too (docs/format.md §4: chunks are back to back), so one read
 * serves them all.
 */
export class DecodeQueue<T extends Queued> {
  private readonly waiting = new Map<number, T>()
  private seq = 0

  get size(): number {
    return this.waiting.size
  }

  get(chunk: number): T | undefined {
    return this.waiting.get(chunk)
  }

  /** Queues `item` as the latest asked; an item already queued for its chunk is replaced. */
  add(item: T): void {
    item.seq = this.seq++
    this.waiting.set(item.req.chunk, item)
  }

  /** Moves a queued chunk up or down (as the latest asked); false if it is not queued. */
  reprioritize(chunk: number, priority: number): boolean {
    const item = this.waiting.get(chunk)
    if (!item) return false
    item.priority = priority
    item.seq = this.seq++
    return true
  }

  /** Takes out every item whose chunk `keep` refuses (requests gone stale), and returns them. */
  drop(keep: (chunk: number) => boolean): T[] {
    const dropped: T[] = []
    for (const [chunk, item] of this.waiting) {
      if (keep(chunk)) continue
      this.waiting.delete(chunk)
      dropped.push(item)
    }
    return dropped
  }

  /** Takes out and returns everything (the pool is closing). */
  clear(): T[] {
    const all = [...this.waiting.values()]
    this.waiting.clear()
    return all
  }

  /**
   * Takes out the first item and the queued chunks right after it, up to
   * BATCH_CHUNKS chunks and BATCH_BYTES bytes (a first chunk larger than
   * that goes alone); undefined when nothing waits.
   */
  takeBatch(convention: NbytesConvention): T[] | undefined {
    const head = this.first()
    if (!head) return undefined
    const batch = [head]
    this.waiting.delete(head.req.chunk)
    let bytes = chunkSpan(head.req.nbytes, convention)
    for (let k = head.req.chunk + 1; batch.length < BATCH_CHUNKS; k++) {
      const item = this.waiting.get(k)
      if (!item) break
      bytes += chunkSpan(item.req.nbytes, convention)
      if (bytes > BATCH_BYTES) break
      this.waiting.delete(k)
      batch.push(item)
    }
    return batch
  }

  /**
   * Puts back items of a batch that were not decoded, with their priority
   * and place; a chunk asked for again meanwhile keeps its newer request.
   */
  putBack(items: readonly T[]): void {
    for (const item of items) if (!this.waiting.has(item.req.chunk)) this.waiting.set(item.req.chunk, item)
  }

  private first(): T | undefined {
    let best: T | undefined
    for (const item of this.waiting.values()) {
      if (!best || item.priority < best.priority || (item.priority === best.priority && item.seq > best.seq)) {
        best = item
      }
    }
    return best
  }
}
