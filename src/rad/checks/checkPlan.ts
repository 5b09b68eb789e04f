/**
 * What the integrity pass checks in a file's records, worked out once per
 * file (valueChecks.makeCheckPlan) and used by every chunk's check
 * (valueChecks.checkChunk, checkWords.scanWords, cleanRun). docs/integrity.md.
 */
export interface CheckedSequence {
  tag: number
  name: string
  len: number
  delta: number
  typeId: number
}

export interface CheckPlan {
  refCount: number
  /** Read tags holding 2-bit sequences with a known length. */
  sequences: CheckedSequence[]
  /**
   * checkFixed's split of `sequences`, made once per file (per chunk it was
   * 12% of the checks on a collated file's ~5-record chunks): the u32 ones,
   * tested with integer shifts (record offsets 4 + delta, shifts 2·len), and
   * the others.
   */
  narrow: { sequences: CheckedSequence[]; delta: Int32Array; shift: Int32Array }
  other: CheckedSequence[]
  /** The alignment tag holding the reference id, and the mask that extracts it (§5.3, §7.4). */
  reference: { tag: number; delta: number; mask: number } | undefined
  /** Word offsets for the Uint32Array path, when the layout is all whole u32 words; else undefined. */
  words:
    | {
        headWords: number
        strideWords: number
        refWord: number
        word0: number
        high0: number
        word1: number
        high1: number
        /**
         * One u32 per alignment and a reference test that fits int32
         * arithmetic (mask ≤ 2^31 − 1, 0 < ref_count ≤ 2^31): scanned by
         * scanOneWordAlignments with refMask and refLimit = ref_count − 1
         * (refMask 0 when there is no reference tag).
         */
        oneWord: boolean
        refMask: number
        refLimit: number
      }
    | undefined
}
