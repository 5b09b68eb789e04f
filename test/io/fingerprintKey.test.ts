import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { takeFingerprint } from '../../src/io/fileFingerprint'
import { fingerprintKey } from '../../src/io/fingerprintKey'

const SAMPLE = new Uint8Array(readFileSync('public/sample.rad'))

async function keyOf(bytes: Uint8Array): Promise<string> {
  return fingerprintKey(await takeFingerprint(new BytesSource(bytes, 'f.rad')))
}

describe('fingerprintKey', () => {
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
})
