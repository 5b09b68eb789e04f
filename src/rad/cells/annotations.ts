/**
 * The two small text tables of an alevin-fry run (docs/cells.md): the
 * transcript-to-gene map (`t2g.tsv`, `t2g_3col.tsv`) and gene names
 * (`gene_id_to_name.tsv`). Tab-separated, extra columns ignored, `#` lines and
 * blank lines skipped. Errors name the file and the line.
 */
import { decodeUtf8Strict } from '../runtime'
import { RadError } from '../errors'

export interface GeneMap {
  /** Gene ids of the file's references, in order of first appearance in the t2g. */
  genes: string[]
  /** Per reference id of the RAD file: its gene's index in `genes`, or -1 (not in the t2g). */
  geneOfRef: Int32Array
  /** References with a gene. */
  matched: number
  /**
   * Per reference id: its splicing status from the t2g's third column (SPLICED, UNSPLICED; 0 when
   * none); undefined unless every line of the t2g has S or U there (simpleaf's t2g_3col.tsv).
   */
  statusOfRef: Uint8Array | undefined
}

/** A reference's splicing status, as bits: a record on both kinds is ambiguous (docs/cells.md, "Splicing"). */
export const SPLICED = 1
export const UNSPLICED = 2
export const AMBIGUOUS = SPLICED | UNSPLICED

function statusOf(col: string | undefined): number {
  const c = col?.trim()
  return c === 'S' ? SPLICED : c === 'U' ? UNSPLICED : 0
}

/** Text of an annotation file; binary data (a NUL byte, invalid UTF-8) is an error naming the line. */
export function annotationText(bytes: Uint8Array, name: string): string {
  const nul = bytes.indexOf(0)
  if (nul >= 0) {
    throw new RadError(
      'BAD_VALUE',
      `${name} line ${String(lineAt(bytes, nul))}: binary data (a NUL byte), not a text table`,
    )
  }
  try {
    return decodeUtf8Strict(bytes)
  } catch {
    throw new RadError('BAD_VALUE', `${name}: binary data (not UTF-8 text), not a text table`)
  }
}

function lineAt(bytes: Uint8Array, at: number): number {
  let line = 1
  for (let i = 0; i < at; i++) if (bytes[i] === 10) line++
  return line
}

/**
 * The table's rows as [line number, columns], skipping blank and `#` lines. Lines are cut from the
 * text one at a time (no array of every line: a 300 MB t2g would hold millions of strings at once).
 */
export function* tableRows(text: string): Generator<[number, string[]]> {
  let line = 0
  for (let start = 0; start < text.length;) {
    const nl = text.indexOf('\n', start)
    const end = nl < 0 ? text.length : nl
    line++
    const row = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end)
    start = end + 1
    if (row.trim() === '' || row.startsWith('#')) continue
    yield [line, row.split('\t')]
  }
}

function twoColumns(cols: string[], name: string, line: number, what: string): [string, string] {
  const [a, b] = cols
  if (a === undefined || b === undefined || a === '' || b === '') {
    throw new RadError(
      'BAD_VALUE',
      `${name} line ${String(line)}: expected ${what}, tab-separated; found "${cols.join('\t').slice(0, 60)}"`,
    )
  }
  return [a, b]
}

/**
 * Parses a t2g against the file's reference names (exact names; docs/cells.md). Only the rows that
 * name a reference of the file are kept (their genes, the line each was first seen on): a t2g of
 * a bigger index costs the memory of the file's references, not of its own rows.
 */
export function parseT2g(text: string, refNames: readonly string[], name = 'the t2g'): GeneMap {
  const refIndex = new Map<string, number>()
  refNames.forEach((n, i) => refIndex.set(n, i))
  const geneIndex = new Map<string, number>()
  const genes: string[] = []
  const geneOfRef = new Int32Array(refNames.length).fill(-1)
  const firstLineOfRef = new Float64Array(refNames.length)
  const statusOfRef = new Uint8Array(refNames.length)
  let rows = 0
  let matched = 0
  let withStatus = 0
  let firstTx = ''
  for (const [line, cols] of tableRows(text)) {
    const [tx, gene] = twoColumns(cols, name, line, 'a transcript and a gene')
    if (rows++ === 0) firstTx = tx
    const status = statusOf(cols[2])
    if (status !== 0) withStatus++
    const r = refIndex.get(tx)
    if (r === undefined) continue
    const earlier = firstLineOfRef[r]!
    if (earlier > 0) {
      const before = genes[geneOfRef[r]!]!
      if (before !== gene) {
        throw new RadError(
          'BAD_VALUE',
          `${name} line ${String(line)}: ${tx} maps to ${gene}, but line ${String(earlier)} maps it to ${before}`,
        )
      }
      continue
    }
    let g = geneIndex.get(gene)
    if (g === undefined) {
      g = genes.push(gene) - 1
      geneIndex.set(gene, g)
    }
    firstLineOfRef[r] = line
    geneOfRef[r] = g
    statusOfRef[r] = status
    matched++
  }
  if (rows === 0) throw new RadError('BAD_VALUE', `${name} has no rows: expected a transcript and a gene per line`)
  if (matched === 0) {
    throw new RadError(
      'BAD_VALUE',
      `${name}: none of its ${String(rows)} transcripts is a reference of this file (its first: "${firstTx}"; the file's first reference: "${refNames[0] ?? ''}")`,
    )
  }
  return { genes, geneOfRef, matched, statusOfRef: withStatus === rows ? statusOfRef : undefined }
}

/** Parses gene id → gene name. */
export function parseGeneNames(text: string, name = 'the gene names'): Map<string, string> {
  const names = new Map<string, string>()
  for (const [line, cols] of tableRows(text)) {
    const [id, label] = twoColumns(cols, name, line, 'a gene id and a gene name')
    if (!names.has(id)) names.set(id, label)
  }
  if (names.size === 0) {
    throw new RadError('BAD_VALUE', `${name} has no rows: expected a gene id and a gene name per line`)
  }
  return names
}

/** A gene's label: its name, or its id when no name is given. */
export function geneLabels(map: GeneMap, names: ReadonlyMap<string, string> | undefined): string[] {
  return map.genes.map((id) => names?.get(id) ?? id)
}

/** The default mitochondrial pattern (docs/cells.md). */
export const DEFAULT_MITO = '^(MT|mt)-'

/** Per gene: 1 when its label matches the mito pattern. */
export function mitoGenes(labels: readonly string[], pattern: string): Uint8Array {
  let re: RegExp
  try {
    re = new RegExp(pattern)
  } catch (e) {
    throw new RadError(
      'BAD_VALUE',
      `--mito ${pattern} is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`,
    )
  }
  return Uint8Array.from(labels, (l) => (re.test(l) ? 1 : 0))
}
