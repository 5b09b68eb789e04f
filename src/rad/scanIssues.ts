import { fmtInt } from './errors'
import type { IntegrityIssue } from './integrity'
import { looksLikeRadStart } from './prelude'
import { declaredLengthIssues } from './semantics'
import type { NbytesConvention, Prelude } from './types'

/** At most this many damaged chunks are listed; later ones are only counted. */
export const MAX_LISTED_ISSUES = 1000

/** What a chunk scan says before its first chunk: the prelude's notes, and a payload-only nbytes (§4.2). */
export function fileIssues(prelude: Prelude, convention: NbytesConvention): IntegrityIssue[] {
  const issues: IntegrityIssue[] = prelude.warnings.map((message) => ({
    kind: message.startsWith('num_chunks is 0') ? 'num-chunks-unknown' : 'note',
    severity: 'info',
    message,
    part: 'prelude',
  }))
  issues.push(...declaredLengthIssues(prelude))
  if (convention === 'payload-only') {
    issues.push({
      kind: 'payload-only-nbytes',
      severity: 'info', // a convention a real writer used (§4.2), not a deviation
      message:
        'chunk nbytes excludes the 8-byte chunk header (payload-only, as an older C++ writer did, RAD-FORMAT.md §4.2); every real producer includes it — read this file accordingly',
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
 */
export function afterChunksIssue(head: Uint8Array, pos: number, fileSize: number, chunks: number): IntegrityIssue {
  const extra = fileSize - pos
  if (looksLikeRadStart(head)) {
    return {
      kind: 'concatenated',
      severity: 'warning',
      part: 'after-chunks',
      offset: pos,
      message: `a second RAD file seems to start at byte ${fmtInt(pos)}, after the ${fmtInt(chunks)} chunks that num_chunks declares: files were concatenated; only the first is shown (${fmtInt(extra)} bytes follow)`,
    }
  }
  return {
    kind: 'trailing-bytes',
    severity: 'warning',
    part: 'after-chunks',
    offset: pos,
    message: `${fmtInt(extra)} trailing bytes after the ${fmtInt(chunks)} chunks that num_chunks declares (from byte ${fmtInt(pos)}); they are ignored`,
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
