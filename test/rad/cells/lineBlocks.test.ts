/**
 * Annotation files read as their pieces come (issue 36 §3, src/rad/cells/lineBlocks.ts): a line cut
 * across pieces is read whole, a repeated line counts once, and the bounds (a line's length, the
 * unpacked size, the distinct barcodes) are refused in one sentence after reading no more than
 * they need. The pieces here are one buffer given again and again: the test never holds the file.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  MAX_ANNOTATION_BYTES,
  MAX_ANNOTATION_LINES,
  MAX_LINE_BYTES,
  parsePermitList,
  parseT2g,
  readGeneNames,
  readLines,
  readPermitList,
  readT2g,
} from '../../../src/rad/cells'
import type { AnnotationStream } from '../../../src/rad/cells'
import { LineBlocks } from '../../../src/rad/cells/lineBlocks'
import { PermitListReader } from '../../../src/rad/cells/permitList'
import { readNames } from '../../helpers/fixtures'

const encode = (s: string): Uint8Array => new TextEncoder().encode(s)
const ANNOTATIONS = join(import.meta.dirname, '..', '..', 'fixtures', 'annotations')

/** A file of `piece` given `times` times, counting the pieces the reader asked for. */
function repeated(name: string, piece: Uint8Array, times: number): AnnotationStream & { pulled: () => number } {
  let pulled = 0
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < times; i++) {
      pulled++
      yield await Promise.resolve(piece)
    }
  }
  return { name, pieces: pieces(), pulled: () => pulled }
}

/** The bytes cut into pieces at the given offsets. */
function cut(name: string, bytes: Uint8Array, at: readonly number[]): AnnotationStream {
  const ends = [...at, bytes.length]
  async function* pieces(): AsyncGenerator<Uint8Array> {
    let from = 0
    for (const end of ends) {
      yield await Promise.resolve(bytes.subarray(from, end))
      from = end
    }
  }
  return { name, pieces: pieces() }
}

/** `line` repeated to about `bytes` (whole lines). */
function linesOf(line: string, bytes: number): Uint8Array {
  const one = encode(line)
  const out = new Uint8Array(Math.floor(bytes / one.length) * one.length)
  for (let i = 0; i < out.length; i += one.length) out.set(one, i)
  return out
}

describe('lines cut across pieces', () => {
  const list = encode('ACGTACGT\r\nTTTTACGT-1\n\nGGGGACGT\tweight 5\nACGTACGT\nCCCCACGT')

  it('a permit list cut at every byte reads as it does whole', async () => {
    const whole = parsePermitList(list, 'p.txt')
    for (let at = 1; at < list.length; at++) {
      const pieced = await readPermitList(cut('p.txt', list, [at, Math.min(at + 3, list.length)]))
      expect({ ...pieced, set: undefined }).toEqual({ ...whole, set: undefined })
      expect(pieced.listed).toBe(4)
    }
  })

  it('an error names the line wherever the pieces fall', async () => {
    const bad = encode('ACGT\nACGT\nAC\nNNNN\n')
    for (let at = 1; at < bad.length; at++) {
      await expect(readPermitList(cut('p.txt', bad, [at]))).rejects.toThrow(/^p\.txt line 3: a barcode of 2 bases/)
    }
    const binary = encode('TX1\tG1\nTX2\tG2\nTX3\u0000\tG3\n')
    for (let at = 1; at < binary.length; at++) {
      await expect(readT2g(cut('t.tsv', binary, [at]), ['TX1'])).rejects.toThrow(
        't.tsv line 3: binary data (a NUL byte), not a text table',
      )
    }
    const notUtf8 = new Uint8Array([...encode('TX1\tG1\nTX2\tG'), 0xff, ...encode('\n')])
    await expect(readT2g(cut('t.tsv', notUtf8, [5]), ['TX1'])).rejects.toThrow(
      't.tsv line 2: binary data (not UTF-8 text), not a text table',
    )
  })

  it('a t2g read in pieces gives the map parsed whole', async () => {
    const bytes = readFileSync(join(ANNOTATIONS, 't2g.tsv'))
    const refs = readNames()
    const whole = parseT2g(new TextDecoder().decode(bytes), refs, 't2g.tsv')
    const at = [1, 7, 100, 4096, 4097].filter((n) => n < bytes.length)
    expect(await readT2g(cut('t2g.tsv', new Uint8Array(bytes), at), refs)).toEqual(whole)
  })
})

describe('a repeated line counts once; memory is the distinct entries’', () => {
  it('a permit list of one barcode repeated to 64 MiB: one barcode listed, the -1 suffix counted once', async () => {
    const piece = linesOf('AAACCCAAGAAACACT-1\r\n', 1 << 20)
    const list = await readPermitList(repeated('bomb.txt', piece, 64))
    expect(list).toMatchObject({ listed: 1, length: 16, suffixed: 1 })
  })

  it('a t2g of one row repeated is one transcript; gene names keep only the genes asked for', async () => {
    const t2g = repeated('t2g.tsv', linesOf('TXZ\tGZ\n', 1 << 20), 16)
    await expect(readT2g(t2g, ['TX1'])).rejects.toThrow(
      't2g.tsv: none of its 1 transcripts is a reference of this file (its first: "TXZ"; the file\'s first reference: "TX1")',
    )
    const names = encode(Array.from({ length: 10_000 }, (_, i) => `G${String(i)}\tname${String(i)}\n`).join(''))
    const kept = await readGeneNames(repeated('names.tsv', names, 10), new Set(['G7', 'G9999', 'absent']))
    expect([...kept]).toEqual([
      ['G7', 'name7'],
      ['G9999', 'name9999'],
    ])
  })

  it('more distinct barcodes than the bound: refused in one sentence naming the line', async () => {
    const text = Array.from({ length: 40 }, (_, i) => barcodeOf(i)).join('\n')
    const reader = new PermitListReader('big.txt', { maxBarcodes: 32 })
    await expect(readLines(cut('big.txt', encode(text), [100]), reader.block)).rejects.toThrow(
      "big.txt line 33: more than 32 distinct barcodes, more than any permit list (10x's largest has 6.8M), so it is refused",
    )
  })
})

describe('bounds, refused after reading no more than they need', () => {
  it('2 GB of zeros: line 1 is too long, said after the first piece', async () => {
    const zeros = repeated('zeros.gz', new Uint8Array(1 << 20), 2048)
    await expect(readPermitList(zeros)).rejects.toThrow(
      `zeros.gz line 1: longer than ${String(MAX_LINE_BYTES >> 10)} KiB, not a line of an annotation file (binary data?)`,
    )
    expect(zeros.pulled()).toBe(1)
    const t2g = repeated('zeros.tsv', new Uint8Array(1 << 20), 2048)
    await expect(readT2g(t2g, ['TX1'])).rejects.toThrow(/^zeros\.tsv line 1: longer than 64 KiB/)
    expect(t2g.pulled()).toBe(1)
  })

  it('a long line after short ones, in small pieces: named by its number', async () => {
    const head = encode('ACGT\nACGA\n')
    const long = encode(`ACGT\t${'x'.repeat(MAX_LINE_BYTES)}\n`)
    const bytes = new Uint8Array([...head, ...long])
    const at = Array.from({ length: Math.floor(bytes.length / 1000) }, (_, i) => 1000 * (i + 1))
    await expect(readPermitList(cut('p.txt', bytes, at))).rejects.toThrow(/^p\.txt line 3: longer than 64 KiB/)
    expect(() => parsePermitList(bytes, 'p.txt')).toThrow(/^p\.txt line 3: longer than 64 KiB/)
  })

  it('a list of another barcode length than the file’s: refused at its first line', async () => {
    const list = repeated('v2.txt', linesOf('ACGTACGTACGTACGT\n', 1 << 20), 1024)
    await expect(readPermitList(list, 12)).rejects.toThrow("v2.txt: its barcodes have 16 bases, this file's 12")
    expect(list.pulled()).toBe(1)
  })

  it('past the line bound (blank lines count): refused naming the file and the bound', () => {
    expect(MAX_ANNOTATION_LINES).toBe(50_000_000)
    const reader = new PermitListReader('blank.txt')
    const lines = new LineBlocks('blank.txt', reader.block, 3000)
    const newlines = new Uint8Array(1000).fill(10)
    for (let i = 0; i < 3; i++) lines.push(newlines)
    expect(() => {
      lines.push(newlines)
    }).toThrow('blank.txt: more than 3,000 lines, more than any annotation file, so it is refused (a gzip bomb?)')
  })

  it('past the unpacked bound: refused naming the file and the bound', async () => {
    // Lines of a barcode and a 60 KB comment: 2 GiB of them is read in a second or two.
    const piece = linesOf(`ACGTACGTACGTACGT\t${'x'.repeat(60_000)}\n`, 1 << 20)
    const refusedAt = Math.floor(MAX_ANNOTATION_BYTES / piece.length) + 1
    const file = repeated('huge.txt.gz', piece, refusedAt + 10)
    await expect(readPermitList(file)).rejects.toThrow(
      'huge.txt.gz: more than 2 GiB of text (unpacked), more than any annotation file, so it is refused (a gzip bomb?)',
    )
    expect(file.pulled()).toBe(refusedAt)
  })
})

/** The i-th barcode of 16 bases (distinct for i < 4^16). */
function barcodeOf(i: number): string {
  let s = ''
  for (let k = 0; k < 16; k++) s += 'ACGT'.charAt((i >>> (2 * k)) & 3)
  return s
}
