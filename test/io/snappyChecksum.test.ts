/** `.sz` frames carry a masked CRC-32C of their data (framing spec §3, docs/format.md §6.1): every one is checked. */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { crc32c, maskCrc } from '../../src/rad/decode/crc32c'
import { SNAPPY_FRAME_HEADER } from '../../src/rad/decode/snappy'
import { crc32c as bytewiseCrc32c, maskedCrc32c, snappyFrame } from '../helpers/radWriter'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import type { ScanResult } from '../../src/io/scanChunks'
import { RadError } from '../../src/rad/errors'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

describe('CRC-32C (slicing-by-8)', () => {
  it('gives the known check values', () => {
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283)
    expect(crc32c(new Uint8Array(0))).toBe(0)
    // RFC 3720 (iSCSI) appendix B.4.
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa)
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43)
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e)
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c)
  })

  it('agrees with the byte-at-a-time loop at every length and alignment', () => {
    const data = Uint8Array.from({ length: 300 }, (_, i) => (i * 151 + 7) & 0xff)
    for (let start = 0; start < 9; start++) {
      for (let length = 0; start + length <= data.length; length += 13) {
        const piece = data.subarray(start, start + length)
        expect(crc32c(piece)).toBe(bytewiseCrc32c(piece))
        expect(maskCrc(crc32c(piece))).toBe(maskedCrc32c(piece))
      }
    }
  })
})

/** Offsets of each data frame's header in an .sz stream (the stream identifier is 10 bytes). */
function dataFrames(sz: Uint8Array): { at: number; type: number; length: number }[] {
  const view = new DataView(sz.buffer, sz.byteOffset, sz.byteLength)
  const frames: { at: number; type: number; length: number }[] = []
  for (let at = 0; at < sz.length;) {
    const word = view.getUint32(at, true)
    const type = word & 0xff
    const length = word >>> 8
    if (type <= 1) frames.push({ at, type, length })
    at += SNAPPY_FRAME_HEADER + length
  }
  return frames
}

/** The integrity pass the CLI and the page run: every chunk walked and its records checked. */
async function scanOf(bytes: Uint8Array): Promise<ScanResult> {
  const { source, prelude } = await openRad(new BytesSource(bytes, 'test.rad.sz'))
  return scanChunks(source, prelude, { check: makeCheckPlan(prelude, inferSemantics(prelude)) })
}

const real = new Uint8Array(readFileSync(SALMON_V3))

function flipped(bytes: Uint8Array, at: number): Uint8Array {
  const copy = bytes.slice()
  copy[at] = (copy[at] ?? 0) ^ 0x10
  return copy
}

describe('.sz checksums', () => {
  const sz = snappyFrame(real)
  const frames = dataFrames(sz)
  const third = frames[2]
  if (!third) throw new Error('the fixture spans fewer than 3 frames')

  it('a clean .sz of the real salmon file has no issue', async () => {
    const scan = await scanOf(sz)
    expect(scan.issues.map((i) => i.kind)).toEqual(['note'])
  })

  it('a flipped CRC field is an error at the frame, in both coordinates, and spoils the chunks it holds', async () => {
    const scan = await scanOf(flipped(sz, third.at + SNAPPY_FRAME_HEADER))
    const bad = scan.issues.filter((i) => i.kind === 'checksum-mismatch')
    expect(bad).toHaveLength(1)
    const issue = bad[0]
    expect(issue).toMatchObject({ severity: 'error', offset: 2 * 65536, containerOffset: third.at })
    expect(issue?.message).toMatch(
      new RegExp(`Snappy frame at byte ${third.at.toLocaleString('en-US')} of the .sz file \\(bytes 131,072–196,608`),
    )
    // The chunks whose bytes lie in the frame are damaged; the first of them is named.
    const { index } = scan
    const inFrame = Array.from(index.offset).flatMap((offset, k) => {
      const end = k + 1 < index.count ? (index.offset[k + 1] ?? 0) : scan.endOffset
      return end > 2 * 65536 && offset < 3 * 65536 ? [k] : []
    })
    expect(inFrame.length).toBeGreaterThan(0)
    expect(issue?.chunk).toBe(inFrame[0])
    expect(scan.damagedChunks).toEqual(inFrame)
    // The data itself was right: every record still reads.
    expect(scan.records).toBe((await scanOf(real)).records)
  })

  it('a flipped data byte in an uncompressed frame is caught', async () => {
    const raw = snappyFrame(real, { mode: 'uncompressed' })
    const frame = dataFrames(raw)[1]
    if (!frame) throw new Error('no second frame')
    const scan = await scanOf(flipped(raw, frame.at + SNAPPY_FRAME_HEADER + 4 + 30_000))
    expect(scan.issues.find((i) => i.kind === 'checksum-mismatch')).toMatchObject({
      offset: 65536,
      containerOffset: frame.at,
    })
  })

  it('no byte flipped inside a compressed frame passes as clean', async () => {
    const body = third.at + SNAPPY_FRAME_HEADER + 4
    for (let k = 0; k < 12; k++) {
      const at = body + Math.floor((k * (third.length - 5)) / 12)
      // Either the frame no longer decodes (an error on opening, or in the walk), or its checksum fails.
      const scan = await scanOf(flipped(sz, at)).catch((e: unknown) => {
        if (e instanceof RadError) return undefined
        throw e
      })
      const errors = scan?.issues.filter((i) => i.severity === 'error') ?? ['thrown']
      expect(errors.length, `flip at byte ${String(at)}`).toBeGreaterThan(0)
    }
  })

  it('the CLI: validate exits 1 and names both offsets; info lists the issue', async () => {
    const path = dir.write('crc.rad.sz', flipped(sz, third.at + SNAPPY_FRAME_HEADER + 1))
    const v = await runCli(['validate', path])
    expect(v.code).toBe(1)
    expect(v.stdout).toBe('')
    expect(v.stderr).toMatch(/^error at byte 131072 \(chunk \d+\): the Snappy frame at byte [\d,]+ of the \.sz file/m)
    expect(v.stderr).toContain('fails its checksum')
    const i = await runCli(['info', path])
    expect(i.code).toBe(1)
    const info = JSON.parse(i.stdout) as { integrity: string; issues: { kind: string; containerOffset: number }[] }
    expect(info.integrity).toBe('damaged')
    expect(info.issues.find((x) => x.kind === 'checksum-mismatch')?.containerOffset).toBe(third.at)
    // salvage leaves out the chunks the frame holds, and what it writes is clean.
    const s = await runCli(['salvage', path, dir.path('saved.rad')])
    expect(s.code, s.stderr).toBe(0)
    expect(s.stdout).toMatch(/; dropped damaged chunks 1 \(1 problem in the input\)\n$/)
    expect((await runCli(['validate', dir.path('saved.rad')])).code).toBe(0)
  })
})
