/** The chunk walk (§4): index, num_chunks rules (§1.4), nbytes conventions (§4.2), empty chunks. */
import { describe, expect, it } from 'vitest'
import { chunkForRecord } from '../../src/rad/chunkIndex'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import type { ScanProgress } from '../../src/io/scanChunks'
import { buildRad, tag } from '../helpers/radWriter'
import type { ChunkSpec, RadSpec } from '../helpers/radWriter'
import { flatRecords, readRad } from '../helpers/read'
import { SC_READS, atacPiscemCpp, salmonScRna } from '../helpers/assays'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'

async function open(bytes: Uint8Array): Promise<Awaited<ReturnType<typeof openRad>>> {
  return openRad(new BytesSource(bytes))
}

/** n chunks of `per` records, record i having b = i. */
function numbered(n: number, per: number): RadSpec {
  const chunks: ChunkSpec[] = []
  let id = 0
  for (let k = 0; k < n; k++) {
    chunks.push({ records: Array.from({ length: per }, () => ({ read: [id++], alns: [[id % 7]] })) })
  }
  return {
    refs: ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6'],
    readTags: [tag('b', 'u32')],
    alnTags: [tag('ref', 'u32')],
    chunks,
  }
}

describe('chunk index', () => {
  for (const blockSize of [8, 100, 4096, 16 << 20]) {
    it(`matches the writer's layout exactly (block size ${blockSize})`, async () => {
      const { bytes, layout } = buildRad(numbered(40, 3))
      const { source, prelude } = await open(bytes)
      const scan = await scanChunks(source, prelude, { blockSize })
      expect(scan.error).toBeUndefined()
      expect(scan.index.count).toBe(40)
      expect(Array.from(scan.index.offset)).toEqual(layout.chunks.map((c) => c.offset))
      expect(Array.from(scan.index.nbytes)).toEqual(layout.chunks.map((c) => c.nbytes))
      expect(Array.from(scan.index.nrec)).toEqual(layout.chunks.map(() => 3))
      expect(Array.from(scan.index.firstRecord)).toEqual(layout.chunks.map((_, k) => 3 * k))
      expect(scan.records).toBe(120)
      expect(scan.endOffset).toBe(bytes.length)
      expect(scan.convention).toBe('header-inclusive')
      expect(scan.warnings).toEqual([])
    })
  }

  // The hot path (scanCleanRun) stops before a damaged chunk and the careful path reports it,
  // wherever the blocks are cut and under both nbytes conventions (§4.2).
  for (const nbytes of ['header-inclusive', 'payload-only'] as const) {
    for (const blockSize of [8, 100, 4096, 16 << 20]) {
      it(`checks every record and reports a damaged chunk alike (${nbytes}, block size ${blockSize})`, async () => {
        const spec = numbered(40, 3)
        const chunks = (spec.chunks ?? []).map((c, k) =>
          k === 17 ? { records: [...(c.records ?? [])].fill({ read: [7], alns: [[1], [99]] }, 1, 2) } : c,
        ) // record 1 of chunk 17 names reference 99 of 7
        const sc: RadSpec = { ...spec, chunks, alnTags: [tag('compressed_ori_refid', 'u32')], nbytes }
        const { bytes, layout } = buildRad(sc)
        const { source, prelude } = await open(bytes)
        const check = makeCheckPlan(prelude, inferSemantics(prelude))
        const scan = await scanChunks(source, prelude, { blockSize, check })
        expect(scan.error).toBeUndefined()
        expect(scan.convention).toBe(nbytes)
        expect(Array.from(scan.index.offset)).toEqual(layout.chunks.map((c) => c.offset))
        expect(scan.damagedChunks).toEqual([17])
        expect(scan.alignments).toBe(117)
        const bad = scan.issues.filter((i) => i.severity === 'error')
        expect(bad.map((i) => [i.chunk, i.message.match(/record \d+/)?.[0]])).toEqual([[17, 'record 1']])
      })
    }
  }

  it('finds the chunk of any record, through empty chunks', async () => {
    const spec = numbered(3, 2)
    const chunks = [{ records: [] }, spec.chunks![0]!, { records: [] }, spec.chunks![1]!, spec.chunks![2]!, {}]
    const r = await readRad(buildRad({ ...spec, chunks }).bytes)
    expect(Array.from(r.scan.index.nrec)).toEqual([0, 2, 0, 2, 2, 0])
    expect([0, 1, 2, 3, 4, 5, 6, -1].map((rec) => chunkForRecord(r.scan.index, rec))).toEqual([
      1, 1, 3, 3, 4, 4, -1, -1,
    ])
  })

  it('indexes more than 1024 chunks (the builder grows) and reports progress', async () => {
    const { bytes } = buildRad(numbered(3000, 1))
    const { source, prelude } = await open(bytes)
    const progress: ScanProgress[] = []
    let indexed = 0
    const scan = await scanChunks(source, prelude, {
      onProgress: (p) => progress.push(p),
      onIndex: (added) => (indexed += added.count),
      progressIntervalMs: 0,
    })
    expect(scan.index.count).toBe(3000)
    expect(indexed).toBe(3000)
    expect(scan.index.firstRecord[2999]).toBe(2999)
    const last = progress.at(-1)
    expect(last).toMatchObject({ bytesScanned: bytes.length, bytesTotal: bytes.length, chunks: 3000, records: 3000 })
  })

  it('pauses while `held` asks, and the index is the same', async () => {
    // 200,000 one-record chunks: long enough a walk (several ms) to pass its yield points.
    const one = buildRad(numbered(1, 1))
    const chunk = one.bytes.subarray(one.layout.chunks[0]!.offset)
    const head = one.bytes.slice(0, one.layout.chunks[0]!.offset)
    const n = 200_000
    const bytes = new Uint8Array(head.length + n * chunk.length)
    bytes.set(head)
    for (let k = 0; k < n; k++) bytes.set(chunk, head.length + k * chunk.length)
    new DataView(bytes.buffer).setBigUint64(one.layout.numChunksOffset, BigInt(n), true)
    const { source, prelude } = await open(bytes)
    let asks = 0
    const held = (): number => (asks++ < 3 ? 20 : 0)
    const scan = await scanChunks(source, prelude, { held })
    expect(scan.error).toBeUndefined()
    expect(scan.index.count).toBe(n)
    expect(asks).toBeGreaterThan(3)
    expect(scan.timing.heldMs).toBeGreaterThanOrEqual(55)
  })

  it('an aborted walk stops and says so (cancelled), keeping what it found: here nothing', async () => {
    const { bytes } = buildRad(numbered(5, 1))
    const { source, prelude } = await open(bytes)
    const controller = new AbortController()
    controller.abort()
    const result = await scanChunks(source, prelude, { signal: controller.signal })
    expect(result).toMatchObject({ cancelled: true, issues: [], error: undefined })
    expect(result.index.count).toBe(0)
  })

  it('onChunk returning true stops the walk quietly after that chunk', async () => {
    const { bytes } = buildRad(numbered(10, 2))
    const { source, prelude } = await open(bytes)
    const seen: number[] = []
    const scan = await scanChunks(source, prelude, {
      onChunk: (_b, _o, k) => {
        seen.push(k)
        return k === 3
      },
    })
    expect(seen).toEqual([0, 1, 2, 3])
    expect(scan.index.count).toBe(4)
    expect(scan.error).toBeUndefined()
    expect(scan.warnings).toEqual([])
  })

  it('onChunk gets each whole chunk together with the nbytes convention', async () => {
    const { bytes, layout } = buildRad({ ...numbered(3, 2), nbytes: 'payload-only' })
    const { source, prelude } = await open(bytes)
    const events: string[] = []
    await scanChunks(source, prelude, {
      onChunk: (b, offset, k, convention) => {
        events.push(`chunk ${k} at ${offset} (${b.length} bytes) ${convention}`)
        expect(Array.from(b)).toEqual(Array.from(bytes.subarray(offset, offset + (layout.chunks[k]?.span ?? 0))))
        return undefined
      },
    })
    expect(events[0]).toBe(`chunk 0 at ${layout.firstChunkOffset} (${layout.chunks[0]?.span} bytes) payload-only`)
    expect(events).toHaveLength(3)
  })
})

describe('num_chunks (§1.4)', () => {
  it('0 means unknown: chunks are read until the end of the file', async () => {
    const r = await readRad(buildRad({ ...salmonScRna(), numChunks: 0 }).bytes)
    expect(r.prelude.numChunks).toBe(0)
    expect(r.scan.index.count).toBe(3)
    expect(flatRecords(r).map((f) => f.record.barcodes[0])).toEqual(SC_READS.map((s) => s.cb))
    expect(r.prelude.warnings.join()).toMatch(/read to the end of the file/)
  })

  it('0 with no chunks at all is an empty, valid file', async () => {
    const r = await readRad(buildRad({ ...salmonScRna(), chunks: [], numChunks: 0 }).bytes)
    expect(r.scan.index.count).toBe(0)
    expect(r.scan.error).toBeUndefined()
  })

  it('fewer than the chunks present: the rest are reported as trailing bytes', async () => {
    const { bytes, layout } = buildRad({ ...numbered(5, 1), numChunks: 2 })
    const r = await readRad(bytes)
    expect(r.scan.index.count).toBe(2)
    expect(r.scan.warnings).toEqual([
      `${bytes.length - (layout.chunks[2]?.offset ?? 0)} trailing bytes after the 2 chunks that num_chunks declares (from byte ${layout.chunks[2]?.offset}); they are ignored`,
    ])
  })

  for (const v2 of [false, true]) {
    it(`num_chunks = 0 followed by a second RAD file (${v2 ? 'v2' : 'legacy'}) is two files, not corruption`, async () => {
      const first = buildRad(numbered(3, 2)).bytes
      const second = buildRad({ ...numbered(2, 1), v2 }).bytes
      const r = await readRad(buildRad({ ...numbered(3, 2), numChunks: 0, trailing: second }).bytes)
      expect(r.scan.error).toBeUndefined()
      expect(r.scan.index.count).toBe(3)
      expect(r.scan.records).toBe(6)
      const issue = r.scan.issues.find((i) => i.kind === 'concatenated')
      expect(issue).toMatchObject({ severity: 'warning', offset: first.length, part: 'after-chunks' })
      expect(issue?.message).toMatch(/num_chunks is 0/)
    })
  }

  it('trailing bytes that start a second RAD file are called a concatenation', async () => {
    const first = buildRad(numbered(2, 1)).bytes
    const second = buildRad({ ...numbered(1, 1), v2: true }).bytes
    const r = await readRad(buildRad({ ...numbered(2, 1), trailing: second }).bytes)
    expect(r.scan.index.count).toBe(2)
    expect(r.scan.warnings.join()).toMatch(new RegExp(`a second RAD file seems to start at byte ${first.length}`))
    expect(r.scan.issues.map((i) => i.kind)).toContain('concatenated')
  })
})

describe('empty chunks and records without alignments', () => {
  it('decode an 8-byte empty chunk anywhere (first, middle, last) to zero records', async () => {
    const spec = salmonScRna()
    const real = spec.chunks ?? []
    const { bytes, layout } = buildRad({ ...spec, chunks: [{}, real[0]!, {}, {}, real[1]!, real[2]!, {}] })
    const r = await readRad(bytes)
    expect(layout.chunks.filter((c) => c.nrec === 0).map((c) => c.nbytes)).toEqual([8, 8, 8, 8])
    expect(r.chunks.map((c) => c.recordCount)).toEqual([0, 2, 0, 0, 2, 1, 0])
    expect(r.chunks[0]?.alnStart).toEqual(Uint32Array.of(0))
    expect(flatRecords(r).map((f) => f.record.umi)).toEqual(SC_READS.map((s) => s.umi))
  })

  it('a chunk of records that all have naln = 0', async () => {
    const recs = Array.from({ length: 4 }, (_, i) => ({ read: [i, i], alns: [] }))
    const r = await readRad(buildRad({ ...salmonScRna(), chunks: [{ records: recs }] }).bytes)
    const c = r.chunks[0]!
    expect([c.recordCount, c.alignmentCount, Array.from(c.alnStart)]).toEqual([4, 0, [0, 0, 0, 0, 0]])
    expect(c.alnColumns[0]?.values).toHaveLength(0)
  })
})

describe('nbytes conventions (§4.2)', () => {
  it('detects payload-only nbytes from chunk 0, walks with it and warns', async () => {
    const spec = numbered(6, 2)
    const inclusive = buildRad(spec)
    const payloadOnly = buildRad({ ...spec, nbytes: 'payload-only' })
    expect(payloadOnly.bytes.length).toBe(inclusive.bytes.length)
    const r = await readRad(payloadOnly.bytes)
    expect(r.scan.convention).toBe('payload-only')
    expect(Array.from(r.scan.index.nbytes)).toEqual(inclusive.layout.chunks.map((c) => c.nbytes - 8))
    expect(Array.from(r.scan.index.offset)).toEqual(inclusive.layout.chunks.map((c) => c.offset))
    expect(r.scan.warnings.join()).toMatch(/payload-only/)
    const plain = await readRad(inclusive.bytes)
    expect(flatRecords(r)).toEqual(flatRecords(plain))
  })

  it('detects payload-only when chunk 0 is empty (nbytes 0)', async () => {
    const spec = atacPiscemCpp('payload-only')
    const r = await readRad(buildRad({ ...spec, chunks: [{}, ...(spec.chunks ?? [])] }).bytes)
    expect(r.scan.convention).toBe('payload-only')
    expect(r.scan.index.nbytes[0]).toBe(0)
    expect(r.chunks.map((c) => c.recordCount)).toEqual([0, 2, 1])
  })

  it('detects payload-only through variable-width records', async () => {
    const spec: RadSpec = {
      readTags: [tag('name', 'string')],
      chunks: [{ records: [{ read: ['a'] }, { read: ['bcd'] }] }, { records: [{ read: ['xyz!'] }] }],
      nbytes: 'payload-only',
    }
    const r = await readRad(buildRad(spec).bytes)
    expect(r.scan.convention).toBe('payload-only')
    expect(r.chunks.map((c) => c.readColumns[0]?.values)).toEqual([['a', 'bcd'], ['xyz!']])
  })

  it('stays header-inclusive when chunk 0 fits neither convention (a broken chunk 0)', async () => {
    const spec = numbered(2, 2)
    const { bytes } = buildRad({ ...spec, chunks: [{ ...spec.chunks![0]!, extra: [1, 2, 3] }, spec.chunks![1]!] })
    const { source, prelude } = await open(bytes)
    const scan = await scanChunks(source, prelude)
    expect(scan.convention).toBe('header-inclusive')
    expect(scan.index.count).toBe(2)
  })
})
