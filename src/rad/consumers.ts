import type { Assay } from './prelude/semantics'
import { TYPE_ID } from './types'

/**
 * What each consumer version range reads, as far as public release notes and
 * source say. Every `'unknown'` below is a fact we looked for and did not find:
 * the verdict reports it as unknown rather than guessing (docs/integrity.md).
 *
 * Sources, cited by key in each row (all COMBINE-lab repositories unless named):
 * - SIMPLEAF_0_31: simpleaf v0.31.0 release notes — "piscem 0.24.0 (piscem-rs 0.11)
 *   writes RAD v2 … alevin-fry 0.18.x cannot read it: its generate-permit-list aborts
 *   with an 'invalid utf-8 sequence' panic … alevin-fry 0.19.0 is the first release
 *   that reads RAD v2, and it still reads RAD v1".
 * - SPEC_VERSIONING: libradicl website, versioning/spec-versioning.mdx — "A versioned
 *   file is not readable by a pre-magic reader".
 * - AF_PR_195: alevin-fry PR #195 "unify collation onto libradicl 0.20 + role-driven
 *   RAD adoption" — consumes libradicl 0.20.0; gpl/collate/quant/convert prefer tag
 *   roles over the b/u names; all four collation paths (single-barcode, multi/Flex,
 *   long-read, scATAC); a position/long/u128 path; scATAC collated output switches
 *   from the whole-file Snappy `.sz` stream to per-chunk ChunkCodec framing.
 * - AF_018_NOTES: alevin-fry CHANGELOG 0.18.0 — multi-barcode collation and ATAC
 *   sorting; docs/format.md §6.1 — alevin-fry 0.18 `collate --compress` writes `.sz`
 *   (snap FrameEncoder) and its source has no use of `chunk_codec`.
 * - SIMPLEAF_204: simpleaf issue #204 — alevin-fry 0.15.0 stops with "expected the
 *   ref_lengths tag value to exist and to be an ArrayU64" on a piscem 0.20.0 scATAC
 *   file (u32 array); with alevin-fry 0.16.0 the next stop is a panic in
 *   libradicl-0.14.2/src/record.rs, "atac-reader record context requires a 'barcode'
 *   read-level tag". Which side fixed the ref_lengths error is not stated.
 * - AF_ATAC_SRC: alevin-fry src/atac/cellfilter.rs (pre-0.19 revisions) —
 *   `const BNAME: &str = "barcode"`; `let TagValue::ArrayU64(ref_lens) = ref_tag else { todo!() }`.
 * - AF_TYPES_SRC: alevin-fry src/cellfilter.rs, src/atac/cellfilter.rs (pre-0.19) —
 *   "currently only RAD types 1--4 are supported for 'b' tags" (docs/format.md §9.1).
 * - AF_COMMANDS: alevin-fry docs/source/commands.rst — atac, generate-permit-list,
 *   collate, quant, infer: no bulk command.
 * - LIBRADICL_CODEC: docs.rs libradicl 0.14.3 src/codec.rs — `chunk_codec` u8 tag;
 *   "lz4 (codec id 1) is always available …; zstd (codec id 2) requires the crate's
 *   `zstd` feature". Earliest release with codec.rs: unknown (0.14.3 is the earliest
 *   source we found).
 * - LIBRADICL_0_20: libradicl v0.20.0 release notes — magic+version prefix in
 *   RadHeader::get_size (#64); rad-prelude-versioning normative for roles + extension
 *   block. piscem-rs src/io/rad.rs targets libradicl ≥ 0.20.0 (docs/format.md §1.2).
 * - SALMON_2_8: salmon v2.8.0 release notes — "salmon now reads the versioned RAD v2
 *   format … moves to libradicl 0.21 … Quantifying piscem's bulk RAD output (salmon
 *   quant on a RAD input) works with both the legacy format and v2"; salmon's own
 *   writer still writes legacy.
 */
export type Support = 'yes' | 'no' | 'unknown'

export type ConsumerTool = 'alevin-fry' | 'libradicl' | 'salmon'

/** How a consumer finds the scATAC barcode read tag (docs/format.md §7.5). */
export type AtacBarcodeLookup = 'name "barcode"' | 'role' | 'unknown'

export interface ConsumerRange {
  tool: ConsumerTool
  /** The versions this row covers, as people say it. */
  versions: string
  /** The libradicl it builds on. */
  libradicl: string
  /** Which assays the tool takes at all; a missing assay is unknown. */
  assays: Partial<Record<Assay, Support>>
  /** The RAD v2 prelude: magic, version, extension block, roles (§1.2, §2.3). */
  v2Prelude: Support
  /** Per-chunk compression announced by `chunk_codec` (§6). */
  lz4Chunks: Support
  zstdChunks: Support
  /** A whole-file Snappy `.sz` stream (§6.1). */
  snappyStream: Support
  /** Type ids accepted for barcode and UMI read tags; undefined when unknown. */
  sequenceTypeIds: readonly number[] | undefined
  /** Type ids 9–14 (u128, signed), added after the original spec (§3), anywhere in the file. */
  laterTypeIds: Support
  /** Element type the scATAC `ref_lengths` array must have (§7.5). */
  atacRefLengths: 'u64' | 'unknown'
  atacBarcode: AtacBarcodeLookup
  /** Keys of the sources above that back this row. */
  sources: readonly string[]
}

const INT_1_TO_4 = [TYPE_ID.u8, TYPE_ID.u16, TYPE_ID.u32, TYPE_ID.u64]
const SINGLE_CELL_NOT_BULK: Partial<Record<Assay, Support>> = { scRNA: 'yes', bulk: 'no' }

/**
 * salmon takes RAD input for bulk quantification only (SALMON_2_8: "salmon quant on a RAD
 * input", piscem's bulk output); single-cell RAD is alevin-fry's (AF_COMMANDS).
 */
const SALMON_NOT_SINGLE_CELL: Partial<Record<Assay, Support>> = {
  scRNA: 'no',
  'scRNA-multi-barcode': 'no',
  scATAC: 'no',
  'sc-long-read': 'no',
}

export const CONSUMERS: readonly ConsumerRange[] = [
  {
    tool: 'alevin-fry',
    versions: '0.15.x and earlier',
    libradicl: 'before 0.14.2 (exact version unknown)',
    assays: SINGLE_CELL_NOT_BULK, // AF_COMMANDS; when scATAC arrived: unknown
    v2Prelude: 'no', // SIMPLEAF_0_31, SPEC_VERSIONING
    lz4Chunks: 'unknown',
    zstdChunks: 'unknown',
    snappyStream: 'unknown',
    sequenceTypeIds: INT_1_TO_4, // AF_TYPES_SRC
    laterTypeIds: 'unknown',
    atacRefLengths: 'u64', // SIMPLEAF_204 (0.15.0), AF_ATAC_SRC
    atacBarcode: 'name "barcode"', // AF_ATAC_SRC
    sources: ['SIMPLEAF_0_31', 'SPEC_VERSIONING', 'AF_COMMANDS', 'AF_TYPES_SRC', 'SIMPLEAF_204', 'AF_ATAC_SRC'],
  },
  {
    tool: 'alevin-fry',
    versions: '0.16.x – 0.17.x',
    libradicl: '0.14.2 (in 0.16.0; 0.17: unknown)',
    assays: { ...SINGLE_CELL_NOT_BULK, scATAC: 'yes' }, // SIMPLEAF_204, AF_COMMANDS
    v2Prelude: 'no', // SIMPLEAF_0_31
    lz4Chunks: 'unknown',
    zstdChunks: 'unknown',
    snappyStream: 'unknown',
    sequenceTypeIds: INT_1_TO_4, // AF_TYPES_SRC
    laterTypeIds: 'unknown',
    atacRefLengths: 'unknown', // SIMPLEAF_204: the u64 error went away, cause not stated
    atacBarcode: 'name "barcode"', // SIMPLEAF_204 (libradicl 0.14.2 record.rs)
    sources: ['SIMPLEAF_0_31', 'SIMPLEAF_204', 'AF_COMMANDS', 'AF_TYPES_SRC'],
  },
  {
    tool: 'alevin-fry',
    versions: '0.18.x',
    libradicl: 'unknown (0.18.0 moved collation onto libradicl engines)',
    assays: { ...SINGLE_CELL_NOT_BULK, 'scRNA-multi-barcode': 'yes', scATAC: 'yes' }, // AF_018_NOTES
    v2Prelude: 'no', // SIMPLEAF_0_31: "invalid utf-8 sequence" panic
    lz4Chunks: 'unknown',
    zstdChunks: 'unknown',
    snappyStream: 'yes', // AF_018_NOTES (docs/format.md §6.1)
    sequenceTypeIds: INT_1_TO_4, // AF_TYPES_SRC
    laterTypeIds: 'unknown',
    atacRefLengths: 'unknown',
    atacBarcode: 'unknown',
    sources: ['SIMPLEAF_0_31', 'AF_018_NOTES', 'AF_COMMANDS', 'AF_TYPES_SRC'],
  },
  {
    tool: 'alevin-fry',
    versions: '0.19.0 and later',
    libradicl: '0.20.0 and later',
    assays: {
      ...SINGLE_CELL_NOT_BULK,
      'scRNA-multi-barcode': 'yes',
      scATAC: 'yes',
      'sc-long-read': 'yes',
    }, // AF_PR_195
    v2Prelude: 'yes', // SIMPLEAF_0_31, AF_PR_195
    lz4Chunks: 'yes', // AF_PR_195 (collate writes ChunkCodec chunks), LIBRADICL_CODEC (lz4 always built)
    zstdChunks: 'unknown', // LIBRADICL_CODEC: needs the `zstd` feature; whether alevin-fry enables it is not stated
    snappyStream: 'unknown', // AF_PR_195 replaced `.sz` for scATAC; scRNA `.sz` input not stated
    sequenceTypeIds: [...INT_1_TO_4, TYPE_ID.u128], // AF_PR_195 (u128 path)
    laterTypeIds: 'unknown', // u128 barcodes aside (above), no source says which signed types are read
    atacRefLengths: 'unknown',
    atacBarcode: 'role', // AF_PR_195
    sources: ['SIMPLEAF_0_31', 'AF_PR_195', 'LIBRADICL_CODEC', 'AF_COMMANDS'],
  },
  {
    tool: 'libradicl',
    versions: '0.14.2 and earlier',
    libradicl: '—',
    assays: {},
    v2Prelude: 'no', // alevin-fry 0.16.0 builds on 0.14.2 and reads no v2 (SIMPLEAF_0_31, SIMPLEAF_204)
    lz4Chunks: 'unknown',
    zstdChunks: 'unknown',
    snappyStream: 'unknown',
    sequenceTypeIds: undefined,
    laterTypeIds: 'unknown',
    atacRefLengths: 'unknown',
    atacBarcode: 'name "barcode"', // SIMPLEAF_204 (0.14.2 record.rs)
    sources: ['SIMPLEAF_0_31', 'SIMPLEAF_204'],
  },
  {
    tool: 'libradicl',
    versions: '0.14.3 – 0.19.x',
    libradicl: '—',
    assays: {},
    v2Prelude: 'unknown', // the release that first read the magic is not named; 0.20.0 fixed its size (LIBRADICL_0_20)
    lz4Chunks: 'yes', // LIBRADICL_CODEC
    zstdChunks: 'unknown', // LIBRADICL_CODEC: only with the `zstd` feature
    snappyStream: 'unknown',
    sequenceTypeIds: undefined,
    laterTypeIds: 'unknown',
    atacRefLengths: 'unknown',
    atacBarcode: 'unknown',
    sources: ['LIBRADICL_CODEC', 'LIBRADICL_0_20'],
  },
  {
    tool: 'libradicl',
    versions: '0.20.0 and later',
    libradicl: '—',
    assays: {},
    v2Prelude: 'yes', // LIBRADICL_0_20
    lz4Chunks: 'yes', // LIBRADICL_CODEC
    zstdChunks: 'unknown', // LIBRADICL_CODEC: only with the `zstd` feature
    snappyStream: 'unknown',
    sequenceTypeIds: undefined,
    laterTypeIds: 'unknown',
    atacRefLengths: 'unknown',
    atacBarcode: 'role', // AF_PR_195 (libradicl#64/#66 roles)
    sources: ['LIBRADICL_0_20', 'LIBRADICL_CODEC', 'AF_PR_195'],
  },
  {
    tool: 'salmon',
    versions: 'before 2.8.0',
    libradicl: 'unknown',
    assays: { ...SALMON_NOT_SINGLE_CELL, bulk: 'unknown' }, // which release first quantified RAD input: unknown
    v2Prelude: 'no', // SALMON_2_8: v2 reading is new in 2.8.0
    lz4Chunks: 'unknown',
    zstdChunks: 'unknown',
    snappyStream: 'unknown',
    sequenceTypeIds: undefined,
    laterTypeIds: 'unknown',
    atacRefLengths: 'unknown',
    atacBarcode: 'unknown',
    sources: ['SALMON_2_8'],
  },
  {
    tool: 'salmon',
    versions: '2.8.0 and later',
    libradicl: '0.21',
    assays: { ...SALMON_NOT_SINGLE_CELL, bulk: 'yes' }, // SALMON_2_8
    v2Prelude: 'yes', // SALMON_2_8
    lz4Chunks: 'yes', // LIBRADICL_CODEC (libradicl 0.21 ≥ 0.14.3)
    zstdChunks: 'unknown',
    snappyStream: 'unknown',
    sequenceTypeIds: undefined,
    laterTypeIds: 'unknown',
    atacRefLengths: 'unknown',
    atacBarcode: 'unknown',
    sources: ['SALMON_2_8', 'LIBRADICL_CODEC'],
  },
]

/** The sources above, by key, as shown to a user who asks "says who?". */
export const CONSUMER_SOURCES: Readonly<Record<string, string>> = {
  SIMPLEAF_0_31: 'simpleaf v0.31.0 release notes',
  SPEC_VERSIONING: 'libradicl docs: versioning/spec-versioning',
  AF_PR_195: 'alevin-fry PR #195 (libradicl 0.20, role-driven RAD)',
  AF_018_NOTES: 'alevin-fry 0.18.0 changelog; alevin-fry 0.18 collate.rs',
  SIMPLEAF_204: 'simpleaf issue #204',
  AF_ATAC_SRC: 'alevin-fry src/atac/cellfilter.rs',
  AF_TYPES_SRC: 'alevin-fry src/cellfilter.rs ("RAD types 1--4")',
  AF_COMMANDS: 'alevin-fry docs: commands',
  LIBRADICL_CODEC: 'libradicl 0.14.3 src/codec.rs',
  LIBRADICL_0_20: 'libradicl v0.20.0 release notes',
  SALMON_2_8: 'salmon v2.8.0 release notes',
}
