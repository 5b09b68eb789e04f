import { alignedWords, checkRecordCount, overrun, recordLayout, underrun } from '../decode/chunk'
import type { ChunkPayload, RecordLayout } from '../decode/chunk'
import { scanWords } from './checkWords'
import type { CheckPlan } from './checkPlan'
import { Cursor } from '../decode/cursor'
import { RadError, fmtInt } from '../errors'
import type { Semantics } from '../prelude/semantics'
import { fixedWidth, readValue, skipValue } from '../prelude/tags'
import { TYPE_ID } from '../types'
import type { Prelude, TagDesc } from '../types'

/**
 * The integrity pass over a chunk's records (docs/integrity.md), done
 * in place on the bytes without building columns: the records must fill the
 * payload exactly, every reference id must be < ref_count, and no 2-bit
 * barcode/UMI may have bits above its declared nucleotide length (§7.8).
 */
/** Precomputes the word layout once per file, so the per-chunk path allocates nothing. */
function wordLayout(
  layout: RecordLayout,
  sequences: CheckPlan['sequences'],
  ref: CheckPlan['reference'],
  refCount: number,
): CheckPlan['words'] {
  const head = 4 + layout.readStride
  const stride = layout.alnStride
  const whole =
    layout.readStride >= 0 &&
    stride > 0 &&
    head % 4 === 0 &&
    stride % 4 === 0 &&
    (!ref || ref.delta % 4 === 0) &&
    sequences.length <= 2 &&
    sequences.every((q) => q.typeId === TYPE_ID.u32 && q.delta % 4 === 0)
  if (!whole) return undefined
  // Each sequence field: its word, and a mask of the bits above 2·len (0 = unused).
  const [s0, s1] = sequences
  const highBits = (q: CheckPlan['sequences'][number] | undefined): number => (q ? ~(2 ** (2 * q.len) - 1) >>> 0 : 0)
  return {
    headWords: head / 4,
    strideWords: stride / 4,
    refWord: ref ? ref.delta / 4 : 0,
    word0: s0 ? 1 + s0.delta / 4 : 0,
    high0: highBits(s0),
    word1: s1 ? 1 + s1.delta / 4 : 0,
    high1: highBits(s1),
    oneWord: stride === 4 && refCount > 0 && refCount <= 0x80000000 && (!ref || ref.mask <= 0x7fffffff),
    refMask: ref ? ref.mask : 0,
    refLimit: refCount - 1,
  }
}

/** Byte offset of tag `i` inside its record part, or -1 when a variable-width tag precedes it. */
function deltaOf(tags: readonly TagDesc[], i: number): number {
  let delta = 0
  for (let t = 0; t < i; t++) {
    const w = fixedWidth((tags[t] as TagDesc).type)
    if (w === 0) return -1
    delta += w
  }
  return delta
}

export function makeCheckPlan(prelude: Prelude, sem: Semantics): CheckPlan {
  const fields = sem.umi ? [...sem.barcodes, sem.umi] : sem.barcodes
  const sequences = fields.flatMap((f) => {
    const typeId = prelude.readTags[f.tag]?.type.id ?? -1
    const integer = typeId === TYPE_ID.u8 || typeId === TYPE_ID.u16 || typeId === TYPE_ID.u32 || typeId === TYPE_ID.u64
    // A value can only be too wide when its type has more bits than 2·len.
    const bits = 8 * fixedWidth({ id: typeId })
    const checkable = integer && f.len > 0 && 2 * f.len < bits
    return checkable ? [{ tag: f.tag, name: f.name, len: f.len, delta: deltaOf(prelude.readTags, f.tag), typeId }] : []
  })
  let reference: CheckPlan['reference']
  const ref = sem.reference
  if (ref && prelude.alnTags[ref.tag]?.type.id === TYPE_ID.u32) {
    const mask = ref.packed === 'top2bits' ? 0x3fffffff : ref.packed === 'bit31' ? 0x7fffffff : 0xffffffff
    reference = { tag: ref.tag, delta: deltaOf(prelude.alnTags, ref.tag), mask }
  }
  const narrow = sequences.filter((q) => q.typeId === TYPE_ID.u32)
  return {
    refCount: prelude.refCount,
    sequences,
    narrow: {
      sequences: narrow,
      delta: Int32Array.from(narrow, (q) => 4 + q.delta),
      shift: Int32Array.from(narrow, (q) => 2 * q.len),
    },
    other: sequences.filter((q) => q.typeId !== TYPE_ID.u32),
    reference,
    words: wordLayout(recordLayout(prelude), sequences, reference, prelude.refCount),
  }
}

function badValue(p: ChunkPayload, r: number, at: number, what: string): RadError {
  const where = p.compressed ? `byte ${fmtInt(at - p.bytesOffset)} of its decompressed payload` : `byte ${fmtInt(at)}`
  return new RadError(
    'BAD_VALUE',
    `chunk ${fmtInt(p.chunk)}, record ${fmtInt(r)} at ${where}: ${what}`,
    p.compressed ? p.offset : at,
    p.chunk,
  )
}

function tooWide(p: ChunkPayload, r: number, at: number, name: string, value: number | bigint, len: number): RadError {
  return badValue(
    p,
    r,
    at,
    `"${name}" is ${String(value)}, wider than its ${String(len)} nt (${String(2 * len)} bits) allow`,
  )
}

function badRef(p: ChunkPayload, r: number, at: number, a: number, ref: number, refCount: number): RadError {
  return badValue(
    p,
    r,
    at,
    `alignment ${fmtInt(a)} names reference ${fmtInt(ref)}, but the header lists only ${fmtInt(refCount)} references`,
  )
}

/** Value of an unsigned integer field at `at` of `view` as number|bigint. */
function readUnsigned(view: DataView, at: number, typeId: number): number | bigint {
  if (typeId === TYPE_ID.u64) return view.getBigUint64(at, true)
  if (typeId === TYPE_ID.u32) return view.getUint32(at, true)
  if (typeId === TYPE_ID.u16) return view.getUint16(at, true)
  return view.getUint8(at)
}

function sequenceTooWide(value: number | bigint, len: number): boolean {
  if (typeof value === 'bigint') return value >> BigInt(2 * len) !== 0n
  // Integer shift only (a float compare here was 30× slower once inlined); `>>> 32` would wrap.
  return 2 * len < 32 && value >>> (2 * len) !== 0
}

/** Fast path: every tag fixed-width; reads naln and the checked fields only. */
function checkFixed(p: ChunkPayload, layout: RecordLayout, plan: CheckPlan): number {
  const view = new DataView(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength)
  const end = p.bytes.length
  const head = 4 + layout.readStride
  const stride = layout.alnStride
  const ref = plan.reference
  const refDelta = ref ? ref.delta : 0
  const refMask = ref ? ref.mask : 0
  const { refCount, other } = plan
  // u32 sequences are checked with integer shifts in the loop; others generically.
  const { sequences: narrow, delta: narrowDelta, shift: narrowShift } = plan.narrow
  let pos = 0
  let total = 0
  for (let r = 0; r < p.nrec; r++) {
    if (pos + head > end) throw overrun(p, r, p.bytesOffset + pos)
    const naln = view.getUint32(pos, true)
    const next = pos + head + naln * stride
    if (next > end) throw overrun(p, r, p.bytesOffset + pos)
    for (let q = 0; q < narrowDelta.length; q++) {
      if (view.getUint32(pos + narrowDelta[q]!, true) >>> narrowShift[q]! !== 0) {
        const s = narrow[q]!
        throw tooWide(p, r, p.bytesOffset + pos, s.name, view.getUint32(pos + 4 + s.delta, true), s.len)
      }
    }
    for (let q = 0; q < other.length; q++) {
      const s = other[q]!
      const v = readUnsigned(view, pos + 4 + s.delta, s.typeId)
      if (sequenceTooWide(v, s.len)) throw tooWide(p, r, p.bytesOffset + pos, s.name, v, s.len)
    }
    if (ref) {
      for (let a = 0, at = pos + head + refDelta; a < naln; a++, at += stride) {
        if ((view.getUint32(at, true) & refMask) >>> 0 >= refCount) {
          throw badRef(p, r, p.bytesOffset + pos, a, (view.getUint32(at, true) & refMask) >>> 0, refCount)
        }
      }
    }
    total += naln
    pos = next
  }
  if (pos !== end) throw underrun(p, pos)
  return total
}

/** General path: walks every value with a cursor (strings, arrays). */
function checkGeneric(p: ChunkPayload, layout: RecordLayout, plan: CheckPlan): number {
  const cur = new Cursor(p.bytes, 0, p.bytes.length)
  const lens = new Map(plan.sequences.map((s) => [s.tag, s]))
  let total = 0
  for (let r = 0; r < p.nrec; r++) {
    const start = cur.pos
    try {
      const naln = cur.u32()
      layout.readTags.forEach((tag, t) => {
        const s = lens.get(t)
        if (!s) {
          skipValue(cur, tag.type)
          return
        }
        const v = readValue(cur, tag.type) as number | bigint
        if (sequenceTooWide(v, s.len)) throw tooWide(p, r, p.bytesOffset + start, s.name, v, s.len)
      })
      // With no alignment tags there is nothing to check: a naln of 2^32 − 1 must not spin.
      for (let a = 0; layout.alnTags.length > 0 && a < naln; a++) {
        layout.alnTags.forEach((tag, t) => {
          if (plan.reference?.tag !== t) {
            skipValue(cur, tag.type)
            return
          }
          const id = ((readValue(cur, tag.type) as number) & plan.reference.mask) >>> 0
          if (id >= plan.refCount) throw badRef(p, r, p.bytesOffset + start, a, id, plan.refCount)
        })
      }
      total += naln
    } catch (e) {
      if (e instanceof RadError && e.code === 'TRUNCATED') throw overrun(p, r, p.bytesOffset + start)
      throw e
    }
  }
  if (cur.pos !== p.bytes.length) throw underrun(p, cur.pos)
  return total
}

/** Checks one chunk's records (layout and values); returns its alignment count. */
export function checkChunk(p: ChunkPayload, layout: RecordLayout, plan: CheckPlan): number {
  checkRecordCount(p, layout)
  if (layout.readStride < 0 || layout.alnStride < 0) return checkGeneric(p, layout, plan)
  const words = plan.words ? alignedWords(p.bytes) : undefined
  const fast = words ? scanWords(words, 0, words.length, p.nrec, plan) : -1
  return fast >= 0 ? fast : checkFixed(p, layout, plan)
}
