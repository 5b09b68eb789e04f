/**
 * The two small text tables of an alevin-fry run (docs/cells.md): the
 * transcript-to-gene map (`t2g.tsv`, `t2g_3col.tsv`) and gene names
 * (`gene_id_to_name.tsv`). Tab-separated, extra columns ignored, `#` lines and
 * blank lines skipped. Errors name the file and the line.
 */
import { decodeUtf8Strict } from '../runtime'
import { RadError } from '../errors'
import { MAX_LINE_BYTES, lineTooLong, readLines } from './lineBlocks'
import type { AnnotationStream } from './lineBlocks'

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

/** The line of bytes[at] in bytes[start, …), the first being `firstLine`. */
function lineAt(bytes: Uint8Array, start: number, at: number, firstLine: number): number {
  let line = firstLine
  for (let i = bytes.indexOf(NEWLINE, start); i >= 0 && i < at; i = bytes.indexOf(NEWLINE, i + 1)) line++
  return line
}

const NEWLINE = 10

/**
 * The rows of a text table as its lines come (lineBlocks.ts), as [line number, columns], skipping
 * blank and `#` lines and a line the same as the one before (a file of one line repeated 60M times
 * is one row). Binary data (a NUL byte, invalid UTF-8) is an error naming the line. Each run of whole
 * lines is decoded at once, then cut line by line (no array of every line).
 */
export class TableRows {
  private previous = ''
  private readonly name: string
  private readonly row: (line: number, cols: string[]) => void

  constructor(name: string, row: (line: number, cols: string[]) => void) {
    this.name = name
    this.row = row
  }

  /** A run of whole lines (a LineBlockVisitor); returns how many. */
  readonly block = (bytes: Uint8Array, start: number, end: number, firstLine: number): number => {
    const run = bytes.subarray(start, end)
    const nul = run.indexOf(0)
    if (nul >= 0) {
      throw new RadError(
        'BAD_VALUE',
        `${this.name} line ${String(lineAt(run, 0, nul, firstLine))}: binary data (a NUL byte), not a text table`,
      )
    }
    let text: string
    try {
      text = decodeUtf8Strict(run)
    } catch {
      throw new RadError(
        'BAD_VALUE',
        `${this.name} line ${String(notUtf8Line(run, firstLine))}: binary data (not UTF-8 text), not a text table`,
      )
    }
    return this.text(text, firstLine)
  }

  /** Whole lines as text (the last may lack its newline); returns how many. */
  text(text: string, firstLine: number): number {
    let line = firstLine
    for (let start = 0; start < text.length; line++) {
      // A run of blank lines is passed at once (2 GiB of newlines is 2G lines).
      while (text.charCodeAt(start) === 10) {
        start++
        line++
      }
      if (start >= text.length) break
      const nl = text.indexOf('\n', start)
      const end = nl < 0 ? text.length : nl
      if (end - start > MAX_LINE_BYTES) throw lineTooLong(this.name, line)
      const stop = text.charCodeAt(end - 1) === 13 ? end - 1 : end
      const from = start
      start = end + 1
      // The line before again: compared in place, no string made.
      if (stop - from === this.previous.length && text.startsWith(this.previous, from)) continue
      const row = text.slice(from, stop)
      if (row.trim() === '' || row.startsWith('#')) continue
      this.previous = row
      this.row(line, columns(row))
    }
    return line - firstLine
  }
}

/** The row's tab-separated columns, as row.split('\t') gives them: in V8, split took 2.5 times as long on short rows. */
function columns(row: string): string[] {
  const cols: string[] = []
  let from = 0
  for (let tab = row.indexOf('\t'); tab >= 0; tab = row.indexOf('\t', from)) {
    cols.push(row.slice(from, tab))
    from = tab + 1
  }
  cols.push(row.slice(from))
  return cols
}

/** The first line of bytes that is not UTF-8 (each decoded alone; only once the whole run was found not to be). */
function notUtf8Line(bytes: Uint8Array, firstLine: number): number {
  let line = firstLine
  for (let start = 0; start < bytes.length; line++) {
    const nl = bytes.indexOf(NEWLINE, start)
    const end = nl < 0 ? bytes.length : nl
    try {
      decodeUtf8Strict(bytes.subarray(start, end))
    } catch {
      return line
    }
    start = end + 1
  }
  return line
}

/** The table's rows as [line number, columns], skipping blank and `#` lines (a sample of a file: annotationSniff.ts). */
export function tableRows(text: string): [number, string[]][] {
  const rows: [number, string[]][] = []
  new TableRows('the table', (line, cols) => rows.push([line, cols])).text(text, 1)
  return rows
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

interface Collector<T> {
  row: (line: number, cols: string[]) => void
  finish: () => T
}

/**
 * A t2g's rows against the file's reference names (exact names; docs/cells.md). Only the rows that
 * name a reference of the file are kept (their genes, the line each was first seen on): a t2g of
 * a bigger index costs the memory of the file's references, not of its own rows.
 */
function t2gCollector(refNames: readonly string[], name: string): Collector<GeneMap> {
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
  const row = (line: number, cols: string[]): void => {
    const [tx, gene] = twoColumns(cols, name, line, 'a transcript and a gene')
    if (rows++ === 0) firstTx = tx
    const status = statusOf(cols[2])
    if (status !== 0) withStatus++
    const r = refIndex.get(tx)
    if (r === undefined) return
    const earlier = firstLineOfRef[r]!
    if (earlier > 0) {
      const before = genes[geneOfRef[r]!]!
      if (before !== gene) {
        throw new RadError(
          'BAD_VALUE',
          `${name} line ${String(line)}: ${tx} maps to ${gene}, but line ${String(earlier)} maps it to ${before}`,
        )
      }
      return
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
  const finish = (): GeneMap => {
    if (rows === 0) throw new RadError('BAD_VALUE', `${name} has no rows: expected a transcript and a gene per line`)
    if (matched === 0) {
      throw new RadError(
        'BAD_VALUE',
        `${name}: none of its ${String(rows)} transcripts is a reference of this file (its first: "${firstTx}"; the file's first reference: "${refNames[0] ?? ''}")`,
      )
    }
    return { genes, geneOfRef, matched, statusOfRef: withStatus === rows ? statusOfRef : undefined }
  }
  return { row, finish }
}

/**
 * Gene id → gene name. With `wanted` (the genes of the t2g's rows the file names), only those are
 * kept: a table of every gene of every species costs the memory of the file's genes.
 */
function geneNamesCollector(name: string, wanted: ReadonlySet<string> | undefined): Collector<Map<string, string>> {
  const names = new Map<string, string>()
  let rows = 0
  return {
    row: (line, cols) => {
      const [id, label] = twoColumns(cols, name, line, 'a gene id and a gene name')
      rows++
      if (!names.has(id) && (wanted === undefined || wanted.has(id))) names.set(id, label)
    },
    finish: () => {
      if (rows === 0) {
        throw new RadError('BAD_VALUE', `${name} has no rows: expected a gene id and a gene name per line`)
      }
      return names
    },
  }
}

/** The collector's result from a text given whole. */
function fromText<T>(text: string, name: string, collector: Collector<T>): T {
  new TableRows(name, collector.row).text(text, 1)
  return collector.finish()
}

/** The collector's result from a file as its pieces come. */
async function fromStream<T>(file: AnnotationStream, collector: Collector<T>): Promise<T> {
  await readLines(file, new TableRows(file.name, collector.row).block)
  return collector.finish()
}

/** Parses a t2g given as text (t2gCollector). */
export function parseT2g(text: string, refNames: readonly string[], name = 'the t2g'): GeneMap {
  return fromText(text, name, t2gCollector(refNames, name))
}

/** Reads a t2g as its pieces come (t2gCollector): memory is the file's references', not the t2g's size. */
export function readT2g(file: AnnotationStream, refNames: readonly string[]): Promise<GeneMap> {
  return fromStream(file, t2gCollector(refNames, file.name))
}

/** Parses gene id → gene name given as text (geneNamesCollector). */
export function parseGeneNames(
  text: string,
  name = 'the gene names',
  wanted?: ReadonlySet<string>,
): Map<string, string> {
  return fromText(text, name, geneNamesCollector(name, wanted))
}

/** Reads gene id → gene name as its pieces come, keeping the `wanted` genes' (geneNamesCollector). */
export function readGeneNames(file: AnnotationStream, wanted?: ReadonlySet<string>): Promise<Map<string, string>> {
  return fromStream(file, geneNamesCollector(file.name, wanted))
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
