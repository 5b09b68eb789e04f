/**
 * Annotation files gunzipped in the page (src/io/gunzip.ts, issue 36 §3 and issue 40's Lows): as a
 * stream, refused past a bound before the memory is taken, and a damaged stream named as one
 * (Chromium's own words were "Failed to fetch").
 */
import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { gunzipIfGzip } from '../../src/io/gunzip'

const text = new TextEncoder().encode('AAACCCAAGAAACACT\nAAACCCAAGAAACCAT\n')

describe('gunzipIfGzip', () => {
  it('unpacks a gzip file, and gives any other bytes as they are', async () => {
    expect(await gunzipIfGzip(new Uint8Array(gzipSync(text)), 'list.txt.gz')).toEqual(text)
    expect(await gunzipIfGzip(text, 'list.txt')).toBe(text)
  })

  it('names a damaged stream, and the file', async () => {
    const gz = new Uint8Array(gzipSync(text))
    gz.fill(0x55, 10, gz.length - 8)
    await expect(gunzipIfGzip(gz, 'barcodes.tsv.gz')).rejects.toThrow(/^barcodes\.tsv\.gz: its gzip stream is damaged/)
  })

  it('refuses a gzip bomb past the bound, before unpacking it all', async () => {
    const bomb = new Uint8Array(gzipSync(new Uint8Array(8 << 20)))
    await expect(gunzipIfGzip(bomb, 'bomb.gz', 1 << 20)).rejects.toThrow(
      'bomb.gz: it unpacks to more than 1 MiB, more than any annotation file (a gzip bomb?)',
    )
  })
})
