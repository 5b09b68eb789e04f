/**
 * What an annotation file is, from its content (docs/cells.md): the page takes
 * a t2g, gene names and a permit list dropped together with a RAD file, under
 * any names. The bytes are already gunzipped.
 */
import { decodeUtf8 } from '../cursor'
import { tableRows } from './annotations'

export type AnnotationKind = 't2g' | 'gene-names' | 'permit-list'

/** Bytes looked at: enough for a few hundred lines of any of the three. */
const SAMPLE = 64 << 10
const SEQUENCE = /^[ACGTacgt]+$/

/**
 * The kind of an annotation file, or undefined when it is none of them (binary,
 * empty, one column of anything but bases). A t2g and a gene-name table both
 * have two columns: a t2g's first column names references of the RAD file.
 */
export function annotationKind(bytes: Uint8Array, refNames: ReadonlySet<string>): AnnotationKind | undefined {
  const head = bytes.subarray(0, SAMPLE)
  if (head.includes(0)) return undefined
  const text = decodeUtf8(head)
  const rows = [...tableRows(text)].slice(0, 200)
  // The sample may end inside a line: drop the last row unless the file ends there.
  if (bytes.length > SAMPLE) rows.pop()
  const first = rows[0]?.[1]
  if (!first) return undefined
  if (rows.every(([, cols]) => cols.length === 1 && SEQUENCE.test(cols[0]!))) return 'permit-list'
  if (!rows.every(([, cols]) => cols.length >= 2)) return undefined
  return rows.some(([, cols]) => refNames.has(cols[0]!)) ? 't2g' : 'gene-names'
}

/** True when the bytes start with the gzip magic (a `.gz` permit list, whatever its name). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b
}
