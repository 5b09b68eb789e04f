/**
 * One local file's entry in the page's index cache (ADR 0007): keyed by its fingerprint, a sample
 * of its middle and its modification time; every failure of the cache is ignored (the file is
 * scanned instead, or its index is simply not kept).
 */
import type { SourceSpec } from '../../io/sourceSpec'
import type { KeptCells } from '../../rad/cells/cellsSection'
import type { IndexStore } from './indexStore'
import type { OpenedFile, ScanSummary, StatsReport } from '../../workers/protocol'
import { cacheEntry } from './sessionCache'
import type { IndexCache } from './sessionCache'

export class FileIndexCache {
  private readonly cache: IndexCache
  private readonly file: File

  private constructor(cache: IndexCache, file: File) {
    this.cache = cache
    this.file = file
  }

  /**
   * Local Files only: a URL's index comes from its sidecar (and its server may change the file),
   * and only a File has the modification time that is part of the key.
   */
  static of(source: SourceSpec, cache: IndexCache | undefined): FileIndexCache | undefined {
    return cache && source.kind === 'file' && source.file instanceof File
      ? new FileIndexCache(cache, source.file)
      : undefined
  }

  get(fingerprint: string): Promise<Uint8Array | undefined> {
    return this.cache.get(this.key(fingerprint)).catch(() => undefined)
  }

  drop(fingerprint: string): void {
    void this.cache.drop(this.key(fingerprint)).catch(() => undefined)
  }

  /** Keeps the file's index, with its statistics once they are done, and its cells passes. */
  keep(
    opened: OpenedFile,
    index: IndexStore,
    summary: ScanSummary,
    stats: StatsReport | undefined,
    cells: readonly KeptCells[] = [],
  ): void {
    const bytes = opened.cacheKey === undefined ? undefined : cacheEntry(opened, index, summary, stats, cells)
    if (!bytes || opened.cacheKey === undefined) return
    void this.cache.put(this.key(opened.cacheKey), bytes, this.file.name).catch(() => undefined)
  }

  /**
   * The key: the fingerprint (size and the 64 KiB ends), a sample of the middle (OpenedFile.cacheKey,
   * contentSample) and the file's modification time. The fingerprint alone misses an edit in the
   * middle of the file: a file rewritten in place, or another file with the same ends (a copy with
   * one chunk damaged), must be scanned again; the sample catches such an edit in its blocks even
   * when the modification time was restored (ADR 0007).
   */
  private key(fingerprint: string): string {
    return `${fingerprint}@${String(this.file.lastModified)}`
  }
}
