/**
 * A ByteSource that claims any size (e.g. > 4 GiB) without holding it: bytes
 * exist only where a test placed them (regions) or generated on demand
 * (repeating patterns); everything else reads as zeros (docs/architecture.md §5).
 * It records every read so tests can check the reader never reads too much.
 */
import type { ByteSource } from '../../src/io/byteSource'

export interface Region {
  offset: number
  bytes: Uint8Array
}

/** `unit` repeated over [offset, offset + length). */
export interface RepeatPattern {
  offset: number
  length: number
  unit: Uint8Array
}

export class SparseSource implements ByteSource {
  readonly name = 'sparse.rad'
  readonly size: number
  readonly reads: { offset: number; length: number }[] = []
  /** Reads longer than this fail the test: a reader must not slurp a huge file. */
  maxRead: number
  private readonly regions: Region[] = []
  private readonly patterns: RepeatPattern[] = []

  constructor(size: number, maxRead = 64 << 20) {
    if (!Number.isSafeInteger(size) || size < 0) throw new Error(`bad size ${size}`)
    this.size = size
    this.maxRead = maxRead
  }

  place(offset: number, bytes: Uint8Array): this {
    if (offset + bytes.length > this.size) throw new Error('region beyond the end of the source')
    this.regions.push({ offset, bytes })
    return this
  }

  repeat(offset: number, length: number, unit: Uint8Array): this {
    if (offset + length > this.size) throw new Error('pattern beyond the end of the source')
    this.patterns.push({ offset, length, unit })
    return this
  }

  /** Total bytes handed out so far. */
  get bytesRead(): number {
    return this.reads.reduce((n, r) => n + r.length, 0)
  }

  read(offset: number, length: number): Promise<Uint8Array> {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      return Promise.reject(new RangeError(`SparseSource.read(${offset}, ${length}): not whole, non-negative numbers`))
    }
    const end = Math.min(this.size, offset + length)
    const n = Math.max(0, end - offset)
    if (n > this.maxRead) {
      return Promise.reject(new Error(`SparseSource: a read of ${n} bytes at ${offset} exceeds the test's limit`))
    }
    this.reads.push({ offset, length: n })
    const out = new Uint8Array(n)
    for (const p of this.patterns) {
      const from = Math.max(offset, p.offset)
      const to = Math.min(end, p.offset + p.length)
      if (from >= to) continue
      // One period by hand, then doubling copies (each a whole number of periods).
      const u = p.unit.length
      const start = from - offset
      const n = to - from
      const phase = (from - p.offset) % u
      for (let i = 0; i < Math.min(u, n); i++) out[start + i] = p.unit[(phase + i) % u] ?? 0
      for (let filled = Math.min(u, n); filled < n;) {
        const len = Math.min(filled, n - filled)
        out.copyWithin(start + filled, start, start + len)
        filled += len
      }
    }
    for (const r of this.regions) {
      const from = Math.max(offset, r.offset)
      const to = Math.min(end, r.offset + r.bytes.length)
      if (from < to) out.set(r.bytes.subarray(from - r.offset, to - r.offset), from - offset)
    }
    return Promise.resolve(out)
  }
}
