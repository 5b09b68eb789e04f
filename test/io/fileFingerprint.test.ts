import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import {
  FINGERPRINT_BYTES,
  SAMPLE_BLOCKS,
  SAMPLE_BLOCK_BYTES,
  confirmUnchanged,
  contentSample,
  sampleBlocks,
  takeFingerprint,
} from '../../src/io/fileFingerprint'
import { SC_READS, salmonScRna } from '../helpers/assays'
import { ChangingFile } from '../helpers/changingFile'
import { expectRadErrorAsync } from '../helpers/read'
import { radBytes } from '../helpers/radWriter'

const bytes = radBytes(
  salmonScRna(
    Array.from({ length: 600 }, (_, i) => SC_READS[i % SC_READS.length]!),
    2,
  ),
)

describe('takeFingerprint / confirmUnchanged (docs/integrity.md)', () => {
  it('keeps the size and FINGERPRINT_BYTES at each end; an unchanged file passes', async () => {
    expect(bytes.length).toBeGreaterThan(3 * FINGERPRINT_BYTES)
    const file = new ChangingFile(bytes, { failReads: false })
    const fp = await takeFingerprint(file)
    expect(fp.size).toBe(bytes.length)
    expect(fp.head).toEqual(bytes.subarray(0, FINGERPRINT_BYTES))
    expect(fp.tail).toEqual(bytes.subarray(bytes.length - FINGERPRINT_BYTES))
    await expect(confirmUnchanged(file, fp)).resolves.toBeUndefined()
  })

  it('a file smaller than the fingerprint: both ends are the whole file', async () => {
    const small = new BytesSource(bytes.slice(0, 100))
    const fp = await takeFingerprint(small)
    expect([fp.head.length, fp.tail.length]).toEqual([100, 100])
    await expect(confirmUnchanged(small, fp)).resolves.toBeUndefined()
  })

  it('other bytes at the start or at the end: FILE_CHANGED', async () => {
    for (const at of [10, bytes.length - 10]) {
      const file = new ChangingFile(bytes, { failReads: false })
      const fp = await takeFingerprint(file)
      file.overwrite(at, new Uint8Array([bytes[at]! ^ 0xff]))
      await expectRadErrorAsync(confirmUnchanged(file, fp), { code: 'FILE_CHANGED', message: /first or last bytes/ })
    }
  })

  it('truncated (the end reads short) or deleted: FILE_CHANGED', async () => {
    for (const change of [
      (f: ChangingFile) => {
        f.truncate(1000)
      },
      (f: ChangingFile) => {
        f.delete()
      },
    ]) {
      const file = new ChangingFile(bytes, { failReads: false })
      const fp = await takeFingerprint(file)
      change(file)
      await expectRadErrorAsync(confirmUnchanged(file, fp), { code: 'FILE_CHANGED' })
    }
  })

  it('a file whose reads now fail (a browser File changed on disk): FILE_CHANGED, saying why', async () => {
    const file = new ChangingFile(bytes, { failReads: true })
    const fp = await takeFingerprint(file)
    file.overwrite(5000, new Uint8Array(4096))
    await expectRadErrorAsync(confirmUnchanged(file, fp), { code: 'FILE_CHANGED', message: /can no longer be read/ })
  })

  it('a source of another size: FILE_CHANGED without a read', async () => {
    const fp = await takeFingerprint(new BytesSource(bytes))
    await expectRadErrorAsync(confirmUnchanged(new BytesSource(bytes.slice(0, -1)), fp), {
      code: 'FILE_CHANGED',
      message: /size/,
    })
  })
})

describe('contentSample (the index cache key, ADR 0007)', () => {
  const big = new Uint8Array(1 << 20).map((_, i) => (i * 7919) % 251)

  it('reads 16 blocks of 4 KiB spread evenly between the two 64 KiB ends', () => {
    const blocks = sampleBlocks(big.length)
    expect(blocks).toHaveLength(SAMPLE_BLOCKS)
    expect(blocks[0]).toEqual([64 << 10, SAMPLE_BLOCK_BYTES])
    expect(blocks.at(-1)).toEqual([big.length - (64 << 10) - SAMPLE_BLOCK_BYTES, SAMPLE_BLOCK_BYTES])
    // A middle no larger than the blocks is read whole; a file of two ends has no middle.
    expect(sampleBlocks(128 << 10)).toEqual([])
    expect(sampleBlocks((128 << 10) + 100)).toEqual([[64 << 10, 100]])
  })

  it('changes with a byte inside a sampled block, not with one between blocks', async () => {
    const before = await contentSample(new BytesSource(big))
    const [start] = sampleBlocks(big.length)[7]!
    const inside = big.slice()
    inside[start + 10]! ^= 1
    expect(await contentSample(new BytesSource(inside))).not.toBe(before)
    const between = big.slice()
    between[start + SAMPLE_BLOCK_BYTES + 10]! ^= 1
    expect(await contentSample(new BytesSource(between))).toBe(before)
    expect(before).toMatch(/^[0-9a-f]{8}$/)
  })
})
