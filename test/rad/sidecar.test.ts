import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { takeHashedFingerprint } from '../../src/io/fileFingerprint'
import { scanForSidecar } from '../../src/io/sidecarIndex'
import { crc32c } from '../../src/rad/decode/crc32c'
import {
  SIDECAR_ENTRY_BYTES,
  SIDECAR_HEADER_BYTES,
  SIDECAR_MAGIC,
  SIDECAR_VERSION,
  SidecarError,
  assertSidecarMatches,
  decodeSidecar,
  encodeSidecar,
} from '../../src/rad/sidecar/sidecar'
import type { KnownIndex } from '../../src/rad/sidecar/sidecar'
import { SALMON_V2, SALMON_V3 } from '../helpers/fixtures'
import { buildRad } from '../helpers/radWriter'
import { salmonScRna } from '../helpers/assays'

const v3 = new Uint8Array(readFileSync(SALMON_V3))

function known(bytes: Uint8Array = v3): Promise<KnownIndex> {
  return scanForSidecar(new BytesSource(bytes, 'map.rad'))
}

/** Re-seals bytes after an edit, so a test reaches the check behind the checksum. */
function reseal(bytes: Uint8Array): Uint8Array {
  new DataView(bytes.buffer).setUint32(12, crc32c(bytes.subarray(16)), true)
  return bytes
}

function rejects(bytes: Uint8Array, message: RegExp): void {
  let thrown: unknown
  try {
    decodeSidecar(bytes)
  } catch (e) {
    thrown = e
  }
  expect(thrown).toBeInstanceOf(SidecarError)
  expect((thrown as SidecarError).reason).toBe('unreadable')
  expect((thrown as SidecarError).message).toMatch(message)
}

describe('.rdx sidecar format', () => {
  it('round-trips a real file: chunk table, convention, fingerprint and verdict', async () => {
    const k = await known()
    const bytes = encodeSidecar(k)
    expect(bytes.subarray(0, 8)).toEqual(SIDECAR_MAGIC)
    expect(bytes.length).toBeGreaterThanOrEqual(SIDECAR_HEADER_BYTES + k.index.count * SIDECAR_ENTRY_BYTES + 8)
    const back = decodeSidecar(bytes)
    expect(back).toEqual({ ...k, dropped: [] })
    expect(back.index.count).toBe(4)
    expect(back.records).toBe(18_949)
    expect(back.verdict?.status).toBe('clean')
    expect(back.fingerprint).toEqual(await takeHashedFingerprint(new BytesSource(v3)))
  })

  it('keeps offsets beyond 4 GiB exact, and a statistics section when there is one', async () => {
    const k = await known()
    const far = 2 ** 40 + 7
    k.index.offset[3] = far
    k.fingerprint.size = 2 ** 41 + 1
    k.stats = { records: 18_949, knee: [1, 2, 3] }
    const back = decodeSidecar(encodeSidecar(k))
    expect(back.index.offset[3]).toBe(far)
    expect(back.fingerprint.size).toBe(2 ** 41 + 1)
    expect(back.stats).toEqual(k.stats)
  })

  it('records a damaged file’s verdict, issues and damaged chunks', async () => {
    const { bytes, layout } = buildRad({
      ...salmonScRna(),
      chunks: [{ records: [{ read: [1, 2], alns: [[0]] }] }, { records: [{ read: [3, 4], alns: [[99]] }] }],
    })
    expect(layout.chunks).toHaveLength(2)
    const k = await known(bytes)
    expect(k.verdict.status).toBe('damaged')
    const back = decodeSidecar(encodeSidecar(k))
    expect(back.verdict).toEqual(k.verdict)
    expect(back.verdict?.damagedChunks).toEqual([1])
  })

  it('rejects a sidecar whose checksum does not match (one flipped bit anywhere after the checksum)', async () => {
    const bytes = encodeSidecar(await known())
    for (const at of [16, SIDECAR_HEADER_BYTES + 5, bytes.length - 1]) {
      const bad = bytes.slice()
      bad[at]! ^= 1
      rejects(bad, /checksum does not match/)
    }
    rejects(bytes.slice(0, bytes.length - 3), /checksum does not match/)
  })

  it('rejects another version, naming both, and files that are not .rdx', async () => {
    const bytes = encodeSidecar(await known())
    const newer = bytes.slice()
    new DataView(newer.buffer).setUint32(8, SIDECAR_VERSION + 1, true)
    rejects(newer, /format version 2, this viewer reads version 1 \(written by a newer viewer/)
    rejects(v3.slice(0, 200), /not a \.rdx file/)
    rejects(new Uint8Array(0), /not a \.rdx file/)
    rejects(bytes.slice(0, 40), /cut short/)
  })

  it('rejects an inconsistent chunk table even with a valid checksum', async () => {
    const bytes = encodeSidecar(await known())
    const view = new DataView(bytes.buffer)
    // Chunk 2's first record no longer the running sum of nrec.
    view.setUint32(SIDECAR_HEADER_BYTES + 2 * SIDECAR_ENTRY_BYTES + 16, 5, true)
    rejects(reseal(bytes), /chunk table is inconsistent at chunk 2/)
    const huge = encodeSidecar(await known())
    new DataView(huge.buffer).setUint32(40, 1_000_000, true)
    rejects(reseal(huge), /runs past its end/)
  })

  it('refuses a sidecar written for another file, naming what differs', async () => {
    const k = await known()
    const v2 = new Uint8Array(readFileSync(SALMON_V2))
    const check = async (file: Uint8Array): Promise<SidecarError> => {
      const f = await takeHashedFingerprint(new BytesSource(file))
      try {
        assertSidecarMatches(k, f, 'other.rad')
      } catch (e) {
        expect(e).toBeInstanceOf(SidecarError)
        return e as SidecarError
      }
      throw new Error('the sidecar was accepted')
    }
    const other = await check(v2)
    expect(other.reason).toBe('mismatch')
    expect(other.message).toMatch(/written for another file than other\.rad; its size: the file has [\d,]+ bytes/)
    // Same size, one byte changed at the end: the last 64 KiB differ.
    const edited = v3.slice()
    edited[edited.length - 1]! ^= 0xff
    expect((await check(edited)).message).toMatch(/the last 64 KiB differ/)
    const both = v3.slice()
    both[10]! ^= 1
    both[both.length - 10]! ^= 1
    expect((await check(both)).message).toMatch(/the first and last 64 KiB differ/)
    // The same file passes.
    assertSidecarMatches(k, await takeHashedFingerprint(new BytesSource(v3)), 'map.rad')
  })

  it('drops a verdict section of another shape (checksum valid), naming what is wrong, and keeps the chunk table', async () => {
    const k = await known()
    const crafted = (issues: unknown, damagedChunks: unknown = []): ReturnType<typeof decodeSidecar> =>
      decodeSidecar(encodeSidecar({ ...k, verdict: { ...k.verdict, issues, damagedChunks } as KnownIndex['verdict'] }))
    const numeric = crafted([{ kind: 'note', severity: 'info', message: 42 }])
    expect(numeric.verdict).toBeUndefined()
    expect(numeric.dropped).toEqual([{ section: 'verdict', why: 'issues[0].message is a number, not a string' }])
    expect(numeric.index).toEqual(k.index)
    expect(crafted([{ kind: 'meltdown', severity: 'info', message: 'x' }]).dropped[0]?.why).toMatch(
      /^issues\[0\]\.kind is not one of not-rad, /,
    )
    expect(crafted([], ['3']).dropped[0]?.why).toBe('damagedChunks[0] is a string, not a number')
    expect(crafted({}).dropped[0]?.why).toBe('issues is an object, not a list')
    // The real thing passes untouched.
    const back = decodeSidecar(encodeSidecar(k))
    expect(back.dropped).toEqual([])
    expect(back.verdict).toEqual(k.verdict)
  })

  it('drops an empty verdict section rather than the whole sidecar', async () => {
    const bytes = encodeSidecar(await known())
    const view = new DataView(bytes.buffer)
    const tableEnd = SIDECAR_HEADER_BYTES + view.getUint32(40, true) * SIDECAR_ENTRY_BYTES
    const length = view.getUint32(tableEnd, true)
    // The verdict's bytes taken out, its length set to 0, the statistics section after it kept.
    const out = new Uint8Array(bytes.length - length)
    out.set(bytes.subarray(0, tableEnd))
    out.set(bytes.subarray(tableEnd + 4 + length), tableEnd + 4)
    const back = decodeSidecar(reseal(out))
    expect(back.verdict).toBeUndefined()
    expect(back.dropped).toEqual([{ section: 'verdict', why: 'it is empty' }])
  })
})
