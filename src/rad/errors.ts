/**
 * The one error class for problems found in a file. Every instance carries a
 * stable `code` and, where it is known, the absolute byte offset of the
 * problem, so the UI and the CLI can say exactly where the file went wrong.
 * Internal bugs stay plain `Error`s.
 */
export const RAD_ERROR_CODES = [
  'NOT_RAD',
  'UNSUPPORTED_VERSION',
  'TRUNCATED',
  'BAD_TAG_TYPE',
  'BAD_HEADER',
  'BAD_CHUNK_HEADER',
  'CHUNK_OVERRUN',
  'CHUNK_UNDERRUN',
  'VALUE_TOO_LARGE',
  'BAD_VALUE',
  'BAD_CODEC',
  'DECOMPRESS_FAILED',
  'BAD_SNAPPY',
  'READ_FAILED',
  /** The file changed on disk after it was opened (the page compares a fingerprint, io/fileFingerprint.ts). */
  'FILE_CHANGED',
  /**
   * A URL could not be read: the server answered with an error, refused, stopped sending, or
   * could not be reached (io/httpSource.ts). Says nothing about the file's bytes, and never
   * that it changed: that is FILE_CHANGED, from a differing ETag, Last-Modified or size.
   */
  'FETCH_FAILED',
  'WORKER_FAILED',
  'CANCELLED',
  /** More barcodes than the page lists one by one (its statistics keep a digest instead: ADR 0016). */
  'TOO_MANY_BARCODES',
] as const

export type RadErrorCode = (typeof RAD_ERROR_CODES)[number]

/** Which part of the file a problem lies in (for the integrity report). */
export type FilePart = 'prelude' | 'file-tag-values' | 'chunk-header' | 'chunk-records' | 'after-chunks'

export interface RadErrorData {
  code: RadErrorCode
  message: string
  offset?: number
  chunk?: number
  part?: FilePart
}

export class RadError extends Error {
  override readonly name = 'RadError'
  readonly code: RadErrorCode
  /** Absolute byte offset in the file (in the decompressed stream for `.sz`). */
  readonly offset: number | undefined
  /** Chunk number the problem belongs to, when it belongs to one. */
  readonly chunk: number | undefined
  readonly part: FilePart | undefined

  constructor(code: RadErrorCode, message: string, offset?: number, chunk?: number, part?: FilePart) {
    super(message)
    this.code = code
    this.offset = offset
    this.chunk = chunk
    this.part = part
  }

  /** The same error, attributed to a chunk (keeps code, offset, message). */
  inChunk(chunk: number): RadError {
    return this.chunk === chunk ? this : new RadError(this.code, this.message, this.offset, chunk, this.part)
  }

  /** The same error, placed in a part of the file unless it already is. */
  inPart(part: FilePart): RadError {
    return this.part !== undefined ? this : new RadError(this.code, this.message, this.offset, this.chunk, part)
  }

  toData(): RadErrorData {
    const data: RadErrorData = { code: this.code, message: this.message }
    if (this.offset !== undefined) data.offset = this.offset
    if (this.chunk !== undefined) data.chunk = this.chunk
    if (this.part !== undefined) data.part = this.part
    return data
  }

  static fromData(data: RadErrorData): RadError {
    return new RadError(data.code, data.message, data.offset, data.chunk, data.part)
  }
}

export function isRadErrorCode(value: unknown): value is RadErrorCode {
  return typeof value === 'string' && (RAD_ERROR_CODES as readonly string[]).includes(value)
}

/** `1234567` → `1,234,567`: byte offsets and counts in messages people read. */
export function fmtInt(n: number | bigint): string {
  return n.toLocaleString('en-US')
}

/** `1 chunk`, `2 chunks`: a count and its noun, pluralised with `s` unless `many` is given. */
export function plural<N extends number | bigint>(
  n: N,
  one: string,
  many = `${one}s`,
  format: (n: N) => string = String,
): string {
  return `${format(n)} ${n === 1 || n === 1n ? one : many}`
}

export function truncatedError(what: string, needed: number, offset: number, fileEnd: number): RadError {
  const left = Math.max(0, fileEnd - offset)
  return new RadError(
    'TRUNCATED',
    `file ends inside ${what}: ${fmtInt(needed)} bytes expected at byte ${fmtInt(offset)}, ` +
      `but only ${fmtInt(left)} remain (file size ${fmtInt(fileEnd)})`,
    offset,
  )
}
