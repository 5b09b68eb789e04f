import { RadError } from '../../rad/errors'
import type { ChunkColumns } from '../../rad/types'

/** The memory a decoded chunk keeps alive: whole buffers (often shared with its batch), plain values estimated. */
function chunkHolds(cols: ChunkColumns): { buffers: Set<ArrayBufferLike>; plain: number } {
  const buffers = new Set<ArrayBufferLike>([cols.alnStart.buffer])
  let plain = 0
  for (const col of [...cols.readColumns, ...cols.alnColumns]) {
    if (col.kind === 'values') plain += col.values.length * 32
    else buffers.add(col.values.buffer)
  }
  return { buffers, plain }
}

/**
 * Decoded chunks, least recently used first out once they exceed a byte
 * budget. Chunks decoded together share their batch's buffer (decoded in
 * place), so the budget counts each buffer once, while any chunk holds it. A chunk being decoded is represented by its promise, which every
 * caller shares, so a chunk is never decoded twice at once. Failed chunks
 * remember their error (the rows show it) except for cancelled requests.
 */
export class ChunkCache {
  private readonly done = new Map<number, ChunkColumns>()
  private readonly inFlight = new Map<number, Promise<ChunkColumns>>()
  private readonly failed = new Map<number, RadError | Error>()
  private readonly budget: number
  private readonly onChange: (chunk: number) => void
  /** How many cached chunks hold each buffer. */
  private readonly holders = new Map<ArrayBufferLike, number>()
  private bytes = 0
  /** Set once the file changed on disk: every chunk fails with it and nothing is loaded again. */
  private stale: RadError | undefined

  /** `onChange(chunk)` hears that a chunk arrived or failed; -1 means every chunk (markStale). */
  constructor(budgetBytes: number, onChange: (chunk: number) => void) {
    this.budget = budgetBytes
    this.onChange = onChange
  }

  get(chunk: number): ChunkColumns | undefined {
    if (this.stale) return undefined
    const cols = this.done.get(chunk)
    if (cols) {
      this.done.delete(chunk)
      this.done.set(chunk, cols)
    }
    return cols
  }

  has(chunk: number): boolean {
    return this.stale !== undefined || this.done.has(chunk) || this.inFlight.has(chunk) || this.failed.has(chunk)
  }

  error(chunk: number): RadError | Error | undefined {
    return this.stale ?? this.failed.get(chunk)
  }

  /**
   * The file changed on disk (docs/integrity.md): decoded chunks describe bytes that
   * are gone, so none is shown as current any more; every chunk reports
   * `error` instead, and loads fail with it.
   */
  markStale(error: RadError): void {
    if (this.stale) return
    this.clear()
    this.stale = error
    this.onChange(-1)
  }

  /** Forgets a chunk's failure, so it can be loaded again. */
  forget(chunk: number): void {
    if (this.failed.delete(chunk)) this.onChange(chunk)
  }

  get byteLength(): number {
    return this.bytes
  }

  get size(): number {
    return this.done.size
  }

  /** The chunk's columns, loading them with `load` unless cached or already on the way. */
  load(chunk: number, load: () => Promise<ChunkColumns>): Promise<ChunkColumns> {
    if (this.stale) return Promise.reject(this.stale)
    const cols = this.get(chunk)
    if (cols) return Promise.resolve(cols)
    const pending = this.inFlight.get(chunk)
    if (pending) return pending
    const promise = load().then(
      (result) => {
        if (this.stale) throw this.stale
        this.inFlight.delete(chunk)
        this.put(chunk, result)
        this.onChange(chunk)
        return result
      },
      (e: unknown) => {
        this.inFlight.delete(chunk)
        if (!(e instanceof RadError && e.code === 'CANCELLED')) {
          this.failed.set(chunk, e instanceof Error ? e : new Error(String(e)))
          this.onChange(chunk)
        }
        throw e
      },
    )
    this.inFlight.set(chunk, promise)
    return promise
  }

  /** Adds a chunk decoded elsewhere (the index worker's first chunks). */
  insert(chunk: number, cols: ChunkColumns): void {
    if (this.stale || this.done.has(chunk) || this.inFlight.has(chunk)) return
    this.put(chunk, cols)
    this.onChange(chunk)
  }

  private put(chunk: number, cols: ChunkColumns): void {
    this.done.set(chunk, cols)
    this.account(cols, 1)
    for (const [k, old] of this.done) {
      if (this.bytes <= this.budget || this.done.size <= 1) break
      this.done.delete(k)
      this.account(old, -1)
    }
  }

  private account(cols: ChunkColumns, delta: 1 | -1): void {
    const { buffers, plain } = chunkHolds(cols)
    this.bytes += delta * plain
    for (const b of buffers) {
      const n = (this.holders.get(b) ?? 0) + delta
      if (n > 0) this.holders.set(b, n)
      else this.holders.delete(b)
      if ((delta === 1 && n === 1) || (delta === -1 && n === 0)) this.bytes += delta * b.byteLength
    }
  }

  clear(): void {
    this.done.clear()
    this.inFlight.clear()
    this.failed.clear()
    this.holders.clear()
    this.bytes = 0
  }
}
