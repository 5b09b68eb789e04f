import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { FINGERPRINT_BYTES, takeFingerprint, takeHashedFingerprint } from '../../src/io/fileFingerprint'
import { fingerprintKey } from '../../src/rad/sidecar/sidecar'
import { SALMON_V3, SALMON_V3_P3 } from '../helpers/fixtures'

const SAMPLE = new Uint8Array(readFileSync('public/sample.rad'))

async function keyOf(bytes: Uint8Array): Promise<string> {
  return fingerprintKey(await takeHashedFingerprint(new BytesSource(bytes, 'f.rad')))
}

describe('fingerprintKey (deep links, the index cache, recent files: the sidecar fingerprint)', () => {
  it('is SIZE-HASH, the same for the same bytes', async () => {
    const key = await keyOf(SAMPLE)
    expect(key).toMatch(new RegExp(`^${String(SAMPLE.length)}-[0-9a-f]{16}$`))
    expect(await keyOf(SAMPLE.slice())).toBe(key)
  })

  it('changes when either end or the size changes', async () => {
    const key = await keyOf(SAMPLE)
    const head = SAMPLE.slice()
    head[10] = (head[10] ?? 0) ^ 1
    const tail = SAMPLE.slice()
    tail[tail.length - 1] = (tail[tail.length - 1] ?? 0) ^ 1
    expect(await keyOf(head)).not.toBe(key)
    expect(await keyOf(tail)).not.toBe(key)
    expect(await keyOf(SAMPLE.subarray(0, SAMPLE.length - 1))).not.toBe(key)
  })

  it('tells apart two salmon runs of the same size whose first and last 4 KiB are the same', async () => {
    const a = new Uint8Array(readFileSync(SALMON_V3))
    const b = new Uint8Array(readFileSync(SALMON_V3_P3))
    expect(a.length).toBe(b.length)
    // The 4 KiB ends the page re-checks for a changed file cannot tell them apart…
    const endsA = await takeFingerprint(new BytesSource(a, 'a.rad'))
    const endsB = await takeFingerprint(new BytesSource(b, 'b.rad'))
    expect(endsA.head.length).toBe(FINGERPRINT_BYTES)
    expect(endsA.head).toEqual(endsB.head)
    expect(endsA.tail).toEqual(endsB.tail)
    // …the key, over 64 KiB ends, can.
    expect(await keyOf(a)).not.toBe(await keyOf(b))
  })
})
