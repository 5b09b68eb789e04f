/**
 * The table's chunks, decoded on demand: what the screen needs now goes to the decode pool first
 * (chunkSchedule.ts), each chunk of a known index is checked as it arrives (indexClaims.ts), and
 * a chunk whose decode worker died is asked of its replacement once.
 */
import { isFileChange } from '../../io/fileFingerprint'
import { RadError } from '../../rad/errors'
import type { IndexStore } from '../open/indexStore'
import type { ChunkCache } from './chunkCache'
import { ChunkSchedule } from './chunkSchedule'
import type { DecodePool } from './decodePool'
import type { IndexClaims } from '../open/indexClaims'

export interface ChunkLoaderParts {
  index: IndexStore
  pool: DecodePool
  cache: ChunkCache
  claims: IndexClaims
  live: () => boolean
  onFileChanged: (e: RadError) => void
}

export class ChunkLoader {
  private readonly parts: ChunkLoaderParts
  private readonly schedule = new ChunkSchedule()
  /** Chunks asked for again after their decode worker died. */
  private readonly retried = new Set<number>()

  constructor(parts: ChunkLoaderParts) {
    this.parts = parts
  }

  /**
   * What the screen needs now: `visible` chunks first, in their order, then
   * `prefetch`. Requests from earlier calls sink below these and are dropped
   * once they go stale (chunkSchedule.ts).
   */
  want(visible: readonly number[], prefetch: readonly number[]): void {
    const { index, pool, cache } = this.parts
    for (const { chunk, priority } of this.schedule.want(visible, prefetch, index.count)) {
      if (pool.reprioritize(chunk, priority) || cache.has(chunk)) continue
      this.load(chunk, priority)
    }
    pool.drop(this.schedule.isWanted)
  }

  private load(chunk: number, priority: number): void {
    const { index, pool, cache, claims } = this.parts
    const req = { chunk, offset: index.offset(chunk), nbytes: index.nbytes(chunk) }
    cache
      .load(chunk, () => pool.request(req, priority).then((cols) => claims.matching(cols)))
      .catch((e: unknown) => {
        if (e instanceof RadError && isFileChange(e)) {
          this.parts.onFileChanged(e)
          return
        }
        claims.decodeFailed(chunk, e)
        // Shown in the rows through chunkError(); CANCELLED ones are asked for again. A decode
        // worker that died on this chunk was replaced: ask the new one once (twice means the
        // chunk itself is what kills them).
        if (e instanceof RadError && e.code === 'WORKER_FAILED' && !this.retried.has(chunk) && this.parts.live()) {
          this.retried.add(chunk)
          cache.forget(chunk)
          this.load(chunk, priority)
        }
      })
  }
}
