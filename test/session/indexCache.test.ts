import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { contentSample, sampleBlocks, takeHashedFingerprint } from '../../src/io/fileFingerprint'
import { scanForSidecar } from '../../src/io/sidecarIndex'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import { decodeSidecar, encodeSidecar, fingerprintKey } from '../../src/rad/sidecar/sidecar'
import { IndexStore } from '../../src/session/open/indexStore'
import { scanOrInstall } from '../../src/workers/knownIndex'
import type { KnownIndexSink } from '../../src/workers/knownIndex'
import type { IndexSource, OpenedFile, ScanSummary } from '../../src/workers/protocol'
import { cacheEntry, statsFromJson, statsToJson } from '../../src/session/open/sessionCache'
import type { StatsReport } from '../../src/workers/protocol'
import { SALMON_V3, SALMON_V3_P3 } from '../helpers/fixtures'
import { RecordingSource } from '../helpers/recordingSource'
import { statsJsonOf } from '../helpers/statsOf'

const v3 = new Uint8Array(readFileSync(SALMON_V3))
const p3 = new Uint8Array(readFileSync(SALMON_V3_P3))

interface Heard {
  sources: IndexSource[]
  rejected: [string, string][]
  asked: string[]
  index: ChunkIndex[]
  opened: OpenedFile[]
}

/** A sink with a page cache holding `entries` (key → .rdx bytes). */
function cachedSink(entries: Map<string, Uint8Array>): { sink: KnownIndexSink; heard: Heard } {
  const heard: Heard = { sources: [], rejected: [], asked: [], index: [], opened: [] }
  return {
    heard,
    sink: {
      indexSource: (source) => heard.sources.push(source),
      opened: (o) => heard.opened.push(o),
      first: (index) => heard.index.push(index),
      index: (added) => heard.index.push(added),
      progress: () => undefined,
      cachedIndex: (key) => {
        heard.asked.push(key)
        return entries.get(key)
      },
      cacheRejected: (key, why) => {
        heard.rejected.push([key, why])
        entries.delete(key)
      },
    },
  }
}

const indexed = (heard: Heard): number => heard.index.reduce((n, s) => n + s.count, 0)

/** The cache key the index worker asks for: the fingerprint key and the content sample (ADR 0007). */
async function keyOf(bytes: Uint8Array): Promise<string> {
  const file = new BytesSource(bytes, 'f.rad')
  return `${fingerprintKey(await takeHashedFingerprint(file))}~${await contentSample(file)}`
}

const v3Stats = await statsJsonOf(v3)

describe('the cached reopen (scanOrInstall with the page cache, ADR 0007)', () => {
  it('installs a cached index without a scan, every chunk at once, and hands back its statistics', async () => {
    const known = { ...(await scanForSidecar(new BytesSource(v3, 'v3.rad'))), stats: { json: v3Stats } }
    const key = await keyOf(v3)
    const { sink, heard } = cachedSink(new Map([[key, encodeSidecar(known)]]))
    const source = new RecordingSource(v3)
    const summary = await scanOrInstall(source, undefined, sink)
    expect(heard.asked).toEqual([key])
    expect(heard.sources).toEqual(['cache'])
    expect(indexed(heard)).toBe(known.index.count)
    expect(heard.opened[0]!.cacheKey).toBe(key)
    expect(key.startsWith(`${fingerprintKey(heard.opened[0]!.hashed)}~`)).toBe(true)
    expect(summary).toMatchObject({ records: known.records, status: 'clean', stats: { json: v3Stats } })
    expect(summary.dropped).toBeUndefined()
    expect(source.bytesRead).toBeLessThan(v3.length)
  })

  it('an edit in place in a sampled block (same size, same 64 KiB ends) misses the cache: the key holds the content sample', async () => {
    const known = await scanForSidecar(new BytesSource(v3, 'v3.rad'))
    const { sink, heard } = cachedSink(new Map([[await keyOf(v3), encodeSidecar(known)]]))
    const edited = v3.slice()
    const [start] = sampleBlocks(v3.length)[5]!
    edited[start + 100]! ^= 0xff
    expect(fingerprintKey(await takeHashedFingerprint(new BytesSource(edited, 'e.rad')))).toBe(
      fingerprintKey(known.fingerprint),
    )
    await scanOrInstall(new BytesSource(edited, 'v3.rad'), undefined, sink)
    expect(heard.asked).toEqual([await keyOf(edited)])
    expect(heard.asked[0]).not.toBe(await keyOf(v3))
    expect(heard.sources).toEqual(['scan'])
  })

  it('statistics of another shape (checksum valid) are dropped with a reason; the index is installed', async () => {
    const bad = { json: { ...v3Stats, barcodes: { ...v3Stats.barcodes, top: 'ACGT' } } }
    const known = { ...(await scanForSidecar(new BytesSource(v3, 'v3.rad'))), stats: bad }
    const key = await keyOf(v3)
    const { sink, heard } = cachedSink(new Map([[key, encodeSidecar(known)]]))
    const summary = await scanOrInstall(new BytesSource(v3, 'v3.rad'), undefined, sink)
    expect(heard.sources).toEqual(['cache'])
    expect(summary.stats).toBeUndefined()
    expect(summary.dropped).toEqual([{ section: 'statistics', why: 'json.barcodes.top is a string, not a list' }])
    expect(summary.status).toBe('clean')
  })

  it('a file of the same size with other content misses the cache and is scanned', async () => {
    const known = await scanForSidecar(new BytesSource(v3, 'v3.rad'))
    const { sink, heard } = cachedSink(new Map([[await keyOf(v3), encodeSidecar(known)]]))
    const summary = await scanOrInstall(new BytesSource(p3, 'p3.rad'), undefined, sink)
    expect(heard.asked).toEqual([await keyOf(p3)])
    expect(heard.sources).toEqual(['scan'])
    expect(heard.rejected).toEqual([])
    expect(summary.records).toBe(known.records)
    expect(summary.stats).toBeUndefined()
  })

  it('an entry that fails to decode is dropped with a message, and the file scanned', async () => {
    const key = await keyOf(v3)
    const bytes = encodeSidecar(await scanForSidecar(new BytesSource(v3, 'v3.rad')))
    bytes[70]! ^= 1
    const entries = new Map([[key, bytes]])
    const { sink, heard } = cachedSink(entries)
    const summary = await scanOrInstall(new BytesSource(v3, 'v3.rad'), undefined, sink)
    expect(heard.rejected).toEqual([[key, expect.stringMatching(/^the cached index cannot be used: its checksum/)]])
    expect(entries.size).toBe(0)
    expect(heard.sources).toEqual(['scan'])
    expect(summary.chunks).toBe(4)
  })

  it('an entry whose chunk table runs past the end of the file is dropped, and the file scanned', async () => {
    const known = await scanForSidecar(new BytesSource(v3, 'v3.rad'))
    const last = known.index.count - 1
    known.index.nbytes[last] = known.index.nbytes[last]! + 100
    const key = await keyOf(v3)
    const { sink, heard } = cachedSink(new Map([[key, encodeSidecar(known)]]))
    await scanOrInstall(new BytesSource(v3, 'v3.rad'), undefined, sink)
    expect(heard.rejected[0]?.[1]).toMatch(/chunk table ends at byte .* past the end of v3\.rad/)
    expect(heard.sources).toEqual(['scan'])
  })
})

describe('cacheEntry (a session’s finished index as .rdx bytes)', () => {
  it('encodes the index, verdict, fingerprint and statistics; the statistics survive the JSON', async () => {
    const known = await scanForSidecar(new BytesSource(v3, 'v3.rad'))
    const store = new IndexStore()
    // Two slices, as the index worker streams them.
    const half = (from: number, to: number): ChunkIndex => ({
      count: to - from,
      offset: known.index.offset.slice(from, to),
      nbytes: known.index.nbytes.slice(from, to),
      nrec: known.index.nrec.slice(from, to),
      firstRecord: known.index.firstRecord.slice(from, to),
    })
    store.append(half(0, 1))
    store.append(half(1, known.index.count))
    const opened = { hashed: known.fingerprint, container: 'none' } as OpenedFile
    const summary = {
      status: 'clean',
      cancelled: false,
      convention: known.convention,
      endOffset: known.endOffset,
      alignments: known.verdict.alignments,
      issues: [],
      damagedChunks: [],
      error: undefined,
    } as unknown as ScanSummary
    const report: StatsReport = {
      json: v3Stats,
      curve: {
        rank: Float64Array.of(1, 2),
        count: Float64Array.of(9, 4),
        cumulative: Float64Array.of(9, 13),
        barcodes: 2,
        total: 13,
      },
    }
    const bytes = cacheEntry(opened, store, summary, report)
    const back = decodeSidecar(bytes!)
    expect(back.index).toEqual(known.index)
    expect(back.records).toBe(known.records)
    expect(back.fingerprint).toEqual(known.fingerprint)
    expect(statsFromJson(back.stats)).toEqual(report)
    expect(cacheEntry(opened, store, { ...summary, status: 'incomplete' }, undefined)).toBeUndefined()
  })

  it('statsFromJson refuses what statsToJson did not write', () => {
    expect(statsFromJson(undefined)).toBeUndefined()
    expect(statsFromJson({ curve: {} })).toBeUndefined()
    expect(statsFromJson({ json: {}, curve: { rank: [1], count: [] } })).toBeUndefined()
    expect(statsFromJson(statsToJson({ json: v3Stats, curve: undefined }))).toEqual({ json: v3Stats, curve: undefined })
  })
})
