/**
 * The chunk index: four typed columns, 24 bytes per chunk. Offsets and record
 * numbers are Numbers (exact to 2^53, far beyond any file), so files over
 * 4 GiB index exactly.
 */
export interface ChunkIndex {
  count: number
  /** Absolute offset of each chunk header. */
  offset: Float64Array
  /** nbytes as stored. */
  nbytes: Uint32Array
  nrec: Uint32Array
  /** Global number of each chunk's first record. */
  firstRecord: Float64Array
}

/** Entries a builder reserves up front at most, whatever the header claims (24 MiB). */
const MAX_RESERVED = 1 << 20

export class ChunkIndexBuilder {
  private offset: Float64Array
  private nbytes: Uint32Array
  private nrec: Uint32Array
  private firstRecord: Float64Array
  count = 0
  records = 0

  /**
   * `expected`: how many chunks the file says it has (num_chunks, §1.4), so a
   * million-chunk index is not regrown twenty times; capped, since a corrupt
   * header may claim anything.
   */
  constructor(expected = 0) {
    const size = Math.max(1024, Math.min(Math.floor(expected), MAX_RESERVED))
    this.offset = new Float64Array(size)
    this.nbytes = new Uint32Array(size)
    this.nrec = new Uint32Array(size)
    this.firstRecord = new Float64Array(size)
  }

  push(offset: number, nbytes: number, nrec: number): void {
    if (this.count === this.offset.length) this.grow()
    const i = this.count++
    this.offset[i] = offset
    this.nbytes[i] = nbytes
    this.nrec[i] = nrec
    this.firstRecord[i] = this.records
    this.records += nrec
  }

  private grow(): void {
    const size = this.offset.length * 2
    const offset = new Float64Array(size)
    offset.set(this.offset)
    const nbytes = new Uint32Array(size)
    nbytes.set(this.nbytes)
    const nrec = new Uint32Array(size)
    nrec.set(this.nrec)
    const firstRecord = new Float64Array(size)
    firstRecord.set(this.firstRecord)
    this.offset = offset
    this.nbytes = nbytes
    this.nrec = nrec
    this.firstRecord = firstRecord
  }

  /** The whole index without copying when the reserve was exact (the builder is done with). */
  finish(): ChunkIndex {
    if (this.count !== this.offset.length) return this.snapshot()
    return {
      count: this.count,
      offset: this.offset,
      nbytes: this.nbytes,
      nrec: this.nrec,
      firstRecord: this.firstRecord,
    }
  }

  /** Exact-size copies of the first `from..count` entries (fresh buffers, safe to transfer). */
  snapshot(from = 0): ChunkIndex {
    return {
      count: this.count - from,
      offset: this.offset.slice(from, this.count),
      nbytes: this.nbytes.slice(from, this.count),
      nrec: this.nrec.slice(from, this.count),
      firstRecord: this.firstRecord.slice(from, this.count),
    }
  }
}

export function emptyChunkIndex(): ChunkIndex {
  return {
    count: 0,
    offset: new Float64Array(0),
    nbytes: new Uint32Array(0),
    nrec: new Uint32Array(0),
    firstRecord: new Float64Array(0),
  }
}

/** Appends `more` (a later snapshot) to `base`, returning a new index. */
export function concatChunkIndex(base: ChunkIndex, more: ChunkIndex): ChunkIndex {
  const join = <T extends Float64Array | Uint32Array>(a: T, b: T, make: (n: number) => T): T => {
    const out = make(a.length + b.length)
    out.set(a)
    out.set(b, a.length)
    return out
  }
  return {
    count: base.count + more.count,
    offset: join(base.offset, more.offset, (n) => new Float64Array(n)),
    nbytes: join(base.nbytes, more.nbytes, (n) => new Uint32Array(n)),
    nrec: join(base.nrec, more.nrec, (n) => new Uint32Array(n)),
    firstRecord: join(base.firstRecord, more.firstRecord, (n) => new Float64Array(n)),
  }
}

/**
 * The last index i in [0, count) whose key(i) ≤ value, for keys that never
 * decrease; 0 when none is (callers check). The one binary search of the
 * project: chunk by record, index slice by chunk, Snappy frame by offset.
 */
export function lastAtMost(count: number, key: (i: number) => number, value: number): number {
  let lo = 0
  let hi = count - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1
    if (key(mid) <= value) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** The chunk holding global record `record`, or -1. */
export function chunkForRecord(index: ChunkIndex, record: number): number {
  if (index.count === 0 || record < 0) return -1
  const k = lastAtMost(index.count, (i) => index.firstRecord[i] ?? 0, record)
  const last = (index.firstRecord[k] ?? 0) + (index.nrec[k] ?? 0)
  return record < last ? k : -1
}

/**
 * The chunks [first, last) whose bytes overlap [start, end): chunks lie end
 * to end from index.offset[0] (§4) and the last one ends at `endOfChunks`.
 */
export function chunksOverlapping(
  index: ChunkIndex,
  endOfChunks: number,
  start: number,
  end: number,
): [number, number] {
  if (index.count === 0 || end <= (index.offset[0] ?? 0) || start >= endOfChunks) return [0, 0]
  const key = (i: number): number => index.offset[i] ?? 0
  return [lastAtMost(index.count, key, start), lastAtMost(index.count, key, end - 1) + 1]
}
