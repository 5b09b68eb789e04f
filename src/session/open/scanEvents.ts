/**
 * The page's side of an index scan (docs/architecture.md §2): what the index worker reports, in
 * order — where the index comes from, the prelude, the first chunks decoded, index slices,
 * progress — put into the session's index, decode pool, chunk cache and store. Nothing arrives
 * once the session is disposed (`live`).
 */
import type { ChunkIndex } from '../../rad/chunkIndex'
import { inferSemantics } from '../../rad/prelude/semantics'
import type { NbytesConvention } from '../../rad/types'
import type { IndexStore } from './indexStore'
import type { OpenedFile, ScanEvents } from '../../workers/protocol'
import type { ChunkCache } from '../rows/chunkCache'
import type { DecodePool } from '../rows/decodePool'
import type { FileIndexCache } from './fileIndexCache'
import type { SessionStore } from '../sessionStore'

export interface ScanReceiver {
  store: SessionStore
  index: IndexStore
  pool: DecodePool
  cache: ChunkCache
  indexCache: FileIndexCache | undefined
  /** A fresh session reads nothing from the cache, but still keeps its own index there. */
  fresh: boolean
  live: () => boolean
  onOpened: (opened: OpenedFile) => void
}

export function scanEvents(r: ScanReceiver): ScanEvents {
  const append = (added: ChunkIndex, convention: NbytesConvention): void => {
    r.index.append(added)
    r.pool.setConvention(convention)
  }
  const counted = (convention: NbytesConvention): void => {
    r.store.update({ chunks: r.index.count, records: r.index.records, convention })
  }
  return {
    indexSource: (indexSource, sidecarRejected) => {
      if (r.live()) r.store.update({ indexSource, sidecarRejected })
    },
    opened: (opened) => {
      if (!r.live()) return
      r.onOpened(opened)
      r.pool.open(opened.prelude, opened.container, opened.remote, opened.frames)
      r.store.update({ opened, semantics: inferSemantics(opened.prelude), phase: 'indexing' })
    },
    first: (added, chunks, convention) => {
      if (!r.live()) return
      append(added, convention)
      // In the cache before the store tells the table they exist.
      chunks.forEach((cols, k) => {
        r.cache.insert(k, cols)
      })
      counted(convention)
    },
    index: (added, convention) => {
      if (!r.live()) return
      append(added, convention)
      counted(convention)
    },
    progress: (progress) => {
      if (r.live()) r.store.update({ progress })
    },
    cachedIndex: (key) => (r.fresh ? undefined : r.indexCache?.get(key)),
    cacheRejected: (key, why) => {
      if (r.live()) r.store.update({ cacheRejected: why })
      r.indexCache?.drop(key)
    },
  }
}
