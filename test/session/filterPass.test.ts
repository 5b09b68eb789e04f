/** The filter pass (docs/subsets.md, "Selections"): batches over lanes, answers taken in file order, the first N kept. */
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { compileFilter, matchRecords } from '../../src/rad/filter/recordFilter'
import type { RecordFilter } from '../../src/rad/filter/recordFilter'
import { passBatches, runLanes } from '../../src/session/rows/lanes'
import { filterBatch } from '../../src/workers/filterBatch'
import { makeDecoder } from '../../src/workers/walkBatch'
import type { FilterBatchResult, FilterJob } from '../../src/workers/protocol'
import { FilterMatches } from '../../src/session/passes/filterPass'
import type { ChunkRequest } from '../../src/workers/protocol'
import { SC_READS, salmonScRna } from '../helpers/assays'
import type { ScRead } from '../helpers/assays'
import { radBytes } from '../helpers/radWriter'
import { readRad } from '../helpers/read'
import type { ReadResult } from '../helpers/read'

function requests(file: ReadResult): ChunkRequest[] {
  const { index } = file.scan
  return Array.from({ length: index.count }, (_, chunk) => ({
    chunk,
    offset: index.offset[chunk] ?? 0,
    nbytes: index.nbytes[chunk] ?? 0,
  }))
}

type FilterLane = (batch: ChunkRequest[], job: FilterJob) => Promise<FilterBatchResult>

/** A filter's run as startFilterRun makes it: the one pass runner, answers in batch order, bad chunks counted. */
function filterPass(
  lanes: FilterLane[],
  batches: ChunkRequest[][],
  job: FilterJob,
  onBatch: (found: FilterBatchResult, batch: ChunkRequest[]) => void,
  signal?: AbortSignal,
): Promise<void> {
  const jobLanes = lanes.map((lane) => (batch: ChunkRequest[]) => lane(batch, job))
  return runLanes(jobLanes, batches, onBatch, {
    what: 'the filter',
    signal,
    inOrder: true,
    onBadChunk: () => undefined,
  })
}

/** Lanes over a file's bytes; each answers after a random delay, so answers arrive out of order. */
function lanes(bytes: Uint8Array, file: ReadResult, n: number): FilterLane[] {
  const decoder = makeDecoder(new BytesSource(bytes), file.prelude)
  return Array.from({ length: n }, (): FilterLane => async (batch, job) => {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 5))
    return filterBatch(decoder, batch, file.scan.convention, job)
  })
}

/** What the kernel says, chunk by chunk, as file-wide record numbers. */
function expected(file: ReadResult, filter: RecordFilter): number[] {
  const compiled = compileFilter(filter, file.prelude, file.sem)
  return file.chunks.flatMap((cols, k) =>
    [...matchRecords(cols, compiled)].map((r) => (file.scan.index.firstRecord[k] ?? 0) + r),
  )
}

async function passMatches(
  bytes: Uint8Array,
  filter: RecordFilter,
  opts: { collated?: boolean; batch?: number; indexFrom?: Uint8Array } = {},
) {
  // A damaged copy is indexed from the intact one (same offsets): readRad decodes every chunk.
  const file = await readRad(opts.indexFrom ?? bytes)
  const job: FilterJob = { filter: compileFilter(filter, file.prelude, file.sem), collated: opts.collated ?? false }
  const reqs = requests(file)
  const size = opts.batch ?? 3
  const batches = opts.batch
    ? Array.from({ length: Math.ceil(reqs.length / size) }, (_, i) => reqs.slice(i * size, (i + 1) * size))
    : passBatches(reqs, file.scan.convention)
  const matches = new FilterMatches()
  const order: number[] = []
  await filterPass(lanes(bytes, file, 4), batches, job, (found, batch) => {
    order.push(batch[0]?.chunk ?? -1)
    matches.add(found, (chunk) => file.scan.index.firstRecord[chunk] ?? 0)
  })
  return { file, matches, order, got: Array.from({ length: matches.kept }, (_, i) => matches.at(i)) }
}

const many: ScRead[] = Array.from({ length: 300 }, (_, i) => SC_READS[(i * 7) % SC_READS.length] as ScRead)

describe('the filter pass', () => {
  it('takes answers in file order whatever order the lanes finish in', async () => {
    const bytes = radBytes(salmonScRna(many, 4))
    const { file, got, order } = await passMatches(bytes, { ref: 'GeneA' }, { batch: 3 })
    expect(got).toEqual(expected(file, { ref: 'GeneA' }))
    expect(order).toEqual([...order].sort((a, b) => a - b))
  })

  it('keeps the first N record numbers and counts the rest', async () => {
    const bytes = radBytes(salmonScRna(many, 4))
    const file = await readRad(bytes)
    const all = expected(file, { maxAln: 1 })
    const job: FilterJob = { filter: compileFilter({ maxAln: 1 }, file.prelude, file.sem), collated: false }
    const matches = new FilterMatches(10)
    await filterPass(lanes(bytes, file, 2), passBatches(requests(file), file.scan.convention), job, (found) => {
      matches.add(found, (chunk) => file.scan.index.firstRecord[chunk] ?? 0)
    })
    expect(matches.total).toBe(all.length)
    expect(matches.kept).toBe(10)
    expect(Array.from({ length: 10 }, (_, i) => matches.at(i))).toEqual(all.slice(0, 10))
  })

  it('stops when cancelled', async () => {
    const bytes = radBytes(salmonScRna(many, 1))
    const file = await readRad(bytes)
    const job: FilterJob = { filter: compileFilter({ minAln: 1 }, file.prelude, file.sem), collated: false }
    const controller = new AbortController()
    let batches = 0
    const pass = filterPass(
      lanes(bytes, file, 1),
      requests(file).map((r) => [r]),
      job,
      () => {
        if (++batches === 5) controller.abort()
      },
      controller.signal,
    )
    await expect(pass).rejects.toMatchObject({ code: 'CANCELLED' })
    expect(batches).toBe(5)
  })
})

describe('collated files (§4.3): a barcode filter answered from each chunk’s first record', () => {
  /** One chunk per barcode, as alevin-fry collate writes: 3 reads of each of the five barcodes. */
  const collatedReads = SC_READS.flatMap((r) => [r, r, r])
  const bytes = radBytes(salmonScRna(collatedReads, 3))

  it('gives the same answer as decoding, for exact and one-mismatch barcodes', async () => {
    for (const filter of [{ barcode: 'GATTACAGATTACAGA' }, { barcode: 'TTTTTTTTTTTTTTTA', hamming: 1 as const }]) {
      const fast = await passMatches(bytes, filter, { collated: true })
      const slow = await passMatches(bytes, filter)
      expect(fast.got).toEqual(slow.got)
      expect(fast.got).toHaveLength(3)
    }
  })

  it('does not decode the chunk: damage after the first record goes unnoticed on the fast path', async () => {
    const damaged = bytes.slice()
    const file = await readRad(bytes)
    // Chunk 3 holds the GATTACA… reads; its second record's naln becomes huge: decoding it fails.
    const second = (file.scan.index.offset[3] ?? 0) + 8 + 4 + 8 + 4 * 3
    new DataView(damaged.buffer).setUint32(second, 0xffffff, true)
    const fast = await passMatches(damaged, { barcode: 'GATTACAGATTACAGA' }, { collated: true, indexFrom: bytes })
    expect(fast.got).toEqual([9, 10, 11])
    const slow = await passMatches(
      damaged,
      { barcode: 'GATTACAGATTACAGA', minAln: 0, maxAln: 100 },
      { collated: true, indexFrom: bytes },
    )
    expect(slow.got).toEqual([])
  })
})
