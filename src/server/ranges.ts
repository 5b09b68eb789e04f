/**
 * The `Range` header of a request for a served file (RFC 9110 §14), one range only.
 *
 * - no header, or a unit other than `bytes` → the whole file (the RFC says to ignore such a header);
 * - `bytes=a-b`, `bytes=a-`, `bytes=-n` inside the file → that span (the end clamped to the file);
 * - anything else under `bytes=` (malformed, several ranges, past the end, an empty file) →
 *   unsatisfiable, answered with 416. The RFC lets a server ignore a malformed or multi-range header
 *   and send the whole file instead; for a 50 GB file a 416 is the better answer to a confused client.
 */
export interface ByteSpan {
  /** First byte, inclusive. */
  start: number
  /** Last byte, inclusive (as in `Content-Range`). */
  end: number
}

export type RangeRequest = { kind: 'whole' } | { kind: 'span'; span: ByteSpan } | { kind: 'unsatisfiable' }

const SINGLE_RANGE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i

/** Digits as a safe integer, or undefined (too long for exact arithmetic). */
function position(digits: string): number | undefined {
  const n = Number(digits)
  return Number.isSafeInteger(n) ? n : undefined
}

export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined || !/^bytes=/i.test(header.trimStart())) return { kind: 'whole' }
  const match = SINGLE_RANGE.exec(header.trim())
  const first = match?.[1] ?? ''
  const last = match?.[2] ?? ''
  if (!match || (first === '' && last === '')) return { kind: 'unsatisfiable' }
  if (first === '') {
    const suffix = position(last)
    if (suffix === undefined || suffix === 0 || size === 0) return { kind: 'unsatisfiable' }
    return { kind: 'span', span: { start: Math.max(0, size - suffix), end: size - 1 } }
  }
  const start = position(first)
  const end = last === '' ? size - 1 : position(last)
  if (start === undefined || start >= size) return { kind: 'unsatisfiable' }
  if (end === undefined) return { kind: 'span', span: { start, end: size - 1 } }
  if (end < start) return { kind: 'unsatisfiable' }
  return { kind: 'span', span: { start, end: Math.min(end, size - 1) } }
}
