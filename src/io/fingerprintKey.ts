import type { FileFingerprint } from './fileFingerprint'

/** Hex digits of SHA-256 kept in the key: 64 bits tell apart any files one person caches. */
const HASH_HEX_DIGITS = 16

/**
 * A short, stable name for a file as it was opened: `SIZE-HASH`, the size in bytes and a SHA-256
 * of the size and the bytes at both ends (fileFingerprint.ts). Deep links (`#fp=…`), the index
 * cache and the recent-files list key on it; a rewrite, an append or a truncation changes it.
 */
export async function fingerprintKey(fp: FileFingerprint): Promise<string> {
  const size = new TextEncoder().encode(`${String(fp.size)}:`)
  const all = new Uint8Array(size.length + fp.head.length + fp.tail.length)
  all.set(size, 0)
  all.set(fp.head, size.length)
  all.set(fp.tail, size.length + fp.head.length)
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all))
  let hex = ''
  for (const b of digest) hex += b.toString(16).padStart(2, '0')
  return `${String(fp.size)}-${hex.slice(0, HASH_HEX_DIGITS)}`
}
