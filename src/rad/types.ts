/** Data-only types of the format core. Nothing here has behaviour. */

/** Type ids of docs/format.md §3. */
export const TYPE_ID = {
  bool: 0,
  u8: 1,
  u16: 2,
  u32: 3,
  u64: 4,
  f32: 5,
  f64: 6,
  array: 7,
  string: 8,
  u128: 9,
  i8: 10,
  i16: 11,
  i32: 12,
  i64: 13,
  i128: 14,
} as const

export type TypeName = keyof typeof TYPE_ID

export interface TagType {
  id: number
  /** For arrays (id 7): the integer type id of the element count. */
  lengthType?: number
  /** For arrays (id 7): the element type id (never another array). */
  elementType?: number
}

/** v2 roles, docs/format.md §2.3. `code` is kept so unknown codes stay visible. */
export type RoleKind =
  'none' | 'barcode' | 'umi' | 'reference' | 'orientation' | 'mappingPosition' | 'fragmentLength' | 'mappingType'

export interface TagRole {
  kind: RoleKind
  code: number
  /** Barcode level (0 = outermost). */
  level?: number
  /** Nucleotide length for Barcode/Umi roles; 0 = unspecified. */
  len?: number
}

export interface TagDesc {
  name: string
  type: TagType
  role: TagRole
  /** v2: absolute offset of the role suffix (§2.3), for messages about it. */
  roleOffset?: number
}

/** One decoded tag value. 64- and 128-bit integers are always bigint. */
export type TagValue = boolean | number | bigint | string | TagValue[]

/**
 * §6: a chunk_codec id this reader knows, or 'unknown' (a newer codec): the
 * prelude and the chunk table still read — headers are never compressed —
 * but no chunk's records can be decoded.
 */
export type Codec = 'none' | 'lz4' | 'zstd' | 'unknown'

/** Which meaning a chunk's `nbytes` has (docs/format.md §4.2). */
export type NbytesConvention = 'header-inclusive' | 'payload-only'

export interface Prelude {
  /** [major, minor]; [0, 0] for legacy files without the RAD_FILE magic. */
  version: [number, number]
  extLen: number
  paired: boolean
  refCount: number
  refNames: string[]
  /** num_chunks as stored; 0 means "read to the end of the file" (§1.4). */
  numChunks: number
  /** Absolute offset of the stored num_chunks field. */
  numChunksOffset: number
  fileTags: TagDesc[]
  readTags: TagDesc[]
  alnTags: TagDesc[]
  /** One value per file tag, in declared order. */
  fileTagValues: TagValue[]
  /** Absolute offset of each file tag's value, same order. */
  fileTagValueOffsets: number[]
  codec: Codec
  /** Absolute offset where the file-tag values begin (end of the prelude proper). */
  tagValuesOffset: number
  /** Absolute offset of chunk 0's header. */
  firstChunkOffset: number
  /** Things a user should know that are not errors. */
  warnings: string[]
}

/** Chunk header fields, docs/format.md §4.1. */
export interface ChunkHeader {
  offset: number
  nbytes: number
  nrec: number
}

/** Columnar storage for one tag, one entry per record (or per alignment). */
export type Column =
  | { kind: 'u8'; values: Uint8Array }
  | { kind: 'bool'; values: Uint8Array }
  | { kind: 'u16'; values: Uint16Array }
  | { kind: 'u32'; values: Uint32Array }
  | { kind: 'u64'; values: BigUint64Array }
  | { kind: 'i8'; values: Int8Array }
  | { kind: 'i16'; values: Int16Array }
  | { kind: 'i32'; values: Int32Array }
  | { kind: 'i64'; values: BigInt64Array }
  | { kind: 'f32'; values: Float32Array }
  | { kind: 'f64'; values: Float64Array }
  /** u128/i128: two u64 words per entry, low word first. */
  | { kind: 'u128' | 'i128'; values: BigUint64Array }
  /** Variable-width tags (strings, arrays): plain values. */
  | { kind: 'values'; values: TagValue[] }

export type ColumnKind = Column['kind']

/** One decoded chunk: read columns per record, CSR alignment columns. */
export interface ChunkColumns {
  chunk: number
  offset: number
  nbytes: number
  recordCount: number
  alignmentCount: number
  /** alnStart[r]..alnStart[r+1] are record r's alignments (length recordCount+1). */
  alnStart: Uint32Array
  /** One column per prelude.readTags entry, same order. */
  readColumns: Column[]
  /** One column per prelude.alnTags entry, same order. */
  alnColumns: Column[]
}
