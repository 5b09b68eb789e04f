import { chunkForRecord, lastAtMost } from '../../rad/chunkIndex'
import type { ChunkIndex } from '../../rad/chunkIndex'

/**
 * The chunk index on the main thread, kept as the exact-size slices the index
 * worker streams (24 bytes per chunk, nothing copied or doubled). Lookups
 * binary-search the slice, then the entry.
 */
export class IndexStore {
  private readonly slices: ChunkIndex[] = []
  /** Number of the first chunk of each slice. */
  private readonly starts: number[] = []
  count = 0
  records = 0

  append(slice: ChunkIndex): void {
    if (slice.count === 0) return
    this.slices.push(slice)
    this.starts.push(this.count)
    this.count += slice.count
    const last = slice.count - 1
    this.records = (slice.firstRecord[last] ?? 0) + (slice.nrec[last] ?? 0)
  }

  private sliceOf(chunk: number): number {
    return lastAtMost(this.starts.length, (i) => this.starts[i] ?? 0, chunk)
  }

  private at(chunk: number): [ChunkIndex, number] | undefined {
    if (chunk < 0 || chunk >= this.count) return undefined
    const s = this.sliceOf(chunk)
    const slice = this.slices[s]
    return slice ? [slice, chunk - (this.starts[s] ?? 0)] : undefined
  }

  /** One column of the index at `chunk`, or 0 past its end. */
  private field(column: 'offset' | 'nbytes' | 'nrec' | 'firstRecord', chunk: number): number {
    const hit = this.at(chunk)
    return hit ? (hit[0][column][hit[1]] ?? 0) : 0
  }

  offset(chunk: number): number {
    return this.field('offset', chunk)
  }

  nbytes(chunk: number): number {
    return this.field('nbytes', chunk)
  }

  nrec(chunk: number): number {
    return this.field('nrec', chunk)
  }

  firstRecord(chunk: number): number {
    return this.field('firstRecord', chunk)
  }

  /** The chunk holding global record `record`, or -1. */
  chunkOf(record: number): number {
    if (record < 0 || record >= this.records) return -1
    const lo = lastAtMost(this.slices.length, (i) => this.slices[i]?.firstRecord[0] ?? 0, record)
    const slice = this.slices[lo]
    if (!slice) return -1
    const k = chunkForRecord(slice, record)
    return k < 0 ? -1 : k + (this.starts[lo] ?? 0)
  }

  /** The whole index as one ChunkIndex (a copy): what the index cache encodes (sessionCache.ts). */
  snapshot(): ChunkIndex {
    const out: ChunkIndex = {
      count: this.count,
      offset: new Float64Array(this.count),
      nbytes: new Uint32Array(this.count),
      nrec: new Uint32Array(this.count),
      firstRecord: new Float64Array(this.count),
    }
    this.slices.forEach((slice, s) => {
      const at = this.starts[s] ?? 0
      out.offset.set(slice.offset, at)
      out.nbytes.set(slice.nbytes, at)
      out.nrec.set(slice.nrec, at)
      out.firstRecord.set(slice.firstRecord, at)
    })
    return out
  }

  /** Forgets everything (the session is gone; something may still hold a reference to it). */
  clear(): void {
    this.slices.length = 0
    this.starts.length = 0
    this.count = 0
    this.records = 0
  }

  /** Bytes held, for the "index memory" figure. */
  get byteLength(): number {
    return this.count * 24
  }
}
