import { existsSync } from 'node:fs'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { NodeFileSource } from '../../src/cli/nodeFileSource'
import type { ByteSource } from '../../src/io/byteSource'
import { BytesSource } from '../../src/io/byteSource'
import { scanForSidecar } from '../../src/io/sidecarIndex'
import { chunkSpan } from '../../src/rad/decode/chunk'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import { chunkForRecord } from '../../src/rad/chunkIndex'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { encodeSidecar } from '../../src/rad/sidecar/sidecar'
import type { KnownIndex } from '../../src/rad/sidecar/sidecar'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { openWithKnownIndex, scanOrInstall } from '../../src/workers/knownIndex'
import type { KnownIndexSink } from '../../src/workers/knownIndex'
import type { IndexSource } from '../../src/workers/protocol'
import { SALMON_V2 } from '../helpers/fixtures'
import { RecordingSource } from '../helpers/recordingSource'
import { repeatedFixture } from '../helpers/repeatedFixture'

interface Heard {
  sources: [IndexSource, string | undefined][]
  index: ChunkIndex[]
  opened: number
}

function sink(): { sink: KnownIndexSink; heard: Heard } {
  const heard: Heard = { sources: [], index: [], opened: 0 }
  return {
    heard,
    sink: {
      indexSource: (source, rejected) => heard.sources.push([source, rejected]),
      opened: () => heard.opened++,
      first: (index) => heard.index.push(index),
      index: (added) => heard.index.push(added),
      progress: () => undefined,
    },
  }
}

const indexed = (heard: Heard): number => heard.index.reduce((n, s) => n + s.count, 0)

/** Reads and decodes the chunk holding `record`, as the decode workers do: one read of its bytes. */
async function decodeRecordChunk(source: ByteSource, known: KnownIndex, record: number): Promise<number> {
  const bytes = await source.read(0, 1 << 16)
  const prelude = parsePrelude(bytes, source.size)
  const k = chunkForRecord(known.index, record)
  const offset = known.index.offset[k]!
  const span = chunkSpan(known.index.nbytes[k]!, known.convention)
  const cols = decodeChunk(await source.read(offset, span), offset, k, prelude, known.convention)
  return cols.recordCount
}

describe('opening with a known index (sidecar)', () => {
  const COPIES = 200
  const big = repeatedFixture(COPIES)

  it('installs every chunk at once, reading < 1% of the file, and the last record decodes', async () => {
    const known = await scanForSidecar(new BytesSource(big, 'big.rad'))
    expect(known.index.count).toBe(4 * COPIES)
    const source = new RecordingSource(big)
    const { sink: s, heard } = sink()
    const summary = await openWithKnownIndex(source, known, s)
    expect(heard.sources).toEqual([['sidecar', undefined]])
    expect(heard.opened).toBe(1)
    expect(indexed(heard)).toBe(known.index.count)
    expect(summary).toMatchObject({ chunks: known.index.count, records: known.records, status: 'clean' })
    const last = known.records - 1
    expect(await decodeRecordChunk(source, known, last)).toBeGreaterThan(0)
    const share = source.bytesRead / big.length
    expect(share).toBeLessThan(0.01)
  })

  it('rejects a sidecar of another file with a message, then scans as usual', async () => {
    const known = await scanForSidecar(new BytesSource(new Uint8Array(readFileSync(SALMON_V2)), 'v2.rad'))
    const source = new RecordingSource(big)
    const { sink: s, heard } = sink()
    const summary = await scanOrInstall(source, new BytesSource(encodeSidecar(known)), s)
    expect(heard.sources).toHaveLength(1)
    expect(heard.sources[0]?.[0]).toBe('scan')
    expect(heard.sources[0]?.[1]).toMatch(/written for another file than recorded\.rad; its size/)
    expect(summary.chunks).toBe(4 * COPIES)
    expect(indexed(heard)).toBe(4 * COPIES)
    expect(source.bytesRead).toBeGreaterThanOrEqual(big.length)
  })

  it('rejects a damaged sidecar (checksum) with a message, then scans', async () => {
    const known = await scanForSidecar(new BytesSource(big, 'big.rad'))
    const bytes = encodeSidecar(known)
    bytes[100]! ^= 4
    const { sink: s, heard } = sink()
    const summary = await scanOrInstall(new BytesSource(big, 'big.rad'), new BytesSource(bytes), s)
    expect(heard.sources[0]?.[1]).toMatch(/checksum does not match/)
    expect(summary.records).toBe(known.records)
  })

  it('scans without a word when there is no sidecar', async () => {
    const { sink: s, heard } = sink()
    await scanOrInstall(new BytesSource(big, 'big.rad'), undefined, s)
    expect(heard.sources).toEqual([['scan', undefined]])
  })
})

/** A read counter over a real file (the benchmark's, read-only). */
class Counting implements ByteSource {
  bytesRead = 0
  private readonly inner: NodeFileSource
  constructor(inner: NodeFileSource) {
    this.inner = inner
  }
  get size(): number {
    return this.inner.size
  }
  get name(): string {
    return this.inner.name
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    const out = await this.inner.read(offset, length)
    this.bytesRead += out.length
    return out
  }
}

const SALMON_1G = '/work/main/bench/data/salmon-1g.rad'

describe.skipIf(!existsSync(SALMON_1G) || process.env.CI !== undefined)('the benchmark’s 1.1 GB file', () => {
  it('opens with its sidecar after reading < 1% of it, its last record reachable', { timeout: 120_000 }, async () => {
    const file = await NodeFileSource.open(SALMON_1G)
    try {
      const known = await scanForSidecar(file)
      const counting = new Counting(file)
      const { sink: s, heard } = sink()
      await scanOrInstall(counting, new BytesSource(encodeSidecar(known)), s)
      expect(heard.sources).toEqual([['sidecar', undefined]])
      expect(indexed(heard)).toBe(known.index.count)
      expect(await decodeRecordChunk(counting, known, known.records - 1)).toBeGreaterThan(0)
      expect(counting.bytesRead / file.size).toBeLessThan(0.01)
    } finally {
      await file.close()
    }
  })
})
