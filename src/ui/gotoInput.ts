import { fmtCount, parseIndex } from './format'

export type GotoTarget = 'record' | 'chunk'

/** A typed record/chunk number: the index to go to, or why the text cannot be one. */
export type GotoResult = { index: number } | { problem: string }

/** Reads "Go to record/chunk" input against `limit` indexed items (0-based, as the table shows them). */
export function readGoto(text: string, what: GotoTarget, limit: number): GotoResult {
  const range = limit > 0 ? `0 to ${fmtCount(limit - 1)}` : ''
  if (limit === 0) return { problem: `No ${what}s indexed yet.` }
  const trimmed = text.trim()
  if (trimmed === '') return { problem: `Type a ${what} number from ${range}.` }
  const n = parseIndex(trimmed)
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
