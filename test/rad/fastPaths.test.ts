import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { chunkPayload, decodeChunk } from '../../src/rad/decodeChunk'
import { recordLayout } from '../../src/rad/chunk'
import { RadError } from '../../src/rad/errors'
import { parsePrelude } from '../../src/rad/prelude'
import { inferSemantics } from '../../src/rad/semantics'
import type { Prelude } from '../../src/rad/types'
import { checkChunk, makeCheckPlan } from '../../src/rad/valueChecks'
import { SALMON_V3 } from '../helpers/fixtures'
import { buildRad, tag } from '../helpers/radWriter'

// The u32 word fast paths (decode and integrity scan) apply only when a chunk's
// payload sits on a 4-byte boundary; these tests run every chunk both ways.

const file = new Uint8Array(readFileSync(SALMON_V3))
const prelude: Prelude = parsePrelude(file, file.length)
const layout = recordLayout(prelude)
const plan = makeCheckPlan(prelude, inferSemantics(prelude))

/** Chunk k's bytes copied so its payload (8 bytes in) starts at `misalign` mod 4. */
function chunkAt(k: number, misalign: number): { bytes: Uint8Array; offset: number } {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  let offset = prelude.firstChunkOffset
  for (let i = 0; i < k; i++) offset += view.getUint32(offset, true)
  const nbytes = view.getUint32(offset, true)
  const room = new Uint8Array(nbytes + 8)
  const bytes = room.subarray(misalign, misalign + nbytes)
  bytes.set(file.subarray(offset, offset + nbytes))
  return { bytes, offset }
}

describe('u32 word fast paths agree with the DataView paths', () => {
  it('decodeChunk gives identical columns whether or not the payload is 4-byte aligned', () => {
    for (let k = 0; k < prelude.numChunks; k++) {
      const a = chunkAt(k, 0)
      const u = chunkAt(k, 1)
      const fast = decodeChunk(a.bytes, a.offset, k, prelude, 'header-inclusive', layout)
      const slow = decodeChunk(u.bytes, u.offset, k, prelude, 'header-inclusive', layout)
      expect(fast.recordCount).toBe(slow.recordCount)
      expect(Array.from(fast.alnStart)).toEqual(Array.from(slow.alnStart))
      fast.readColumns.forEach((c, t) => {
        expect(Array.from(c.values as Uint32Array)).toEqual(Array.from(slow.readColumns[t]?.values as Uint32Array))
      })
      fast.alnColumns.forEach((c, t) => {
        expect(Array.from(c.values as Uint32Array)).toEqual(Array.from(slow.alnColumns[t]?.values as Uint32Array))
      })
    }
  })

  it('the integrity scan counts the same alignments both ways', () => {
    for (let k = 0; k < prelude.numChunks; k++) {
      const counts = [0, 1, 2, 3].map((m) => {
        const c = chunkAt(k, m)
        return checkChunk(chunkPayload(c.bytes, c.offset, k, 'none', 'header-inclusive'), layout, plan)
      })
      expect(new Set(counts).size).toBe(1)
    }
  })

  it('a reference id out of range is reported with the same record and byte either way', () => {
    const messages = [0, 1].map((m) => {
      const c = chunkAt(1, m)
      // Record 0 of chunk 1: naln, b, u, then its first alignment word at payload byte 12.
      new DataView(c.bytes.buffer, c.bytes.byteOffset).setUint32(8 + 12, 0x80000000 + prelude.refCount, true)
      try {
        checkChunk(chunkPayload(c.bytes, c.offset, 1, 'none', 'header-inclusive'), layout, plan)
        return 'no error'
      } catch (e) {
        expect(e).toBeInstanceOf(RadError)
        return `${(e as RadError).code} ${String((e as RadError).offset)} ${(e as RadError).message}`
      }
    })
    expect(messages[0]).toMatch(/^BAD_VALUE \d+ chunk 1, record 0 at byte [\d,]+: alignment 0 names reference 244/)
    expect(messages[1]).toBe(messages[0])
  })

  it('a bad reference id is caught at every alignment slot, first records to last (branch-free and looped)', () => {
    const clean = chunkAt(1, 0)
    const words = new Uint32Array(clean.bytes.buffer, clean.bytes.byteOffset + 8, (clean.bytes.length - 8) / 4)
    const slots: number[] = []
    const nalns = new Set<number>()
    for (let w = 0, r = 0; w < words.length; r++) {
      const naln = words[w] ?? 0
      nalns.add(naln)
      for (let a = 0; a < naln; a++) slots.push(w + 3 + a)
      w += 3 + naln
    }
    // Records with 1, 2, 3 and more alignments all occur in this chunk.
    expect([1, 2, 3, 4].every((n) => nalns.has(n))).toBe(true)
    const picked = [...slots.slice(0, 60), ...slots.slice(-12)]
    for (const slot of picked) {
      const c = chunkAt(1, 0)
      new DataView(c.bytes.buffer, c.bytes.byteOffset).setUint32(8 + 4 * slot, prelude.refCount, true)
      expect(() => checkChunk(chunkPayload(c.bytes, c.offset, 1, 'none', 'header-inclusive'), layout, plan)).toThrow(
        /names reference 244/,
      )
    }
  })

  it('a UMI wider than ulen is caught by the fast scan too', () => {
    const c = chunkAt(2, 0)
    new DataView(c.bytes.buffer, c.bytes.byteOffset).setUint32(8 + 8, 1 << 24, true)
    expect(() => checkChunk(chunkPayload(c.bytes, c.offset, 2, 'none', 'header-inclusive'), layout, plan)).toThrow(
      /"u" is 16777216, wider than its 12 nt \(24 bits\) allow/,
    )
  })
})

describe('the general u32 word loop (not the 2-read-tag, 1-alignment-tag scRNA shape)', () => {
  it('gives the same columns as the DataView path for 3 read tags and 2 alignment tags', () => {
    const built = buildRad({
      refs: ['r0', 'r1', 'r2'],
      readTags: [tag('b0', 'u32'), tag('b1', 'u32'), tag('u', 'u32')],
      alnTags: [tag('compressed_ori_refid', 'u32'), tag('pos', 'u32')],
      chunks: [
        {
          records: [
            {
              read: [1, 2, 3],
              alns: [
                [0x80000001, 10],
                [2, 20],
              ],
            },
            { read: [4, 5, 6], alns: [] },
            { read: [7, 8, 9], alns: [[0, 30]] },
          ],
        },
      ],
    })
    const own = parsePrelude(built.bytes, built.bytes.length)
    const chunk = built.layout.chunks[0]!
    const decodeAt = (misalign: number): number[][] => {
      // Payload (8 bytes in) on a 4-byte boundary when misalign is 0, off it otherwise.
      const bytes = new Uint8Array(chunk.span + 8).subarray(misalign, misalign + chunk.span)
      bytes.set(built.bytes.subarray(chunk.offset, chunk.offset + chunk.span))
      const cols = decodeChunk(bytes, chunk.offset, 0, own, 'header-inclusive')
      return [
        Array.from(cols.alnStart),
        ...[...cols.readColumns, ...cols.alnColumns].map((c) => Array.from(c.values as Uint32Array)),
      ]
    }
    const expected = [
      [0, 2, 2, 3],
      [1, 4, 7],
      [2, 5, 8],
      [3, 6, 9],
      [0x80000001, 2, 0],
      [10, 20, 30],
    ]
    expect(decodeAt(0)).toEqual(expected)
    expect(decodeAt(1)).toEqual(expected)
  })
})
