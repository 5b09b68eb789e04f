/**
 * The per-cell QC pass (docs/cells.md): over every record, the alignments
 * whose reference has no gene; over the cells' records, the distinct
 * (gene, UMI) pairs of the gene-unique records (alevin-fry's `cr-like`
 * resolution without UMI correction); per distinct barcode, its records, for
 * the permit-list classes. Keys are packed words (§7.8), never strings.
 *
 * A pass may be counted in parts, each over its own chunks (the page's
 * workers: docs/cells.md, "On every core"): a part's counts leave as plain
 * arrays (exportPart) and are added to another's (absorb), whose state is
 * then exactly that of one pass over every chunk.
 */
import type { Semantics } from '../prelude/semantics'
import type { ChunkColumns } from '../types'
import { barcodeKey, wordsOf } from '../stats/accumulator'
import type { Words } from '../stats/accumulator'
import type { BarcodeSet } from '../stats/barcodeSet'
import { CountTable } from '../stats/countTable'
import { AMBIGUOUS, SPLICED, UNSPLICED } from './annotations'
import type { GeneMap } from './annotations'
import { RadError } from '../errors'
import { CellPairs } from './cellPairs'
import type { PairList } from './cellPairs'
import { duplicationJson, mergeUmiKeys, UmiDuplication } from './umiDuplication'
import type { UmiDuplicationJson, UmiKeys } from './umiDuplication'

/** No limit: the tables hold the cells' pairs exactly (their size is in docs/cells.md). */
const UNBOUNDED = 2 ** 31 - 1

/** What the pass leaves: plain arrays, turned into figures by cellsJson. */
export interface CellQcState {
  /** Cell keys (lo, hi) in cell-id order. */
  cellKeys: Uint32Array
  cellReads: Float64Array
  cellUmis: Float64Array
  cellGenes: Float64Array
  cellMitoUmis: Float64Array
  /** UMIs per gene summed over the cells. */
  geneUmis: Float64Array
  unmappedAlignments: number
  records: number
  /** Distinct barcodes (lo, hi) and their records; empty unless asked for (permit classes). */
  barcodeKeys: Uint32Array
  barcodeReads: Float64Array
  umiDuplication: UmiDuplicationJson
  /** Per cell, its (gene, UMI) pairs by splicing status; only with a t2g that gives every status. */
  splicing: { spliced: Float64Array; unspliced: Float64Array; ambiguous: Float64Array } | undefined
}

/** One part's counts as plain arrays (transferable), for another part to absorb. */
export interface CellQcPart {
  cellReads: Float64Array
  pairs: PairList
  unmappedAlignments: number
  records: number
  barcodeKeys: Uint32Array
  barcodeReads: Float64Array
  umiKeys: UmiKeys
}

/** The buffers of a part's counts, for a transfer list (they leave the worker that counted them). */
export function cellQcPartBuffers(p: CellQcPart): ArrayBuffer[] {
  const { cellReads, pairs, barcodeKeys, barcodeReads, umiKeys } = p
  const all = [cellReads, pairs.packed, pairs.wide, barcodeKeys, barcodeReads, umiKeys.keys].map((a) => a.buffer)
  return [...new Set(all)].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer && b.byteLength > 0)
}

interface ChunkViews {
  bc: Words | undefined
  umi: Words | undefined
  ref: Words | undefined
}

export class CellQc {
  private readonly cells: CountTable
  private readonly cellReads: Float64Array
  /**
   * The (cell, gene slot, UMI) keys (cellPairs.ts). With splicing statuses (docs/cells.md,
   * "Splicing") the slot is 2·gene + bit, and a record adds its key once for each status bit it
   * has (spliced 0, unspliced 1): a pair is spliced when only its bit-0 key is there, unspliced
   * when only bit 1, ambiguous when both.
   */
  private readonly pairs: CellPairs
  private readonly geneCount: number
  /** 2 with splicing statuses (a status bit beside each gene), else 1. */
  private readonly geneSlots: number
  private readonly statusOfRef: Uint8Array | undefined
  /** The status bits of the last record's alignments to its gene (recordGene). */
  private status = 0
  private readonly barcodes: CountTable | undefined
  private readonly refMask: number
  private unmapped = 0
  private records = 0
  /** Reads per (cell, UMI) over the cells' records (umiDuplication.ts). */
  private readonly duplication = new UmiDuplication()
  /** The kept UMI keys of the parts absorbed. */
  private readonly otherUmiKeys: UmiKeys[] = []
  private readonly key = new Uint32Array(4)

  private readonly sem: Semantics
  private readonly genes: GeneMap

  constructor(sem: Semantics, genes: GeneMap, cells: BarcodeSet, countBarcodes: boolean) {
    this.sem = sem
    this.genes = genes
    this.geneCount = Math.max(1, genes.genes.length)
    this.statusOfRef = genes.statusOfRef
    this.geneSlots = genes.statusOfRef ? 2 : 1
    this.pairs = new CellPairs(cells.size, this.geneCount * this.geneSlots)
    if (sem.barcodes.length !== 1 || !sem.umi || !sem.reference) {
      throw new RadError(
        'BAD_VALUE',
        'cell and gene figures need one barcode, a UMI and a reference per alignment (scRNA)',
      )
    }
    this.cells = new CountTable(2, Math.max(1, cells.size), Math.max(1, cells.size))
    for (let i = 0; i < cells.size; i++) this.cells.add(cells.keys, 2 * i, 0)
    this.cellReads = new Float64Array(cells.size)
    this.barcodes = countBarcodes ? new CountTable(2, UNBOUNDED, 1 << 16) : undefined
    const packed = sem.reference.packed
    this.refMask = packed === 'top2bits' ? 0x3fffffff : packed ? 0x7fffffff : 0xffffffff
  }

  private views(cols: ChunkColumns): ChunkViews {
    const sem = this.sem
    return {
      bc: wordsOf(cols.readColumns[sem.barcodes[0]!.tag]),
      umi: sem.umi ? wordsOf(cols.readColumns[sem.umi.tag]) : undefined,
      ref: sem.reference ? wordsOf(cols.alnColumns[sem.reference.tag]) : undefined,
    }
  }

  addChunk(cols: ChunkColumns): void {
    const v = this.views(cols)
    const key = this.key
    for (let r = 0; r < cols.recordCount; r++) {
      const gene = this.recordGene(v.ref, cols.alnStart[r]!, cols.alnStart[r + 1]!)
      if (!v.bc || !barcodeKey([v.bc], r, key)) continue
      this.records++
      this.barcodes?.add(key, 0, 1)
      const cell = this.cells.size > 0 ? this.cells.find(key, 0) : -1
      if (cell < 0) continue
      this.cellReads[cell]!++
      if (!v.umi) continue
      const umiLo = v.umi.wide ? v.umi.data[2 * r]! : v.umi.data[r]!
      const umiHi = v.umi.wide ? v.umi.data[2 * r + 1]! : 0
      this.duplication.add(cell, umiLo, umiHi)
      if (gene < 0) continue
      if (this.geneSlots === 1) this.pairs.add(cell, gene, umiLo, umiHi)
      else {
        if (this.status & SPLICED) this.pairs.add(cell, 2 * gene, umiLo, umiHi)
        if (this.status & UNSPLICED) this.pairs.add(cell, 2 * gene + 1, umiLo, umiHi)
      }
    }
  }

  /**
   * The record's one gene, or -1 when it has none or several (not gene-unique);
   * counts the alignments whose reference has no gene on the way, and keeps in
   * `status` the splicing bits of its alignments to its gene.
   */
  private recordGene(ref: Words | undefined, from: number, to: number): number {
    if (!ref) return -1
    const geneOfRef = this.genes.geneOfRef
    const statusOfRef = this.statusOfRef
    let gene = -1
    let unique = true
    let status = 0
    for (let k = from; k < to; k++) {
      const id = (ref.wide ? ref.data[2 * k]! : ref.data[k]!) & this.refMask
      const g = id < geneOfRef.length ? geneOfRef[id]! : -1
      if (g < 0) {
        this.unmapped++
        continue
      }
      if (gene < 0) gene = g
      else if (g !== gene) unique = false
      if (statusOfRef) status |= statusOfRef[id]!
    }
    this.status = status
    return unique ? gene : -1
  }

  /**
   * Every distinct (cell, gene, UMI) pair once, with its splicing status (SPLICED, UNSPLICED or
   * AMBIGUOUS; 0 without statuses).
   */
  private eachPair(visit: (cell: number, gene: number, status: number) => void): void {
    const pairs = this.pairs
    if (this.geneSlots === 1) {
      pairs.forEach((cell, gene) => {
        visit(cell, gene, 0)
      })
      return
    }
    pairs.forEach((cell, slot, umiLo, umiHi) => {
      const both = pairs.has(cell, slot ^ 1, umiLo, umiHi)
      if ((slot & 1) === 0) visit(cell, slot >>> 1, both ? AMBIGUOUS : SPLICED)
      else if (!both) visit(cell, slot >>> 1, UNSPLICED)
    })
  }

  /** This part's counts as plain arrays, for another part to absorb (the part is over: the UMI keys are its own). */
  exportPart(): CellQcPart {
    const b = this.barcodes
    return {
      cellReads: this.cellReads.slice(),
      pairs: this.pairs.list(),
      unmappedAlignments: this.unmapped,
      records: this.records,
      barcodeKeys: b ? b.keys.slice(0, 2 * b.size) : new Uint32Array(0),
      barcodeReads: b ? b.counts.slice(0, b.size) : new Float64Array(0),
      umiKeys: this.duplication.kept(),
    }
  }

  /** Adds another part's counts (over other chunks, the same cells and annotations). */
  absorb(part: CellQcPart): void {
    for (let c = 0; c < this.cellReads.length; c++) this.cellReads[c]! += part.cellReads[c]!
    this.pairs.addList(part.pairs)
    this.unmapped += part.unmappedAlignments
    this.records += part.records
    const b = this.barcodes
    if (b) for (let i = 0; i < part.barcodeReads.length; i++) b.add(part.barcodeKeys, 2 * i, part.barcodeReads[i]!)
    this.otherUmiKeys.push(part.umiKeys)
  }

  /**
   * Distinct genes per cell, from its pairs' genes grouped by cell (a counting sort by the UMIs
   * per cell, 4 bytes a pair) and each gene marked once per cell: a set of the (cell, gene) keys
   * took ~110 MB while growing on a 1 GiB 10x run, the peak of the whole command (ADR 0013).
   */
  private genesPerCell(umis: Float64Array): Float64Array {
    const n = umis.length
    const start = new Float64Array(n + 1)
    for (let c = 0; c < n; c++) start[c + 1] = start[c]! + umis[c]!
    const next = start.slice(0, n)
    const byCell = new Uint32Array(start[n]!)
    this.eachPair((cell, gene) => {
      byCell[next[cell]!++] = gene
    })
    const seenIn = new Int32Array(this.genes.genes.length).fill(-1)
    const genes = new Float64Array(n)
    for (let c = 0; c < n; c++) {
      for (let i = start[c]!; i < start[c + 1]!; i++) {
        const g = byCell[i]!
        if (seenIn[g] !== c) {
          seenIn[g] = c
          genes[c]!++
        }
      }
    }
    return genes
  }

  exportState(mito: Uint8Array): CellQcState {
    const n = this.cellReads.length
    const umis = new Float64Array(n)
    const mitoUmis = new Float64Array(n)
    const geneUmis = new Float64Array(this.genes.genes.length)
    const splicing = this.geneSlots === 2 ? splicingCounts(n) : undefined
    this.eachPair((cell, gene, status) => {
      umis[cell]!++
      geneUmis[gene]!++
      if (mito[gene] === 1) mitoUmis[cell]!++
      if (splicing) {
        const counts =
          status === SPLICED ? splicing.spliced : status === UNSPLICED ? splicing.unspliced : splicing.ambiguous
        counts[cell]!++
      }
    })
    const genes = this.genesPerCell(umis)
    const b = this.barcodes
    return {
      cellKeys: this.cells.keys.slice(0, 2 * this.cells.size),
      cellReads: this.cellReads,
      cellUmis: umis,
      cellGenes: genes,
      cellMitoUmis: mitoUmis,
      geneUmis,
      unmappedAlignments: this.unmapped,
      records: this.records,
      barcodeKeys: b ? b.keys.slice(0, 2 * b.size) : new Uint32Array(0),
      barcodeReads: b ? b.counts.slice(0, b.size) : new Float64Array(0),
      umiDuplication: duplicationJson(mergeUmiKeys([this.duplication.kept(), ...this.otherUmiKeys]), n),
      splicing,
    }
  }
}

function splicingCounts(cells: number): NonNullable<CellQcState['splicing']> {
  return { spliced: new Float64Array(cells), unspliced: new Float64Array(cells), ambiguous: new Float64Array(cells) }
}
