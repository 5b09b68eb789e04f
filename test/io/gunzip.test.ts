/**
 * Annotation files opened in the page (src/io/gunzip.ts, issue 36 §3): gunzipped as a stream by the
 * platform's DecompressionStream, only the first bytes read ahead to tell the kind, the rest as the
 * parser takes them; a damaged stream named as one (Chromium's own words were "Failed to fetch").
 */
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { openAnnotation } from '../../src/io/gunzip'
import { readPermitList, SNIFF_BYTES } from '../../src/rad/cells'
import type { AnnotationStream } from '../../src/rad/cells'

const text = new TextEncoder().encode('AAACCCAAGAAACACT\nAAACCCAAGAAACCAT\n')

async function whole(file: AnnotationStream): Promise<Uint8Array> {
  const pieces: Uint8Array[] = []
  for await (const piece of file.pieces) pieces.push(piece)
  return new Uint8Array(Buffer.concat(pieces))
}

describe('openAnnotation', () => {
  it('unpacks a gzip file, and gives any other bytes as they are', async () => {
    const gz = await openAnnotation(new File([gzipSync(text)], 'list.txt.gz'))
    expect(gz.bytes).toEqual(text)
    expect(await whole(gz)).toEqual(text)
    const plain = await openAnnotation(new File([text], 'list.txt'))
    expect(plain.bytes).toEqual(text)
    expect(await whole(plain)).toEqual(text)
  })

  it('names a damaged stream, and the file', async () => {
    const gz = new Uint8Array(gzipSync(text))
    gz.fill(0x55, 10, gz.length - 8)
    const read = async (): Promise<Uint8Array> => whole(await openAnnotation(new File([gz], 'barcodes.tsv.gz')))
    await expect(read()).rejects.toThrow(/^barcodes\.tsv\.gz: its gzip stream is damaged/)
    const truncated = new Uint8Array(gzipSync(text)).subarray(0, 20)
    const cutShort = async (): Promise<Uint8Array> => whole(await openAnnotation(new File([truncated], 'p.gz')))
    await expect(cutShort()).rejects.toThrow(/^p\.gz: its gzip stream is damaged \(unexpected end of file\)/)
  })

  it('reads ahead only the bytes that tell the kind; the rest comes as the parser takes it', async () => {
    // 64 MiB of one barcode line, gzipped to ~70 KB.
    const line = new TextEncoder().encode('AAACCCAAGAAACACT\n')
    const big = new Uint8Array(line.length * ((64 << 20) / 64))
    for (let i = 0; i < big.length; i += line.length) big.set(line, i)
    const opened = await openAnnotation(new File([gzipSync(big)], 'bomb.gz'))
    expect(opened.bytes.length).toBe(SNIFF_BYTES)
    expect(await readPermitList(opened)).toMatchObject({ listed: 1, length: 16 })
  })
})
