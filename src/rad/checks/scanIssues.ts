import { fmtInt } from '../errors'
import type { IntegrityIssue } from './integrity'
import { EXT_LESS_NOTE, looksLikeRadStart } from '../prelude/prelude'
import { declaredLengthIssues } from '../prelude/semantics'
import type { NbytesConvention, Prelude } from '../types'

/** At most this many damaged chunks are listed; later ones are only counted. */
export const MAX_LISTED_ISSUES = 1000

/** What a chunk scan says before its first chunk: the prelude's notes, and a payload-only nbytes (§4.2). */
export function fileIssues(prelude: Prelude, convention: NbytesConvention): IntegrityIssue[] {
  const issues: IntegrityIssue[] = prelude.warnings.map((message) =>
    message === EXT_LESS_NOTE
      ? { kind: 'ext-less-prefix', severity: 'warning', message, part: 'prelude', offset: 10 }
      : {
          kind: message.startsWith('num_chunks is 0') ? 'num-chunks-unknown' : 'note',
          severity: 'info',
          message,
          part: 'prelude',
        },
  )
  issues.push(...declaredLengthIssues(prelude))
  const codec = unknownCodecIssue(prelude)
  if (codec) issues.push(codec)
  if (convention === 'payload-only') {
    issues.push({
      kind: 'payload-only-nbytes',
      severity: 'info', // a convention a real writer used (§4.2), not a deviation
      message:
        'chunk nbytes excludes the 8-byte chunk header (payload-only, as an older C++ writer did, docs/format.md §4.2); every real producer includes it — read this file accordingly',
      offset: prelude.firstChunkOffset,
      chunk: 0,
    })
  }
  return issues
}

/**
 * Bytes left after the `chunks` that num_chunks declares (§1.4), from byte
 * `pos` to `fileSize`, whose first 8 are `head`: a second RAD file when they
 * look like a prelude (files were concatenated), else trailing bytes.
 * `declared`: num_chunks named the count (else it was 0 and chunks were read
 * until a second file seemed to start).
 */
export function afterChunksIssue(
  head: Uint8Array,
  pos: number,
  fileSize: number,
  chunks: number,
  declared: boolean,
): IntegrityIssue {
  const extra = fileSize - pos
  const after = declared
    ? `after the ${fmtInt(chunks)} chunks that num_chunks declares`
    : `after ${fmtInt(chunks)} chunks (num_chunks is 0, so chunks were read until here)`
  if (looksLikeRadStart(head)) {
    return {
      kind: 'concatenated',
      severity: 'warning',
      part: 'after-chunks',
      offset: pos,
      message: `a second RAD file seems to start at byte ${fmtInt(pos)}, ${after}: files were concatenated; only the first is shown (${fmtInt(extra)} bytes follow)`,
    }
  }
  return {
    kind: 'trailing-bytes',
    severity: 'warning',
    part: 'after-chunks',
    offset: pos,
    message: `${fmtInt(extra)} trailing bytes ${after} (from byte ${fmtInt(pos)}); they are ignored`,
  }
}

/** A scan's issues in the order found; every damaged chunk is remembered, the first MAX_LISTED_ISSUES listed. */
export class ScanIssues {
  readonly issues: IntegrityIssue[]
  /** Every chunk whose records failed a check, listed or not. */
  readonly damagedChunks: number[] = []
  private damaged = 0

  constructor(first: IntegrityIssue[] = []) {
    this.issues = first
  }

  add(issue: IntegrityIssue): void {
    this.issues.push(issue)
  }

  /** A problem inside one chunk's records (the scan goes on). */
  addDamaged(issue: IntegrityIssue): void {
    this.damaged++
    if (issue.chunk !== undefined) this.damagedChunks.push(issue.chunk)
    if (this.damaged <= MAX_LISTED_ISSUES) this.issues.push(issue)
  }

  /** Every issue, with a last line counting the damaged chunks not listed. */
  finish(): IntegrityIssue[] {
    if (this.damaged > MAX_LISTED_ISSUES) {
      this.issues.push({
        kind: 'note',
        severity: 'warning',
        message: `${fmtInt(this.damaged - MAX_LISTED_ISSUES)} more damaged chunks are not listed`,
      })
    }
    return this.issues
  }
}

/** §6: the issue of a chunk_codec id this reader does not know; undefined when it knows it. */
export function unknownCodecIssue(prelude: Prelude): IntegrityIssue | undefined {
  if (prelude.codec !== 'unknown') return undefined
  const i = prelude.fileTags.findIndex((t) => t.name === 'chunk_codec')
  return {
    kind: 'unknown-codec',
    severity: 'error',
    part: 'prelude',
    offset: prelude.fileTagValueOffsets[i],
    message: `file tag "chunk_codec" is ${String(prelude.fileTagValues[i])}; known codecs are 0 (none), 1 (lz4) and 2 (zstd) — the file needs a newer reader: the header and the chunk table are shown (chunk headers are never compressed, docs/format.md §6), but no record can be decoded`,
  }
}
