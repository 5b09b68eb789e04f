/**
 * What an annotation file is, from its content (docs/cells.md): the page takes
 * a t2g, gene names and a permit list dropped together with a RAD file, under
 * any names. The bytes are already gunzipped.
 */
import { decodeUtf8 } from '../decode/cursor'
import { RadError } from '../errors'
import type { NamedBytes } from './cellsPass'
import { tableRows } from './annotations'

export type AnnotationKind = 't2g' | 'gene-names' | 'permit-list'

/** Bytes looked at: enough for a few hundred lines of any of the three. */
const SAMPLE = 64 << 10
/** The head of a file annotationEvidence needs: the sample and one byte more (whether the sample ends the file). */
export const SNIFF_BYTES = SAMPLE + 1
/** A barcode, with Cell Ranger's gem-group suffix (`-1`) or without. */
const SEQUENCE = /^[ACGTacgt]+(-\d+)?$/

/** A file's kind, and which of its columns showed it, in words (the page says both). */
export interface AnnotationEvidence {
  kind: AnnotationKind | undefined
  why: string
}

const lines = (n: number): string => `${String(n)} line${n === 1 ? '' : 's'}`

/**
 * The kind of an annotation file, and why, or undefined when it is none of them (binary, empty,
 * one column of anything but bases). A t2g and a gene-name table both have two columns: a t2g's
 * first column names references of the RAD file. `bytes` are the file's, or its first SNIFF_BYTES.
 */
export function annotationEvidence(bytes: Uint8Array, refNames: ReadonlySet<string>): AnnotationEvidence {
  const head = bytes.subarray(0, SAMPLE)
  if (head.includes(0)) return { kind: undefined, why: 'binary data' }
  const text = decodeUtf8(head)
  const rows = tableRows(text).slice(0, 200)
  // The sample may end inside a line: drop the last row unless the file ends there.
  if (bytes.length > SAMPLE) rows.pop()
  if (!rows[0]?.[1]) return { kind: undefined, why: 'no lines' }
  const twoColumns = rows.every(([, cols]) => cols.length >= 2)
  const named = rows.filter(([, cols]) => refNames.has(cols[0]!)).length
  if (twoColumns && named > 0) {
    return {
      kind: 't2g',
      why: `column 1 names references of this file in ${lines(named)} of the first ${lines(rows.length)}`,
    }
  }
  // A first column of mostly barcodes (Cell Ranger's `-1` suffix allowed), with or without more
  // columns (a count beside each: the parser reads the first): a permit list, whose junk lines the
  // parser then names (parsePermitList), rather than gene names or a file of no kind.
  const barcodes = rows.filter(([, cols]) => SEQUENCE.test(cols[0]!)).length
  if (barcodes > 0 && 2 * barcodes >= rows.length) {
    return { kind: 'permit-list', why: `column 1 is bases in ${lines(barcodes)} of the first ${lines(rows.length)}` }
  }
  if (twoColumns) return { kind: 'gene-names', why: 'two columns, and column 1 names none of this file’s references' }
  return { kind: undefined, why: 'one column of something other than barcodes' }
}

export function annotationKind(bytes: Uint8Array, refNames: ReadonlySet<string>): AnnotationKind | undefined {
  return annotationEvidence(bytes, refNames).kind
}

/** True when the bytes start with the gzip magic (a `.gz` permit list, whatever its name). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x1f && bytes[1] === 0x8b
}

/** The files the user gave, each with the kind its content shows (undefined: none of the three). */
export interface SortedAnnotations<F extends NamedBytes = NamedBytes> {
  t2g: F | undefined
  geneNames: F | undefined
  permitList: F | undefined
  kinds: { name: string; kind: AnnotationKind | undefined; why: string }[]
}

const KIND_WORDS: Record<AnnotationKind, string> = {
  t2g: 'a transcript-to-gene map',
  'gene-names': 'a gene-name table',
  'permit-list': 'a permit list',
}

/**
 * Sorts gunzipped annotation files by content, whatever their names (docs/cells.md): at most one of
 * each kind. Files of no kind are listed, not fatal; two of one kind are, since either could be meant.
 * Each file's `bytes` may be its first SNIFF_BYTES only (the page's files are read as streams).
 */
export function sortAnnotations<F extends NamedBytes>(
  files: readonly F[],
  refNames: readonly string[],
): SortedAnnotations<F> {
  const refs = new Set(refNames)
  const sorted: SortedAnnotations<F> = { t2g: undefined, geneNames: undefined, permitList: undefined, kinds: [] }
  for (const file of files) {
    const { kind, why } = annotationEvidence(file.bytes, refs)
    sorted.kinds.push({ name: file.name, kind, why })
    if (kind === undefined) continue
    const slot = kind === 't2g' ? 't2g' : kind === 'gene-names' ? 'geneNames' : 'permitList'
    const earlier = sorted[slot]
    if (earlier) {
      throw new RadError('BAD_VALUE', `${earlier.name} and ${file.name} are both ${KIND_WORDS[kind]}: give one`)
    }
    sorted[slot] = file
  }
  return sorted
}

/** Why the sorted files cannot make cell figures (no t2g), in words naming what each file was taken for. */
export function missingT2g(sorted: SortedAnnotations): string | undefined {
  if (sorted.t2g) return undefined
  const seen = sorted.kinds.map(({ name, kind }) => `${name}: ${kind ? KIND_WORDS[kind] : 'none of the three'}`)
  return (
    'cell figures need a transcript-to-gene map whose first column names this file’s references' +
    (seen.length > 0 ? ` (${seen.join('; ')})` : '')
  )
}
