/**
 * Aligned blocks of a remote file, kept for small reads (HttpSource): each block is fetched
 * once, the most recently used are kept, and a block whose fetch failed is forgotten so that
 * the next read asks again.
 */
export class BlockCache {
  readonly blockSize: number
  private readonly capacity: number
  private readonly fetchBlock: (block: number) => Promise<Uint8Array>
  private readonly blocks = new Map<number, Promise<Uint8Array>>()

  /** `fetchBlock(b)` fetches block b: bytes [b × blockSize, min(size, (b + 1) × blockSize)). */
  constructor(blockSize: number, capacity: number, fetchBlock: (block: number) => Promise<Uint8Array>) {
    this.blockSize = blockSize
    this.capacity = capacity
    this.fetchBlock = fetchBlock
  }

  /** Keeps bytes already fetched from offset 0 (the opening request's), as whole blocks. */
  seed(bytes: Uint8Array, size: number): void {
    const bs = this.blockSize
    // Whole blocks only (or up to the end of the file): a block cached short would read as zeros.
    const got = bytes.length
    const kept = got === size ? got : got - (got % bs)
    for (let at = 0; at < kept; at += bs) {
      this.blocks.set(at / bs, Promise.resolve(bytes.subarray(at, Math.min(bytes.length, at + bs))))
    }
  }

  /** Bytes [offset, end) from the cached blocks, fetching the missing ones (each once). */
  async read(offset: number, end: number): Promise<Uint8Array> {
    const bs = this.blockSize
    const firstBlock = Math.floor(offset / bs)
    const lastBlock = Math.floor((end - 1) / bs)
    const parts: Promise<Uint8Array>[] = []
    for (let b = firstBlock; b <= lastBlock; b++) parts.push(this.block(b))
    const blocks = await Promise.all(parts)
    const out = new Uint8Array(end - offset)
    blocks.forEach((bytes, i) => {
      const blockStart = (firstBlock + i) * bs
      const from = Math.max(offset, blockStart)
      const to = Math.min(end, blockStart + bytes.length)
      if (to > from) out.set(bytes.subarray(from - blockStart, to - blockStart), from - offset)
    })
    return out
  }

  /** Whether every block of [offset, end) is cached or on its way. */
  has(offset: number, end: number): boolean {
    const bs = this.blockSize
    for (let b = Math.floor(offset / bs); b <= Math.floor((end - 1) / bs); b++) if (!this.blocks.has(b)) return false
    return true
  }

  block(b: number): Promise<Uint8Array> {
    const cached = this.blocks.get(b)
    if (cached) {
      // Most recently used last: the Map's order is the eviction order.
      this.blocks.delete(b)
      this.blocks.set(b, cached)
      return cached
    }
    const bytes = this.fetchBlock(b)
    this.blocks.set(b, bytes)
    bytes.catch(() => this.blocks.delete(b))
    while (this.blocks.size > this.capacity) {
      const oldest = this.blocks.keys().next().value
      if (oldest === undefined) break
      this.blocks.delete(oldest)
    }
    return bytes
  }

  clear(): void {
    this.blocks.clear()
  }
}
