import { fmtCount, fmtCounted, parseIndex } from '../format'

export type GotoTarget = 'record' | 'chunk'

/**
 * A typed record/chunk number: the index to go to, or why the text cannot be one. `wait`: not
 * indexed yet, while the index grows; the table goes there once it is (useGoto.ts).
 */
export type GotoResult = { index: number; wait?: true } | { problem: string }

/**
 * Reads "Go to record/chunk" input against `limit` indexed items (0-based, as the table shows
 * them); while `indexing`, a number past them waits for them rather than being refused.
 */
export function readGoto(text: string, what: GotoTarget, limit: number, indexing = false): GotoResult {
  const range = limit > 0 ? `0 to ${fmtCount(limit - 1)}` : ''
  const trimmed = text.trim()
  const n = parseIndex(trimmed)
  if (indexing && n !== undefined && n >= limit) return { index: n, wait: true }
  if (limit === 0) return { problem: `No ${what}s indexed yet.` }
  if (trimmed === '') return { problem: `Type a ${what} number from ${range}.` }
  if (n !== undefined) {
    return n < limit
      ? { index: n }
      : { problem: `There are ${fmtCount(limit)} ${what}s indexed: ${what} numbers go from ${range}.` }
  }
  const shown = trimmed.length > 24 ? `${trimmed.slice(0, 24)}…` : trimmed
  if (/^-\s*\d/.test(trimmed)) return { problem: `${cap(what)}s are numbered from 0: type ${range}.` }
  if (/^[\d\s,_]*[.eE][\d\s,_]*$/.test(trimmed)) {
    return { problem: `“${shown}” is not a whole number: type a ${what} number from ${range}.` }
  }
  if (/^[\d\s,_]+$/.test(trimmed)) return { problem: `“${shown}” is too large: type a ${what} number from ${range}.` }
  return { problem: `“${shown}” is not a ${what} number: use digits only, from ${range}.` }
}

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}

/** What "Go to" says while it waits for `index` to be indexed (`limit` are so far). */
export function waitingText(what: GotoTarget, index: number, limit: number): string {
  return `${cap(what)} ${fmtCount(index)} is not indexed yet (${fmtCounted(limit, what)} so far): going there once it is…`
}
