/**
 * Damaged data is never laundered (docs/integrity.md): a .sz frame failing its
 * checksum is damage for every command, salvage's output validates clean or
 * salvage says why not, and record numbers count every record a chunk header
 * declares, damaged chunks included.
 */
import { existsSync, readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { exportSelection } from '../../src/io/exportSelection'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { MemorySink } from '../helpers/memorySink'
import { loadZstd, snappyFrame } from '../helpers/radWriter'
import { salvageCases } from '../helpers/salvageCases'

await loadZstd()
const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

const real = new Uint8Array(readFileSync(SALMON_V3))
/** Uncompressed 64 KiB frames: a flipped data byte still decodes, and only its CRC-32C tells. */
const sz = snappyFrame(real, { mode: 'uncompressed' })
const FIRST_FRAME_DATA = 10 + 4 + 4
const FRAME = 4 + 4 + 65536

function flippedAt(unwrapped: number): Uint8Array {
  const frame = Math.floor(unwrapped / 65536)
  const copy = sz.slice()
  const at = FIRST_FRAME_DATA + frame * FRAME + (unwrapped % 65536)
  copy[at] = (copy[at] ?? 0) ^ 0x10
  return copy
}

/** validate's error lines for the checksum. */
async function checksumLine(path: string): Promise<string> {
  const v = await runCli(['validate', path])
  expect(v.code).toBe(1)
  const line = v.stderr.split('\n').find((l) => l.includes('fails its checksum'))
  expect(line).toBeDefined()
  return line ?? ''
}

describe.concurrent('a .sz frame failing its checksum', () => {
  const prelude = parsePrelude(real, real.length)

  it('in a chunk: salvage drops what it covers, subset and export refuse with validate’s message', async () => {
    const path = dir.write('mid.rad.sz', flippedAt(65536 + 30_000))
    const line = await checksumLine(path)
    const s = await runCli(['salvage', path, dir.path('mid-salvaged.rad')])
    expect(s.code, s.stderr).toBe(0)
    expect(s.stdout).toMatch(/; dropped damaged chunks 0, 1 \(2 problems in the input\)\n$/)
    expect((await runCli(['validate', dir.path('mid-salvaged.rad')])).code).toBe(0)
    for (const command of [
      ['subset', path, dir.path('mid-subset.rad')],
      ['export', path, dir.path('mid-export.tsv')],
    ]) {
      const r = await runCli(command)
      expect(r.code).toBe(1)
      expect(r.stderr).toBe(`${line}\n`)
      expect(existsSync(command[2] ?? '')).toBe(false)
    }
  })

  it('a selection that reads no damaged frame is exported', async () => {
    const path = dir.write('end.rad.sz', flippedAt(real.length - 20))
    const r = await runCli(['subset', path, dir.path('end-subset.rad'), '--chunks', '0-0'])
    expect(r.code, r.stderr).toBe(0)
    expect((await runCli(['validate', dir.path('end-subset.rad')])).code).toBe(0)
  })

  it('in the header: salvage refuses, since no chunk can stand in for the reference names', async () => {
    const path = dir.write('head.rad.sz', flippedAt(prelude.firstChunkOffset - 100))
    const s = await runCli(['salvage', path, dir.path('head-salvaged.rad')])
    expect(s.code).toBe(1)
    expect(s.stderr).toMatch(
      /^error at byte 0: nothing to salvage: the header \(bytes 0–[\d,]+\) lies in a damaged frame, so its reference names and tag schema may be wrong .*fails its checksum/,
    )
    expect(existsSync(dir.path('head-salvaged.rad'))).toBe(false)
    expect((await runCli(['subset', path, dir.path('head-subset.rad'), '--chunks', '0-0'])).code).toBe(1)
  })

  it('the page’s export (an index in hand) refuses too', async () => {
    const { source, prelude: p } = await openRad(new BytesSource(flippedAt(65536 + 30_000), 'mid.rad.sz'))
    const scan = await scanChunks(source, p)
    const sink = new MemorySink()
    await expect(
      exportSelection('tsv', source, p, {}, sink, { known: { index: scan.index, convention: scan.convention } }),
    ).rejects.toThrow(/fails its checksum/)
  })
})

describe.concurrent('salvage’s output validates clean, or salvage says why', () => {
  it('a header declaring a length its type cannot hold: written, exit 2, the warning and why it stays', async () => {
    const bytes = real.slice()
    const at = prelude().fileTagValueOffsets[prelude().fileTags.findIndex((t) => t.name === 'ulen')] ?? -1
    new DataView(bytes.buffer).setUint16(at, 40, true)
    const input = dir.write('ulen40.rad', bytes)
    const r = await runCli(['salvage', input, dir.path('ulen40-salvaged.rad')])
    expect(r.code).toBe(2)
    expect(r.stdout).toMatch(/^wrote .*: 4 chunks, 18949 records/)
    expect(r.stderr).toMatch(new RegExp(`^warning at byte ${String(at)}: tag "u" is a u32, which holds at most 16 nt`))
    expect(r.stderr).toMatch(/note: .* keeps this warning of the header, which salvage copies unchanged/)
    expect((await runCli(['validate', dir.path('ulen40-salvaged.rad')])).code).toBe(2)
  })

  function prelude(): ReturnType<typeof parsePrelude> {
    return parsePrelude(real, real.length)
  }
})

describe.concurrent('record numbers count every record a chunk header declares, damaged chunks included', () => {
  const cases = salvageCases().filter(
    (c) => c.name.startsWith('an lz4 file whose middle chunk') || c.name.startsWith('corrupt chunks 1 and 3'),
  )

  it.each(cases)('view on $name', async (c) => {
    const path = dir.write(`${c.name.replace(/\W+/g, '-')}.rad`, c.input)
    const r = await runCli(['view', path])
    expect(r.code).toBe(1)
    const ids = new Set(r.stdout.split('\n').flatMap((l) => /^ID:(\d+)\t/.exec(l)?.[1] ?? []))
    // The chunks' first record numbers, from the headers (the page's numbering).
    const firsts: number[] = []
    let n = 0
    for (const chunk of c.chunks) {
      firsts.push(n)
      n += chunk.nrec
    }
    // view shows every chunk that decodes (a bad reference id decodes; an lz4 block that fails does not).
    const undecodable = c.name.startsWith('an lz4') ? c.dropped : [3]
    firsts.forEach((first, k) => {
      expect(ids.has(String(first)), `chunk ${String(k)}, record ${String(first)}`).toBe(!undecodable.includes(k))
    })
  })
})
