import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { HttpSource } from '../../src/io/httpSource'
import { scanForSidecar } from '../../src/io/sidecarIndex'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { chunkForRecord } from '../../src/rad/chunkIndex'
import type { ChunkIndex } from '../../src/rad/chunkIndex'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { encodeSidecar } from '../../src/rad/sidecar/sidecar'
import type { KnownIndex } from '../../src/rad/sidecar/sidecar'
import { scanOrInstall } from '../../src/workers/knownIndex'
import type { KnownIndexSink } from '../../src/workers/knownIndex'
import type { IndexSource } from '../../src/workers/protocol'
import { sidecarOf, sidecarUrlOf } from '../../src/io/sidecarBeside'
import { SALMON_V2 } from '../helpers/fixtures'
import { repeatedFixture } from '../helpers/repeatedFixture'
import { startRangeServer } from '../helpers/rangeServer'
import type { RangeServer } from '../helpers/rangeServer'

/**
 * Opening a URL fetches `URL.rdx` beside it (docs/sidecar.md): a matching sidecar is installed and
 * the server sends the prelude and the chunks read, not the file; without one, or with one of
 * another file, the file is scanned. Bytes are counted where they are sent: at the server.
 */
const COPIES = 100
const big = repeatedFixture(COPIES)
let known: KnownIndex
let server: RangeServer

beforeAll(async () => {
  known = await scanForSidecar(new BytesSource(big, 'big.rad'))
  const other = await scanForSidecar(new BytesSource(new Uint8Array(readFileSync(SALMON_V2)), 'v2.rad'))
  server = await startRangeServer({
    '/runs/big.rad': big,
    '/runs/big.rad.rdx': encodeSidecar(known),
    '/runs/bare.rad': big,
    '/runs/wrong.rad': big,
    '/runs/wrong.rad.rdx': encodeSidecar(other),
  })
})

afterAll(async () => {
  await server.close()
})

/** Bytes the server sent for `path` (206 spans and whole bodies). */
function bytesServed(path: string, size: number): number {
  let n = 0
  for (const r of server.requests) {
    if (r.path !== path || r.method !== 'GET') continue
    const m = r.range ? /^bytes=(\d+)-(\d*)$/.exec(r.range) : null
    if (!m) n += size
    else n += Math.min(size, m[2] === '' ? size : Number(m[2]) + 1) - Number(m[1])
  }
  return n
}

function sink(): { sink: KnownIndexSink; sources: [IndexSource, string | undefined][]; chunks: () => number } {
  const sources: [IndexSource, string | undefined][] = []
  const parts: ChunkIndex[] = []
  return {
    sources,
    chunks: () => parts.reduce((n, p) => n + p.count, 0),
    sink: {
      indexSource: (source, rejected) => sources.push([source, rejected]),
      opened: () => undefined,
      first: (index) => parts.push(index),
      index: (added) => parts.push(added),
      progress: () => undefined,
    },
  }
}

/** Opens `path` as the index worker does: the file and the sidecar beside it, then installs or scans. */
async function openUrl(path: string) {
  const url = server.url(path)
  const spec = { kind: 'url' as const, url }
  const sidecar = sidecarOf(spec, undefined)
  const source = await HttpSource.open(url)
  const heard = sink()
  const summary = await scanOrInstall(source, await sidecar, heard.sink)
  return { source, summary, ...heard }
}

/** The chunk holding `record`, read and decoded as a decode worker does. */
async function decodeRecord(source: HttpSource, record: number): Promise<number> {
  const prelude = parsePrelude(await source.read(0, 1 << 16), source.size)
  const k = chunkForRecord(known.index, record)
  const offset = known.index.offset[k]!
  const cols = decodeChunk(
    await source.read(offset, chunkSpan(known.index.nbytes[k]!, known.convention)),
    offset,
    k,
    prelude,
    known.convention,
  )
  return cols.recordCount
}

describe('the sidecar beside a URL', () => {
  it('is the same address with .rdx on its path, query kept, fragment dropped', () => {
    expect(sidecarUrlOf('https://h.example/runs/map.rad?sig=1#record=5')).toBe(
      'https://h.example/runs/map.rad.rdx?sig=1',
    )
  })

  it('a matching one is installed: the last record decodes after the prelude and a few blocks, not the file', async () => {
    const { source, summary, sources, chunks } = await openUrl('/runs/big.rad')
    expect(sources).toEqual([['sidecar', undefined]])
    expect(chunks()).toBe(known.index.count)
    expect(summary).toMatchObject({ chunks: 4 * COPIES, records: known.records, status: 'clean' })
    expect(await decodeRecord(source, known.records - 1)).toBeGreaterThan(0)
    const served = bytesServed('/runs/big.rad', big.length)
    console.warn(`sidecar beside a URL: ${String(served)} of ${String(big.length)} bytes read`)
    // The opening GET (1.25 MiB), the fingerprint's last 64 KiB block and the last chunk's: bounded, whatever the file's size.
    expect(served).toBeLessThan(2.5 * 2 ** 20)
    expect(served / big.length).toBeLessThan(0.1)
    const rdx = server.requests.filter((r) => r.path === '/runs/big.rad.rdx')
    expect(rdx.map((r) => [r.method, r.range])).toEqual([['GET', undefined]])
  })

  it('none there (404): the file is scanned, and nothing is said', async () => {
    const { summary, sources } = await openUrl('/runs/bare.rad')
    expect(sources).toEqual([['scan', undefined]])
    expect(summary.records).toBe(known.records)
    expect(bytesServed('/runs/bare.rad', big.length)).toBeGreaterThanOrEqual(big.length)
  })

  it('one of another file is rejected with a message, and the file is scanned', async () => {
    const { summary, sources } = await openUrl('/runs/wrong.rad')
    expect(sources).toHaveLength(1)
    expect(sources[0]?.[0]).toBe('scan')
    expect(sources[0]?.[1]).toMatch(/written for another file/)
    expect(summary.records).toBe(known.records)
    expect(bytesServed('/runs/wrong.rad', big.length)).toBeGreaterThanOrEqual(big.length)
  })

  it('a stalled one never blocks opening: given up after the wait, and the file is scanned', async () => {
    // The .rdx request gets headers and 10 bytes, then nothing (ADR 0005, "When a read fails"); the file itself is served.
    const stalling = await startRangeServer(
      { '/runs/big.rad': big, '/runs/big.rad.rdx': encodeSidecar(known) },
      { fault: { kind: 'stall', afterBytes: 10 }, faultPath: '/runs/big.rad.rdx' },
    )
    try {
      const spec = { kind: 'url' as const, url: stalling.url('/runs/big.rad'), timeouts: { sidecarMs: 200 } }
      const t0 = Date.now()
      expect(await sidecarOf(spec, undefined)).toBeUndefined()
      expect(Date.now() - t0).toBeLessThan(2000)
      // Silent from the start: the same.
      const silent = await startRangeServer({}, { fault: { kind: 'silent' } })
      try {
        expect(await sidecarOf({ ...spec, url: silent.url('/x.rad') }, undefined)).toBeUndefined()
      } finally {
        await silent.close()
      }
    } finally {
      await stalling.close()
    }
  })

  it('an unreachable server means no sidecar, without an error', async () => {
    const spec = { kind: 'url' as const, url: 'http://127.0.0.1:9/runs/map.rad' }
    expect(await sidecarOf(spec, undefined)).toBeUndefined()
  })

  it("a host's HTML page for an unknown path (vite preview, single-page hosts) is no sidecar, and nothing is said", async () => {
    const html = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      res.end('<!doctype html><title>RAD Viewer</title>')
    })
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve))
    try {
      const { port } = html.address() as AddressInfo
      expect(await sidecarOf({ kind: 'url', url: `http://127.0.0.1:${String(port)}/sample.rad` }, undefined)).toBe(
        undefined,
      )
    } finally {
      await new Promise((resolve) => html.close(resolve))
    }
  })
})
