/**
 * The verdict section of a `.rdx` sidecar (docs/sidecar.md): the integrity verdict of the scan
 * that wrote it, and the check of its JSON's shape, which drops a section of another shape.
 */
import type { FilePart, RadErrorData } from '../errors'
import { RAD_ERROR_CODES } from '../errors'
import type { IntegrityIssue, IntegrityStatus, IssueKind, Severity } from '../checks/integrity'
import { depthProblem, listOf, nullable, num, oneOf, optional, shape, str } from '../jsonShape'

/** The integrity verdict of the scan that wrote the sidecar (docs/integrity.md); never 'unreadable' or 'incomplete'. */
export type SidecarStatus = Exclude<IntegrityStatus, 'unreadable'>

export interface SidecarVerdict {
  status: SidecarStatus
  /** Alignments in the checked chunks. */
  alignments: number | undefined
  issues: IntegrityIssue[]
  damagedChunks: number[]
  /** The first problem that stopped the walk; every chunk before it is in the table. */
  error: RadErrorData | undefined
}

/** A section of a sidecar read but not used: its shape is not the one this reader expects (docs/sidecar.md). */
export interface DroppedSection {
  section: 'verdict' | 'statistics'
  /** What is wrong, in words ("issues[0].message is a number, not a string"). */
  why: string
  /**
   * 'shape' (the default): not the JSON its reader expects; 'disagrees': of the right shape, but
   * not describing the file the rest of the sidecar describes (statsClaimProblem, rad/stats/section.ts).
   */
  reason?: 'shape' | 'disagrees'
}

// Records, so that a kind, severity or part added to the core without being listed here fails to compile.
const ISSUE_KINDS: Record<IssueKind, true> = {
  'not-rad': true,
  'unsupported-version': true,
  truncated: true,
  'num-chunks-unknown': true,
  'num-chunks-too-large': true,
  'trailing-bytes': true,
  concatenated: true,
  'corrupt-header': true,
  'corrupt-chunk': true,
  'decompress-failed': true,
  'checksum-mismatch': true,
  'declared-length': true,
  'unknown-codec': true,
  'ext-less-prefix': true,
  'payload-only-nbytes': true,
  note: true,
}
const SEVERITIES: Record<Severity, true> = { error: true, warning: true, info: true }
const PARTS: Record<FilePart, true> = {
  prelude: true,
  'file-tag-values': true,
  'chunk-header': true,
  'chunk-records': true,
  'after-chunks': true,
}
const part = optional(oneOf(Object.keys(PARTS)))
const code = oneOf(RAD_ERROR_CODES)

/** The verdict section's JSON, as the integrity panel reads it (an issue's message is rendered as text). */
const verdictShape = shape({
  alignments: optional(num),
  issues: listOf(
    shape({
      kind: oneOf(Object.keys(ISSUE_KINDS)),
      severity: oneOf(Object.keys(SEVERITIES)),
      message: str,
      offset: optional(num),
      containerOffset: optional(num),
      chunk: optional(num),
      part,
      code: optional(code),
    }),
  ),
  damagedChunks: listOf(num),
  error: optional(nullable(shape({ code, message: str, offset: optional(num), chunk: optional(num), part }))),
})

/** The verdict section, or why it is dropped: a checksum says the bytes are as written, not that the writer was this one. */
export function asVerdict(value: unknown, status: SidecarStatus): SidecarVerdict | DroppedSection {
  // Depth first: an extra key nested too deep would overflow the stack when the verdict is copied on.
  const problem =
    value === undefined ? 'it is empty' : (depthProblem(value, 8, 'the section') ?? verdictShape(value, ''))
  if (problem !== undefined) return { section: 'verdict', why: problem }
  const v = value as Record<keyof SidecarVerdict, unknown>
  return {
    status,
    alignments: typeof v.alignments === 'number' ? v.alignments : undefined,
    issues: v.issues as IntegrityIssue[],
    damagedChunks: v.damagedChunks as number[],
    error: typeof v.error === 'object' && v.error !== null ? (v.error as RadErrorData) : undefined,
  }
}
