/** checkChunk (valueChecks.ts): the u32 word scan and the DataView check agree on counts and faults. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { recordLayout } from '../../src/rad/decode/chunk'
import { chunkPayload } from '../../src/rad/decode/decodeChunk'
import { RadError } from '../../src/rad/errors'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import type { Prelude } from '../../src/rad/types'
import { checkChunk, makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { chunksOf, copyAt } from '../helpers/chunkCopies'
import { SALMON_V3 } from '../helpers/fixtures'

// The word scan applies only when a chunk's payload sits on a 4-byte
// boundary; these tests run chunks both ways.

const file = new Uint8Array(readFileSync(SALMON_V3))
const prelude: Prelude = parsePrelude(file, file.length)
const layout = recordLayout(prelude)
const plan = makeCheckPlan(prelude, inferSemantics(prelude))
const chunks = chunksOf(file, prelude)

/** Chunk k's bytes copied so its payload (8 bytes in) starts at `misalign` mod 4. */
function chunkAt(k: number, misalign: number): { bytes: Uint8Array; offset: number } {
  const { offset, bytes } = chunks[k]!
  return { offset, bytes: copyAt(bytes, misalign) }
}

function check(k: number, c: { bytes: Uint8Array; offset: number }): number {
  return checkChunk(chunkPayload(c.bytes, c.offset, k, 'none', 'header-inclusive'), layout, plan)
}

describe('checkChunk: the u32 word scan agrees with the DataView check', () => {
  it('counts the same alignments both ways', () => {
    for (let k = 0; k < prelude.numChunks; k++) {
      const counts = [0, 1, 2, 3].map((m) => check(k, chunkAt(k, m)))
      expect(new Set(counts).size).toBe(1)
    }
  })

  it('reports a reference id out of range with the same record and byte either way', () => {
    const messages = [0, 1].map((m) => {
      const c = chunkAt(1, m)
      // Record 0 of chunk 1: naln, b, u, then its first alignment word at payload byte 12.
      new DataView(c.bytes.buffer, c.bytes.byteOffset).setUint32(8 + 12, 0x80000000 + prelude.refCount, true)
      try {
        check(1, c)
        return 'no error'
      } catch (e) {
        expect(e).toBeInstanceOf(RadError)
        return `${(e as RadError).code} ${String((e as RadError).offset)} ${(e as RadError).message}`
      }
    })
    expect(messages[0]).toMatch(/^BAD_VALUE \d+ chunk 1, record 0 at byte [\d,]+: alignment 0 names reference 244/)
    expect(messages[1]).toBe(messages[0])
  })

  it('catches a bad reference id at every alignment slot, first records to last (branch-free and looped)', () => {
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
      expect(() => check(1, c)).toThrow(/names reference 244/)
    }
  })

  it('catches a UMI wider than ulen in the word scan too', () => {
    const c = chunkAt(2, 0)
    new DataView(c.bytes.buffer, c.bytes.byteOffset).setUint32(8 + 8, 1 << 24, true)
    expect(() => check(2, c)).toThrow(/"u" is 16777216, wider than its 12 nt \(24 bits\) allow/)
  })
})
