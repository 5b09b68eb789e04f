/**
 * The view state kept in the page address's hash (docs/links.md): URL-encoded `key=value` pairs
 * joined by `&`, e.g. `#fp=…&record=1234567&open=1234567`, so a hand-written `#record=N` works too.
 * Pure functions, unit-tested (test/ui/deepLink.test.ts); useDeepLink.ts reads and writes the hash.
 */
export interface LinkState {
  /** The local file's fingerprint key (`fingerprintKey`, rad/sidecar/sidecar.ts): a link is for this file only. */
  fp?: string
  /** The record at the cursor (0-based, as the table shows it). */
  record?: number
  /** The chunk in view: used when no record is given. */
  chunk?: number
  /** The expanded record. */
  open?: number
  /** The open panel (useLinkedPanel; 'help' today): the page decides which names it knows. */
  panel?: string
  /** The record filter, kept verbatim: useLinkedFilter.ts writes it when a filter runs and restores it (filterDraft.ts's text). */
  filter?: string
}

/** The keys in the order they are written; anything else in a hash is ignored. */
const KEYS = ['fp', 'record', 'chunk', 'open', 'panel', 'filter'] as const
type Key = (typeof KEYS)[number]
const NUMERIC: ReadonlySet<Key> = new Set(['record', 'chunk', 'open'])

/** A record or chunk number: digits only (separators allowed), within the safe-integer range. */
function readIndex(text: string): number | undefined {
  const digits = text.replace(/[,_\s]/g, '')
  if (!/^\d+$/.test(digits)) return undefined
  const n = Number(digits)
  return Number.isSafeInteger(n) ? n : undefined
}

function decode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return undefined
  }
}

function isKey(k: string): k is Key {
  return (KEYS as readonly string[]).includes(k)
}

/** Reads `#a=1&b=2` (or without the `#`). Unknown keys, malformed values and empty values are dropped; the last of a repeated key wins. */
export function parseLink(hash: string): LinkState {
  const out: LinkState = {}
  const body = hash.startsWith('#') ? hash.slice(1) : hash
  for (const pair of body.split('&')) {
    const eq = pair.indexOf('=')
    if (eq <= 0) continue
    const key = decode(pair.slice(0, eq))
    const value = decode(pair.slice(eq + 1))
    if (key === undefined || value === undefined || value === '' || !isKey(key)) continue
    if (NUMERIC.has(key)) {
      const n = readIndex(value)
      if (n !== undefined) out[key as 'record' | 'chunk' | 'open'] = n
    } else {
      out[key as 'fp' | 'panel' | 'filter'] = value
    }
  }
  return out
}

/** Writes the hash (with its `#`), keys in a fixed order; '' when there is nothing to keep. */
export function formatLink(state: LinkState): string {
  const pairs: string[] = []
  for (const key of KEYS) {
    const value = state[key]
    if (value === undefined || value === '') continue
    pairs.push(`${key}=${encodeURIComponent(String(value))}`)
  }
  return pairs.length === 0 ? '' : `#${pairs.join('&')}`
}

/** True when the two states would write the same hash. */
export function sameLink(a: LinkState, b: LinkState): boolean {
  return formatLink(a) === formatLink(b)
}

/** True when a link asks for a place in the file once it is open: a record to show (`record`, else `chunk`) or one to expand (`open`). */
export function hasPosition(state: LinkState): boolean {
  return state.record !== undefined || state.chunk !== undefined || state.open !== undefined
}
