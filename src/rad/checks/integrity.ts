import type { FilePart, RadError, RadErrorCode } from '../errors'

/**
 * The integrity report (docs/integrity.md): every problem a scan finds, classified,
 * with the chunk and absolute byte offset involved.
 */
export type IssueKind =
  | 'not-rad'
  | 'unsupported-version'
  | 'truncated'
  | 'num-chunks-unknown'
  | 'num-chunks-too-large'
  | 'trailing-bytes'
  | 'concatenated'
  | 'corrupt-header'
  | 'corrupt-chunk'
  | 'decompress-failed'
  | 'checksum-mismatch'
  | 'declared-length'
  | 'unknown-codec'
  | 'ext-less-prefix'
  | 'payload-only-nbytes'
  | 'note'

/**
 * error: part of the file is unreadable or wrong; warning: readable, but the
 * file deviates from what it declares (trailing bytes, a length its type
 * cannot hold); info: a note about a well-formed file (a .sz stream was
 * unwrapped, payload-only nbytes). `rad validate` exits 1, 2 and 0 for them.
 */
export type Severity = 'error' | 'warning' | 'info'

export interface IntegrityIssue {
  kind: IssueKind
  severity: Severity
  message: string
  offset?: number
  /** The offset in the file itself, when `offset` is a position in an unwrapped stream (.sz, §6.1). */
  containerOffset?: number
  chunk?: number
  part?: FilePart
  code?: RadErrorCode
}

/**
 * clean: nothing to say; notes: well-formed, with things worth knowing;
 * warnings: readable, but deviating from what it declares;
 * damaged: some part is unreadable but everything before it is shown;
 * unreadable: not a RAD file, or its prelude cannot be read.
 */
export type IntegrityStatus = 'clean' | 'notes' | 'warnings' | 'damaged' | 'unreadable'

const KIND_OF_CODE: Partial<Record<RadErrorCode, IssueKind>> = {
  NOT_RAD: 'not-rad',
  UNSUPPORTED_VERSION: 'unsupported-version',
  TRUNCATED: 'truncated',
  BAD_TAG_TYPE: 'corrupt-header',
  BAD_HEADER: 'corrupt-header',
  BAD_CHUNK_HEADER: 'corrupt-chunk',
  CHUNK_OVERRUN: 'corrupt-chunk',
  CHUNK_UNDERRUN: 'corrupt-chunk',
  BAD_VALUE: 'corrupt-chunk',
  VALUE_TOO_LARGE: 'corrupt-header',
  BAD_CODEC: 'unknown-codec',
  DECOMPRESS_FAILED: 'decompress-failed',
  BAD_SNAPPY: 'decompress-failed',
}

/** An error found while reading, as a report line. */
export function issueFromError(e: RadError): IntegrityIssue {
  // Running out of file exactly after a whole chunk: num_chunks promised more.
  const short = e.code === 'TRUNCATED' && e.part === 'after-chunks'
  const issue: IntegrityIssue = {
    kind: short ? 'num-chunks-too-large' : (KIND_OF_CODE[e.code] ?? 'corrupt-chunk'),
    severity: 'error',
    message: e.message,
    code: e.code,
  }
  if (e.offset !== undefined) issue.offset = e.offset
  if (e.chunk !== undefined) issue.chunk = e.chunk
  if (e.part !== undefined) issue.part = e.part
  return issue
}

export function integrityStatus(issues: readonly IntegrityIssue[], preludeRead: boolean): IntegrityStatus {
  if (!preludeRead) return 'unreadable'
  if (issues.some((i) => i.severity === 'error')) return 'damaged'
  if (issues.some((i) => i.severity === 'warning')) return 'warnings'
  return issues.length > 0 ? 'notes' : 'clean'
}

/** Errors inside one chunk's records leave its neighbours readable: the walk goes on. */
export function isChunkLocal(code: RadErrorCode): boolean {
  return code === 'CHUNK_OVERRUN' || code === 'CHUNK_UNDERRUN' || code === 'BAD_VALUE' || code === 'DECOMPRESS_FAILED'
}
