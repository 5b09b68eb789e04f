/**
 * The statistics contract (definitions in docs/stats.md).
 * `StatsJson` is what `rad stats --json` prints and what the page shows: its
 * keys are a contract. `StatsState` is an accumulator's state: typed arrays
 * and numbers only, so it is structured-clonable and its buffers transferable
 * (workers send it to be merged).
 */

/** `[key, count]`; lists of them are sorted by count descending, ties by key ascending. */
export type Ranked = [string, number]

/** `[value, count]`, ascending value. */
export type HistogramRow = [number, number]

export interface MeanMedian {
  mean: number
  median: number
}

/** A cut-off on the barcode-rank curve: the `cells` barcodes with at least `min_count` records. */
export interface Cutoff {
  /** The rank (0-based, counts descending) the method picked. */
  index: number
  /** Barcodes kept: every barcode with ≥ minCount records (as alevin-fry keeps them). */
  cells: number
  minCount: number
  /** Share of the records those barcodes hold (0…1). */
  readsShare: number
}

/** Figures of one barcode level (or of the combined cell identity). */
export interface BarcodeStats {
  /** Tag name(s) joined with "+", e.g. "b" or "b0+b1". */
  tag: string
  /** Distinct barcodes (exact when `exact`, else an estimate ± `distinct_error`). */
  distinct: number
  reads_per_barcode: MeanMedian
  /** The 20 barcodes with the most records, `[ACGT…, records]`. */
  top: Ranked[]
  /** True when every barcode was counted in the table (no cap reached). */
  exact: boolean
  /** One standard error of `distinct` (0 when exact). */
  distinct_error: number
  /** Records whose barcode arrived after the table was full (counted, not ranked). */
  untracked_records: number
  /** True when `top` is provably the true top list with true counts. */
  top_exact: boolean
}

export interface UmiStats {
  /** Distinct (barcode, UMI) pairs (an estimate ± relative_error when sampled). */
  distinct_pairs: number
  /** Distinct UMIs per barcode, over the barcodes in the table. */
  per_barcode: MeanMedian
  /** records / distinct_pairs: mean reads per molecule. */
  duplication_rate: number
  /** 1 − distinct_pairs / records. */
  sequencing_saturation: number
  /** Good–Toulmin: new pairs expected from as many records again (2× depth). */
  good_toulmin_2x: number
  exact: boolean
  /** Share of pairs kept (1 = all; ½ⁿ after n halvings, docs/stats.md). */
  sampling_rate: number
  /** Relative standard error of distinct_pairs (0 when exact). */
  relative_error: number
}

export interface ReferenceStats {
  /** References with at least one alignment. */
  with_alignments: number
  /** `[name, alignments]`: `all` alignments; `unique` from records with one alignment; `multi` from the others. */
  top: { all: Ranked[]; unique: Ranked[]; multi: Ranked[] }
  alignments_unique: number
  alignments_multi: number
}

export interface ChunkStats {
  count: number
  records_per_chunk: MeanMedian & { min: number; max: number }
  /** True when every non-empty chunk holds one barcode and no barcode spans chunks (a collated file). */
  collated: boolean
  /** Collated files: per-chunk = per-cell records (from the chunk headers' nrec). */
  records_per_cell?: MeanMedian
}

export interface StatsJson {
  assay: string
  records: number
  alignments: number
  alignments_per_record: HistogramRow[]
  /** Alignment counts by orientation: fw/rc; for bulk pairs also ff/fr/rf/rr; "?" unknown. */
  orientation: Record<string, number> | null
  barcodes: (BarcodeStats & { levels?: BarcodeStats[] }) | null
  umis: UmiStats | null
  references: ReferenceStats | null
  /** Barcodes kept by the knee-distance method (docs/stats.md), null without barcodes or with < 2. */
  knee: number | null
  /** The alternatives alevin-fry offers (defaults: docs/stats.md). */
  cutoffs: { knee: Cutoff | null; expect_cells: Cutoff | null; force_cells: Cutoff | null } | null
  /** Read-level mapping types (bulk `frag_map_type`): `[type, records]`. */
  frag_map_type?: HistogramRow[]
  /** Alignment-level mapping types (scATAC `type`): `[type, alignments]`. */
  mapping_type?: HistogramRow[]
  /** Fragment lengths of alignments that have one: `[length, alignments]` (65535 = none, counted apart). */
  fragment_length?: HistogramRow[]
  fragment_length_unavailable?: number
  /** Bulk: alignment orientations by mapping type name, `{pair: {ff: n, …}, single: {fw: n, rc: n}}`. */
  orientation_by_type?: Record<string, Record<string, number>>
  chunks: ChunkStats
  /** True when no figure above is an estimate. */
  exact: boolean
  /** What could not be counted and why (unsupported tag types, …). */
  notes: string[]
}

/** Options of an accumulator: the caps (docs/stats.md "Memory"). */
export interface StatsOptions {
  /** Distinct barcodes counted exactly (combined identity and each level). */
  maxBarcodes?: number
  /** Distinct (barcode, UMI) pairs kept before sampling halves. */
  maxPairs?: number
  /**
   * Sample pairs from the start at ½^pairShift. A worker drained mid-pass
   * resumes at its rate (statsWorker.ts): the merge would thin its pairs to
   * that rate anyway, and starting over at 1 halved its table again.
   */
  pairShift?: number
  /**
   * Distinct (barcode, UMI) pairs counted exactly, by radix partitioning (pairPartitions.ts, 8 bytes
   * a pair), before the pairs move to the sampled table of `maxPairs`; 0: the table from the start.
   */
  maxExactPairs?: number
  /**
   * One of `count` accumulators that share the exact pairs' buckets (worker threads): this one
   * keeps the buckets of range `index`, and hands the rows of the others over
   * (StatsAccumulator.takeForeignRows, addForeignRows), so no pair is held twice.
   */
  bucketOwners?: { count: number; index: number }
  /**
   * Keys waiting before the exact pairs' buckets are sorted and merged (8 bytes each; default 4M,
   * 32 MB): more wait, fewer merges. Shared by the bucket owners.
   */
  pendingKeys?: number
  /**
   * Where the exact pairs' lists go past a memory budget (spilledRuns.ts): with it they are exact
   * at any size, `maxExactPairs` aside. Without it, past `maxExactPairs` they are sampled.
   */
  spill?: SpillOptions
  /** Top list length (20 by the issue). */
  top?: number
  /** For the expect-cells cut-off (alevin-fry `--expect-cells`). */
  expectCells?: number
  /** For the force-cells cut-off (alevin-fry `--force-cells`). */
  forceCells?: number
}

/** The tags barcodeUmiCounts.ts counts: the barcode levels' and the UMI's (undefined: none). */
export interface BarcodeUmiShape {
  barcodeTags: number[]
  umiTag: number | undefined
}

/** StatsOptions as barcodeUmiCounts.ts takes them, every default filled in (accumulator.ts). */
export interface BarcodeUmiOptions {
  maxBarcodes: number
  maxPairs: number
  maxExactPairs: number
  pairShift: number
  bucketOwners: { count: number; index: number }
  pendingKeys: number | undefined
  spill: SpillOptions | undefined
}

export interface CountTableState {
  keyWords: number
  size: number
  keys: Uint32Array
  counts: Float64Array
}

export interface HistogramState {
  dense: Float64Array
  sparse: CountTableState
}

/** Barcode counting of one level (or the combined identity). */
export interface BarcodeTableState {
  table: CountTableState
  /** HyperLogLog registers of the barcodes that found the table full. */
  hll: Uint8Array
  untrackedRecords: number
}

/**
 * Exact pairs and barcodes by bucket (pairPartitions.ts, partitionLists.ts): per bucket, its
 * barcodes' low bits (sorted) with their reads and distinct UMIs, and the pairs, one sorted run a
 * barcode in the barcodes' order, each a word: UMI · 2 + the parity of its reads.
 */
/**
 * What an exported state holds (StatsAccumulator.exportState): `whole`, every exact pair (to merge
 * with a state of the same buckets); `figures`, every figure exact but the pairs' UMIs left out
 * (withoutPairs: ~16 bytes a barcode, where the pairs are ~4 bytes each); `partial`, the same for
 * a report on the way, whose exact figures may lag the records by up to `pendingKeys` reads;
 * `digest`, every figure exact but the barcodes folded into distributions (BarcodeDigest: no row
 * per barcode, for a pass that needs neither the per-barcode TSV nor the cells; ADR 0016).
 */
export type StateExport = 'whole' | 'figures' | 'partial' | 'digest'

/**
 * Barcodes of exact partitions folded into what the figures need (barcodeDigest.ts, ADR 0016):
 * how many barcodes have each number of reads and of distinct UMIs (the means, medians, knee,
 * cut-offs and rank curve come from these), and the barcodes with the most reads (the top list).
 * A few kilobytes, where a row per barcode costs 16 bytes and more at every step.
 */
export interface BarcodeDigest {
  /** Barcodes by their reads. */
  reads: HistogramState
  /** Barcodes by their distinct UMIs. */
  umis: HistogramState
  /** The DIGEST_TOP barcodes with the most reads (ties: the smaller barcode), and their reads. */
  topBarcodes: Uint32Array
  topReads: Float64Array
  barcodes: number
  pairs: number
  /** Pairs with an odd number of reads (Good–Toulmin), of the folded buckets. */
  odd: number
}

export interface PartitionState {
  barcodes: Uint32Array[]
  reads: Float64Array[]
  umiCounts: Uint32Array[]
  /** UMI · 2 + the parity of the pair's reads; empty in a partial report's copy (withoutPairs). */
  umis: Uint32Array[]
  /** Per bucket, its pairs with an odd number of reads. */
  oddCounts: Float64Array
  pairCount: number
  barcodeCount: number
  /** Buckets folded into distributions (StateExport `digest`): their lists are empty and their oddCounts 0 here. */
  digest?: BarcodeDigest
  /**
   * A partial report of a counter that spilled (spilledRuns.ts): barcodes and reads exact, but
   * pairs, distinct UMIs and Good–Toulmin summed over the spilled parts (upper bounds until the end).
   */
  approximate?: boolean
  /**
   * A partial report of a counter whose spilled barcodes were too many to keep in memory
   * (SpillOptions.partialBarcodesUpTo): barcodes and pairs of the lists in memory only (lower
   * bounds) until the end's merge.
   */
  barcodesIncomplete?: boolean
}

/** An accumulator's state: typed arrays and numbers only. */
export interface StatsState {
  version: 1
  records: number
  alignments: number
  alnPerRecord: HistogramState
  /** Indexed by ORIENTATIONS (accumulator.ts). */
  orientation: Float64Array
  /** Combined identity first, then each level when there are several. */
  barcodes: BarcodeTableState[]
  /** Keys: combined barcode words + 2 UMI words. */
  pairs: CountTableState
  /** Pairs are kept when hash >>> (32 − pairShift) is 0 (pairShift 0: all). */
  pairShift: number
  /**
   * When not null, the pairs are counted exactly here and `pairs` is empty; `barcodes[0]` is then
   * these partitions' barcodes, in bucket order (a merge takes them from here, not from there).
   */
  partitions: PartitionState | null
  refUnique: Float64Array
  refMulti: Float64Array
  mappingType: HistogramState
  fragmentLength: HistogramState
  fragmentLengthUnavailable: number
  /** Key mappingType · 8 + orientation index. */
  orientationByType: HistogramState
  /** Per chunk index: records (NaN = not seen). */
  chunkRecords: Float64Array
  /** Per chunk index: 1 one barcode, 2 several. */
  chunkBarcodes: Uint8Array
  notes: string[]
}

/** Where spilled lists go: appended, read back by offset. */
export interface SpillStore {
  /** Appends the parts, one after another; returns the offset of the first byte. */
  append(parts: readonly Uint8Array[]): number
  /** Reads `length` bytes at `offset` into the start of `into` (a buffer the caller reuses). */
  read(offset: number, length: number, into: Uint8Array): void
  /** Bytes appended so far. */
  readonly size: number
}

/** A spill's memory budget and its store (StatsOptions.spill). */
export interface SpillOptions {
  store: SpillStore
  /** Bytes the merged lists may hold before they are spilled. */
  budget: number
  /**
   * Partial reports will be asked of the counter (the page's pass): the spilled barcodes' figures
   * are then kept in memory too (16 bytes a barcode), for `partial` exports (spilledFigures)…
   */
  partialReports?: boolean
  /**
   * …up to this many barcodes: past it they are dropped, and partial reports count the barcodes
   * of the lists in memory only (`PartitionState.barcodesIncomplete`) until the end's exact merge.
   */
  partialBarcodesUpTo?: number
}
