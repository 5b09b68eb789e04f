/** One cached index, as the LRU sees it. */
export interface CachedEntry {
  key: string
  nbytes: number
  /** Date.now() of the last write or read. */
  usedAt: number
}

/**
 * The keys to delete so that what is left fits in `capBytes`: least recently used first. An entry
 * larger than the cap on its own is evicted too (nothing could be kept beside it).
 */
export function evictions(entries: readonly CachedEntry[], capBytes: number): string[] {
  const newestFirst = [...entries].sort((a, b) => b.usedAt - a.usedAt)
  const out: string[] = []
  let kept = 0
  for (const e of newestFirst) {
    if (kept + e.nbytes <= capBytes) kept += e.nbytes
    else out.push(e.key)
  }
  return out
}
