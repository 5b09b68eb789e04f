import type { IndexCache } from '../../session'
import { persistStore } from './persistStore'

/**
 * The sessions' index cache (ADR 0007) over the page's IndexedDB store: `.rdx` bytes keyed by
 * the file's fingerprint key. Where the browser has no IndexedDB, nothing is kept and every file
 * is scanned.
 */
export const browserIndexCache: IndexCache = {
  async get(key) {
    return (await persistStore())?.getIndex(key)
  },
  async put(key, bytes, name) {
    await (await persistStore())?.putIndex(key, bytes, name)
  },
  async drop(key) {
    await (await persistStore())?.deleteIndex(key)
  },
}
