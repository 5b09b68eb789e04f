import type { CheckPlan } from './checkPlan'

// The word scan of the record checks (valueChecks.ts): the index scan's hot
// path over clean chunks (cleanRun.ts) and checkChunk's first try.

/**
 * Fastest path, for records of whole u32 words (salmon/piscem scRNA: 12 + 4·naln
 * bytes), on `words[from, to)` of a buffer the caller already holds as words
 * (so a walk over a block of a million tiny chunks makes no view per chunk).
 * It only *detects* trouble — overrun, bits above a sequence's 2·len, a
 * reference id ≥ ref_count — and returns the chunk's alignment count, or -1 to
 * ask for the precise DataView pass, which says which record is wrong and where.
 * Words [from, to) must lie inside `words`. Little-endian hosts only
 * (LITTLE_ENDIAN_HOST in chunk.ts).
 */
export function scanWords(words: Uint32Array, from: number, to: number, nrec: number, plan: CheckPlan): number {
  const layout = plan.words
  if (!layout) return -1
  return layout.oneWord
    ? scanOneWordAlignments(words, from, to, nrec, layout)
    : scanAnyStride(words, from, to, nrec, plan)
}

/**
 * scanWords for one u32 per alignment (the reference word; salmon, piscem,
 * alevin-fry collate). ~40% of records have one alignment, ~35% two, ~23%
 * three: a loop over naln mispredicts its exit on most records, so the first
 * three alignment words are tested branch-free, masked by naln, and only
 * longer records loop (1.75 → 2.8 GB/s in Node on salmon chunks). With no
 * reference tag, `mask` is 0 and every alignment passes.
 */
function scanOneWordAlignments(
  words: Uint32Array,
  from: number,
  to: number,
  nrec: number,
  layout: NonNullable<CheckPlan['words']>,
): number {
  // Sign-bit test, all int32: limit − id < 0 exactly when id ≥ ref_count.
  const { headWords, word0, word1, refMask: mask, refLimit: limit } = layout
  const high0 = layout.high0 | 0
  const high1 = layout.high1 | 0
  let w = from
  let total = 0
  let high = 0
  let bad = 0
  let r = 0
  for (; r < nrec; r++) {
    const naln = words[w]! | 0
    const a = w + headWords
    const next = a + naln
    if (naln < 0 || a + 3 > to || next > to) break
    high |= (words[w + word0]! & high0) | (words[w + word1]! & high1)
    bad |=
      ((limit - (words[a]! & mask)) & ((0 - naln) >> 31)) |
      ((limit - (words[a + 1]! & mask)) & ((1 - naln) >> 31)) |
      ((limit - (words[a + 2]! & mask)) & ((2 - naln) >> 31))
    for (let i = a + 3; i < next; i++) bad |= limit - (words[i]! & mask)
    total += naln
    w = next
  }
  // The last records, within three words of the end: one at a time.
  for (; r < nrec; r++) {
    if (w + headWords > to) return -1
    const naln = words[w]! | 0
    const next = w + headWords + naln
    if (naln < 0 || next > to) return -1
    high |= (words[w + word0]! & high0) | (words[w + word1]! & high1)
    for (let i = w + headWords; i < next; i++) bad |= limit - (words[i]! & mask)
    total += naln
    w = next
  }
  return w === to && high === 0 && bad >= 0 ? total : -1
}

/** scanWords for alignments of several words, or reference masks that need unsigned compares. */
function scanAnyStride(words: Uint32Array, from: number, to: number, nrec: number, plan: CheckPlan): number {
  const { headWords, strideWords, refWord, word0, high0, word1, high1 } = plan.words!
  const refMask = plan.reference ? plan.reference.mask : 0
  let w = from
  let total = 0
  let high = 0
  let maxRef = 0
  for (let r = 0; r < nrec; r++) {
    if (w + headWords > to) return -1
    const naln = words[w]!
    const next = w + headWords + naln * strideWords
    if (next > to) return -1
    high |= (words[w + word0]! & high0) | (words[w + word1]! & high1)
    if (refMask !== 0) {
      for (let at = w + headWords + refWord; at < next; at += strideWords) {
        const id = (words[at]! & refMask) >>> 0
        maxRef = id > maxRef ? id : maxRef
      }
    }
    total += naln
    w = next
  }
  const refOk = refMask === 0 || total === 0 || maxRef < plan.refCount
  return w === to && high === 0 && refOk ? total : -1
}
