/**
 * The whole-file statistics pass (docs/stats.md): one accumulator per worker takes decoded
 * chunks (ChunkColumns) and counts in typed arrays; states merge, so the figures do not depend on
 * how chunks were split between workers while no cap is reached. Barcodes and UMIs are counted
 * in barcodeUmiCounts.ts, alignments in alignmentCounts.ts.
 */
import type { Semantics } from '../prelude/semantics'
import type { ChunkColumns, NbytesConvention, Prelude } from '../types'
import { CHUNK_HEADER_BYTES, chunkSpan, recordLayout, u32le } from '../decode/chunk'
import { chunkRecordCount } from '../decode/chunkHeader'
import type { ScRnaShape } from './pairCountingCore'
import { AlignmentCounts, DENSE_HISTOGRAM, addInto } from './alignmentCounts'
import { BarcodeUmiCounts } from './barcodeUmiCounts'
import { Histogram } from './countTable'
import { countable } from './keys'
import { partitionBuffers, withoutPairs } from './pairPartitions'
import type { StateExport, StatsOptions, StatsState } from './statsTypes'

export { ORIENTATIONS } from './alignmentCounts'
export { barcodeKey, wordsOf } from './keys'
export type { Words } from './keys'

/**
 * Caps of the tables, sized for ≤ 3 accumulators under 512 MB (docs/stats.md "Memory"). An
 * entry costs its key (4·W bytes), a count (8), and its share of the slots (2 words each, load
 * ≤ ¾). One-level barcodes: 1.5M entries ≈ 41 MB; pairs (W = 4): 2^20 entries ≈ 41 MB.
 */
export const DEFAULT_MAX_BARCODES = 1_500_000
export const DEFAULT_MAX_PAIRS = 1 << 20
/**
 * Distinct pairs counted exactly by partitions (4 bytes each and an eighth of room,
 * partitionLists.ts): 40M pairs, ~180 MB, keep a 1 GiB 10x run (~36M pairs) exact under 512 MB
 * (bench/results.md, ADR 0009's fourth and eighth rounds; ADR 0013).
 */
export const DEFAULT_MAX_EXACT_PAIRS = 40_000_000
export { DEFAULT_TOP } from './figures'

export class StatsAccumulator {
  records = 0
  alignments = 0
  readonly alnPerRecord = new Histogram(DENSE_HISTOGRAM)
  readonly keys: BarcodeUmiCounts
  readonly aln: AlignmentCounts
  chunkRecords = new Float64Array(0)
  chunkBarcodes = new Uint8Array(0)
  readonly notes: string[] = []
  /** Where a plain chunk's fields are, when the counting core can count its bytes (addChunkBytes). */
  private readonly scRna: ScRnaShape | undefined

  constructor(prelude: Prelude, sem: Semantics, opts: StatsOptions = {}) {
    const barcodeTags = sem.barcodes.map((f) => f.tag)
    const unsupported = sem.barcodes.filter((f) => !countable(prelude.readTags[f.tag]))
    for (const f of unsupported) {
      this.notes.push(`barcode tag "${f.name}" is not an integer of ≤ 8 bytes: barcodes not counted`)
    }
    const umiOk = sem.umi !== undefined && countable(prelude.readTags[sem.umi.tag])
    if (sem.umi && !umiOk) this.notes.push(`UMI tag "${sem.umi.name}" is not an integer of ≤ 8 bytes: UMIs not counted`)
    this.keys = new BarcodeUmiCounts(
      { barcodeTags: unsupported.length > 0 ? [] : barcodeTags, umiTag: umiOk ? sem.umi?.tag : undefined },
      {
        maxBarcodes: opts.maxBarcodes ?? DEFAULT_MAX_BARCODES,
        maxPairs: opts.maxPairs ?? DEFAULT_MAX_PAIRS,
        maxExactPairs: opts.maxExactPairs ?? DEFAULT_MAX_EXACT_PAIRS,
        pairShift: opts.pairShift ?? 0,
        bucketOwners: opts.bucketOwners ?? { count: 1, index: 0 },
        pendingKeys: opts.pendingKeys,
        spill: opts.spill,
      },
      (t) => {
        this.aln.addReferenceTallies(t.unique, t.multi)
        addInto(this.alnPerRecord.dense, t.perRecord)
      },
    )
    this.aln = new AlignmentCounts(sem, prelude.refCount)
    this.scRna = this.keys.exactPairs ? scRnaShapeOf(prelude, sem, this.aln) : undefined
  }

  /**
   * Counts a plain chunk of the salmon/piscem scRNA shape from its bytes (header included, as
   * many as `convention` says its nbytes spans) in one walk of the counting core, without decoding
   * it (assembly/scRnaChunk.ts; the same counts as addChunk of its decode). Returns its records, or
   * -1 when the chunk or this accumulator does not suit and nothing was counted: the caller then
   * decodes it and calls addChunk, which reports any fault precisely.
   */
  addChunkBytes(bytes: Uint8Array, chunk: number, convention: NbytesConvention): number {
    const shape = this.scRna
    if (!shape || !this.keys.exactPairs || bytes.length < CHUNK_HEADER_BYTES) return -1
    if (chunkSpan(u32le(bytes, 0), convention) !== bytes.length) return -1
    const n = chunkRecordCount(bytes)
    const counted = this.keys.addScRnaChunk(bytes.subarray(CHUNK_HEADER_BYTES), n, shape)
    if (!counted) return -1
    this.records += n
    this.alignments += counted.alignments
    this.noteChunk(chunk, n)
    if (n > 0) this.chunkBarcodes[chunk] = counted.mixed ? 2 : 1
    this.aln.addStrands(counted.forward, counted.alignments)
    return n
  }

  /** Counts a chunk from its bytes where the core can (addChunkBytes), else its `decode`; returns its records. */
  addChunkOrDecode(bytes: Uint8Array, chunk: number, convention: NbytesConvention, decode: () => ChunkColumns): number {
    const records = this.addChunkBytes(bytes, chunk, convention)
    if (records >= 0) return records
    const cols = decode()
    this.addChunk(cols)
    return cols.recordCount
  }

  /** Counts one decoded chunk, column by column (docs/adr/0009). */
  addChunk(cols: ChunkColumns): void {
    const n = cols.recordCount
    this.records += n
    this.alignments += cols.alignmentCount
    this.noteChunk(cols.chunk, n)
    this.countAlnPerRecord(cols.alnStart, n)
    if (this.keys.addChunk(cols) && n > 0) this.chunkBarcodes[cols.chunk] = this.keys.mixedChunk(n) ? 2 : 1
    this.aln.addChunk(cols, n)
  }

  /** Rows of other owners' buckets, by owner (StatsOptions.bucketOwners). */
  takeForeignRows(): (Uint32Array | undefined)[] {
    return this.keys.takeForeignRows()
  }

  /** At the pass's end: merges what the exact pairs spilled (ADR 0015), so the exports that follow are copies. */
  settle(what: Exclude<StateExport, 'partial'>, maxRows?: number): void {
    this.keys.settle(what, maxRows)
  }

  /** Whether the pairs are counted exactly so far: its `figures` state then merges into another that does. */
  get exactPairs(): boolean {
    return this.keys.exactPairs
  }

  /** Rows another owner handed over: their pairs and barcodes only. The array is the accumulator's from then on. */
  addForeignRows(rows: Uint32Array): void {
    this.keys.addForeignRows(rows)
  }

  private countAlnPerRecord(alnStart: Uint32Array, n: number): void {
    const dense = this.alnPerRecord.dense
    for (let r = 0; r < n; r++) {
      const naln = alnStart[r + 1]! - alnStart[r]!
      if (naln < DENSE_HISTOGRAM) dense[naln]!++
      else this.alnPerRecord.add(naln)
    }
  }

  private noteChunk(chunk: number, records: number): void {
    if (chunk >= this.chunkRecords.length) {
      const n = Math.max(chunk + 1, this.chunkRecords.length * 2, 64)
      const rec = new Float64Array(n).fill(NaN)
      rec.set(this.chunkRecords)
      const bcs = new Uint8Array(n)
      bcs.set(this.chunkBarcodes)
      this.chunkRecords = rec
      this.chunkBarcodes = bcs
    }
    this.chunkRecords[chunk] = records
  }

  /**
   * The state (`what`: StateExport): structured-clonable, buffers transferable
   * (statsTransferables). Tables are compact copies; the partitions' lists are copies of the
   * counting core's, and shared with merged-in states (never changed in place), so a caller that
   * transfers them must drop this accumulator (statsWorker.ts statsDrain does).
   */
  exportState(what: StateExport = 'whole'): StatsState {
    this.keys.foldTallies() // the core's alignment tallies into alnPerRecord and aln, read below
    return {
      version: 1,
      records: this.records,
      alignments: this.alignments,
      alnPerRecord: this.alnPerRecord.exportState(),
      ...this.keys.exportState(what),
      ...this.aln.exportState(),
      chunkRecords: this.chunkRecords.slice(),
      chunkBarcodes: this.chunkBarcodes.slice(),
      notes: [...this.notes],
    }
  }

  /** Adds another accumulator's state (from the same file) into this one. */
  merge(s: StatsState): void {
    this.records += s.records
    this.alignments += s.alignments
    this.alnPerRecord.addState(s.alnPerRecord)
    this.keys.merge(s)
    this.aln.merge(s)
    for (let c = 0; c < s.chunkRecords.length; c++) {
      const n = s.chunkRecords[c]!
      if (Number.isNaN(n)) continue
      const mine = c < this.chunkRecords.length ? this.chunkRecords[c]! : NaN
      this.noteChunk(c, Number.isNaN(mine) ? n : mine + n)
      this.chunkBarcodes[c] = Math.max(this.chunkBarcodes[c]!, s.chunkBarcodes[c]!)
    }
    for (const note of s.notes) if (!this.notes.includes(note)) this.notes.push(note)
  }
}

/**
 * The shape the counting core counts from a chunk's bytes (addChunkBytes): plain chunks whose
 * records are num_aln, two u32 read tags (a barcode and a UMI) and one u32 alignment tag packing
 * the strand and the reference (docs/format.md §5.3, §7.1: salmon's and piscem's scRNA files).
 */
function scRnaShapeOf(prelude: Prelude, sem: Semantics, aln: AlignmentCounts): ScRnaShape | undefined {
  const layout = recordLayout(prelude)
  if (prelude.codec !== 'none' || !layout.allU32 || layout.readTags.length !== 2 || layout.alnTags.length !== 1) {
    return undefined
  }
  const barcode = sem.barcodes.length === 1 ? sem.barcodes[0]!.tag : -1
  const umi = sem.umi?.tag ?? -1
  const refMask = aln.packedRefMask(0)
  if (barcode < 0 || umi < 0 || barcode === umi || refMask === undefined) return undefined
  return { barcodeWord: barcode, umiWord: umi, refCount: prelude.refCount, refMask }
}

export function createStatsAccumulator(prelude: Prelude, sem: Semantics, opts?: StatsOptions): StatsAccumulator {
  return new StatsAccumulator(prelude, sem, opts)
}

/** a + b as one state (a and b from accumulators of the same file and options). */
export function mergeStates(
  prelude: Prelude,
  sem: Semantics,
  a: StatsState,
  b: StatsState,
  opts?: StatsOptions,
): StatsState {
  const acc = new StatsAccumulator(prelude, sem, opts)
  acc.merge(a)
  acc.merge(b)
  return acc.exportState()
}

/**
 * A state for a partial report, with every figure but not the exact pairs' UMIs (withoutPairs):
 * it can be merged only with states of other buckets (StatsOptions.bucketOwners).
 */
export function reportState(s: StatsState): StatsState {
  return s.partitions ? { ...s, partitions: withoutPairs(s.partitions) } : s
}

/** The buffers of a state, for postMessage's transfer list (each once). */
export function statsTransferables(s: StatsState): ArrayBuffer[] {
  const tables = [s.pairs, ...s.barcodes.map((b) => b.table)]
  const hists = [s.alnPerRecord, s.mappingType, s.fragmentLength, s.orientationByType]
  const arrays: ArrayBufferView[] = [
    s.orientation,
    s.refUnique,
    s.refMulti,
    s.chunkRecords,
    s.chunkBarcodes,
    ...s.barcodes.map((b) => b.hll),
    ...tables.flatMap((t) => [t.keys, t.counts]),
    ...hists.flatMap((h) => [h.dense, h.sparse.keys, h.sparse.counts]),
  ]
  const buffers = arrays.map((a) => a.buffer as ArrayBuffer)
  if (s.partitions) buffers.push(...partitionBuffers(s.partitions))
  return [...new Set(buffers)]
}
