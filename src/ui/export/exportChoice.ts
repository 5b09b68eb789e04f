/**
 * The export dialog's choices (docs/subsets.md): which selections are available
 * now, and why not when they are not, and the chunk range as typed.
 */
import type { RecordFilter } from '../../rad/filter/recordFilter'
import { fmtCount, parseIndex } from '../format'

export type PickKind = 'filter' | 'chunks' | 'cells'

/** The knee plot's cut-off: the top `cells` barcodes, holding at least `minCount` records each. */
export interface KneeCut {
  cells: number
  minCount: number
  /** The share of the records those cells hold (0…1). */
  readsShare: number
}

/** What the page knows when the dialog opens. */
export interface ExportContext {
  /** The filter last run (undefined: none, or one the file could not answer). */
  filter: RecordFilter | undefined
  /** Chunks indexed. */
  chunks: number
  /** The index is complete (chunk numbers and the filter's re-run cover the whole file). */
  indexed: boolean
  statsDone: boolean
  /** The statistics counted cell barcodes. */
  hasBarcodes: boolean
  cut: KneeCut | undefined
}

/** Why `kind` cannot be exported now, or undefined when it can. */
export function unavailable(kind: PickKind, ctx: ExportContext): string | undefined {
  if (!ctx.indexed) return 'available once the file is indexed'
  if (kind === 'filter' && !ctx.filter) return 'run a filter first: Filter records'
  if (kind === 'chunks' && ctx.chunks === 0) return 'the file has no chunks'
  if (kind === 'cells') {
    if (!ctx.statsDone) return 'available once the statistics are done'
    if (!ctx.hasBarcodes || !ctx.cut) return 'this file has no cell barcodes to rank'
  }
  return undefined
}

/** The first available kind, preferring the filter (the usual way in: a barcode clicked, its records filtered). */
export function defaultPick(ctx: ExportContext): PickKind {
  return (['filter', 'cells', 'chunks'] as const).find((k) => unavailable(k, ctx) === undefined) ?? 'chunks'
}

/** The filter in words: `barcode ACGT…, reference /^ENST/`. */
export function describeFilter(f: RecordFilter): string {
  const parts: string[] = []
  if (f.barcode !== undefined) parts.push(`barcode ${f.barcode}${f.hamming === 1 ? ' (±1 base)' : ''}`)
  if (f.umi !== undefined) parts.push(`UMI ${f.umi}`)
  if (f.ref !== undefined) parts.push(`reference ${f.ref}`)
  if (f.minAln !== undefined) parts.push(`≥ ${fmtCount(f.minAln)} alignments`)
  if (f.maxAln !== undefined) parts.push(`≤ ${fmtCount(f.maxAln)} alignments`)
  if (f.orientation !== undefined) parts.push(`orientation ${f.orientation}`)
  if (f.fragMapType !== undefined) parts.push(`mapping type ${String(f.fragMapType)}`)
  return parts.join(', ')
}

/** Chunks from–to as typed (0-based, inclusive), or what is wrong with them. */
export function chunkRange(fromText: string, toText: string, chunks: number): { from: number; to: number } | string {
  const from = parseIndex(fromText.trim())
  const to = parseIndex(toText.trim())
  const last = chunks - 1
  if (from === undefined || to === undefined) {
    return `Type two chunk numbers from 0 to ${fmtCount(last)}.`
  }
  if (from > to) return `The first chunk (${fmtCount(from)}) comes after the last (${fmtCount(to)}).`
  if (to > last) return `The file has chunks 0 to ${fmtCount(last)}; there is no chunk ${fmtCount(to)}.`
  return { from, to }
}
