import { columnNumber, columnValue } from '../decode/columns'
import type { OrientationEncoding, Semantics, SequenceField } from '../prelude/semantics'
import type { ChunkColumns, Column, Prelude, RoleKind, TagValue } from '../types'

const BASES = 'ACGT'

/**
 * 2-bit packed sequence to nucleotides (docs/format.md §7.8): A=0 C=1 G=2 T=3,
 * first base in the most significant used bit pair. `len` must come from a
 * role or file tag: the integer alone cannot tell leading A's from nothing.
 */
export function decode2bit(value: number | bigint, len: number): string {
  let out = ''
  if (typeof value === 'number' && len <= 16) {
    for (let i = len - 1; i >= 0; i--) out += BASES[Math.floor(value / 4 ** i) & 3] ?? 'N'
    return out
  }
  const big = BigInt(value)
  for (let i = len - 1; i >= 0; i--) out += BASES[Number((big >> BigInt(2 * i)) & 3n)] ?? 'N'
  return out
}

/** True when a packed value has bits set above its 2·len nucleotide bits. */
export function widerThan(value: number | bigint, len: number): boolean {
  if (len <= 0 || len >= 64) return false
  if (typeof value === 'number') return value >= 2 ** (2 * len)
  return value >> BigInt(2 * len) !== 0n
}

/** A barcode/UMI column entry as nucleotides (strings are shown as stored). */
export function sequenceText(col: Column, i: number, field: SequenceField): string {
  const v = columnValue(col, i)
  if (typeof v === 'string') return v
  if ((typeof v === 'number' || typeof v === 'bigint') && field.len > 0) return decode2bit(v, field.len)
  return valueText(v)
}

/** Orientation + reference id from a packed alignment word (§5.3, §7.4). */
export interface PackedAlignment {
  ref: number
  /** 'fw' | 'rc' for single reads; 'ff' | 'fr' | 'rf' | 'rr' for bulk pairs; '?' unknown. */
  ori: string
  /** bit 31 as alevin-fry view prints it (DIR:true = forward). */
  dir: boolean
}

export function unpackAlignment(word: number, encoding: OrientationEncoding, mappingType?: number): PackedAlignment {
  const dir = word >= 0x80000000
  if (encoding === 'bit31') return { ref: word & 0x7fffffff, ori: dir ? 'fw' : 'rc', dir }
  const d = word >>> 30
  const ref = word & 0x3fffffff
  if (mappingType === 4) return { ref, ori: ['rr', 'rf', 'fr', 'ff'][d] ?? '?', dir }
  if (mappingType === 0) return { ref, ori: '?', dir }
  return { ref, ori: dir ? 'fw' : 'rc', dir }
}

/** Plain text for any value: bigint as decimal, arrays bracketed. */
export function valueText(value: TagValue): string {
  if (Array.isArray(value)) return `[${value.map(valueText).join(',')}]`
  if (typeof value === 'string') return value
  return String(value)
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * The JSON form of a value (`dump`): integers as numbers when |v| ≤ 2^53−1,
 * otherwise as decimal strings; bools, floats, strings, arrays as themselves.
 */
export function canonicalJson(value: TagValue): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson)
  if (typeof value === 'bigint') return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value.toString()
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value)
  return value
}

/** One alignment, decoded for people. */
export interface AlignmentView {
  refId: number | undefined
  refName: string
  ori: string | undefined
  dir: boolean | undefined
  position: number | undefined
  fragmentLength: number | undefined
  mappingType: number | undefined
  /** Every alignment tag not shown above, as [name, text]. */
  other: [string, string][]
}

/** One record, decoded for people. */
export interface RecordView {
  naln: number
  barcodes: string[]
  umi: string | undefined
  mappingType: number | undefined
  other: [string, string][]
}

function refName(prelude: Prelude, ref: number | undefined): string {
  if (ref === undefined) return '?'
  return prelude.refNames[ref] ?? `<ref ${String(ref)} out of range>`
}

export function recordView(cols: ChunkColumns, r: number, prelude: Prelude, sem: Semantics): RecordView {
  const used = new Set<number>()
  const barcodes = sem.barcodes.map((f) => {
    used.add(f.tag)
    return sequenceText(cols.readColumns[f.tag] as Column, r, f)
  })
  let umi: string | undefined
  if (sem.umi) {
    used.add(sem.umi.tag)
    umi = sequenceText(cols.readColumns[sem.umi.tag] as Column, r, sem.umi)
  }
  let mappingType: number | undefined
  if (sem.mappingType?.level === 'read') {
    used.add(sem.mappingType.tag)
    mappingType = columnNumber(cols.readColumns[sem.mappingType.tag] as Column, r)
  }
  const other: [string, string][] = []
  prelude.readTags.forEach((tag, t) => {
    if (!used.has(t)) other.push([tag.name, valueText(columnValue(cols.readColumns[t] as Column, r))])
  })
  const naln = (cols.alnStart[r + 1] ?? 0) - (cols.alnStart[r] ?? 0)
  return { naln, barcodes, umi, mappingType, other }
}

function optionalNumber(cols: ChunkColumns, tag: number | undefined, k: number, used: Set<number>): number | undefined {
  if (tag === undefined) return undefined
  used.add(tag)
  return columnNumber(cols.alnColumns[tag] as Column, k)
}

/** Alignment `k` (chunk-wide index) of a record whose read-level mapping type is `readType`. */
export function alignmentView(
  cols: ChunkColumns,
  k: number,
  prelude: Prelude,
  sem: Semantics,
  readType?: number,
): AlignmentView {
  const used = new Set<number>()
  const mappingType =
    sem.mappingType?.level === 'alignment' ? optionalNumber(cols, sem.mappingType.tag, k, used) : readType
  let refId: number | undefined
  let ori: string | undefined
  let dir: boolean | undefined
  if (sem.orientation) {
    used.add(sem.orientation.tag)
    const word = columnNumber(cols.alnColumns[sem.orientation.tag] as Column, k) ?? 0
    const packed = unpackAlignment(word, sem.orientation.encoding, mappingType)
    ori = packed.ori
    dir = packed.dir
    if (sem.reference?.packed) refId = packed.ref
  }
  if (sem.reference && !sem.reference.packed) refId = optionalNumber(cols, sem.reference.tag, k, used)
  const position = optionalNumber(cols, sem.position, k, used)
  const fragmentLength = optionalNumber(cols, sem.fragmentLength, k, used)
  const other: [string, string][] = []
  prelude.alnTags.forEach((tag, t) => {
    if (!used.has(t)) other.push([tag.name, valueText(columnValue(cols.alnColumns[t] as Column, k))])
  })
  return { refId, refName: refName(prelude, refId), ori, dir, position, fragmentLength, mappingType, other }
}

const MAPPING_TYPE_NAMES: Record<string, Record<number, string>> = {
  bulk: { 0: 'unmapped', 1: 'single', 2: 'orphan (read 1)', 3: 'orphan (read 2)', 4: 'pair' },
  scATAC: { 1: 'single', 2: 'orphan (read 1)', 3: 'orphan (read 2)', 4: 'pair', 8: 'unmapped' },
}

/** `4` → `pair` for the assays whose mapping types are documented (§7.4, §7.5). */
export function mappingTypeName(sem: Semantics, value: number | undefined): string {
  if (value === undefined) return ''
  return MAPPING_TYPE_NAMES[sem.assay]?.[value] ?? String(value)
}

/** The fields whose producers write a placeholder value meaning "not available". */
export type PlaceholderField = 'position' | 'fragmentLength' | 'readLength'

/**
 * Placeholder values and why they are written. A placeholder is shown as "—", never as a number;
 * the CLI's `view` keeps printing the raw value, as alevin-fry view does (§9.1).
 */
const PLACEHOLDERS: Record<PlaceholderField, readonly (readonly [number, string])[]> = {
  // §7.4 (bulk) and §7.5 (scATAC): u16 max when the read is not part of a mapped pair.
  fragmentLength: [[65535, 'not available: 65535 (u16 max) is written when the read is not a mapped pair']],
  // u32 max: the largest u32, written where no mapping position exists (no real reference is this long).
  position: [[4294967295, 'not available: 4294967295 (u32 max) is written where there is no mapping position']],
  // §7.2 / §7.3: `rlen` is written 0 and back-patched at the end of the run; 0 means it never was.
  readLength: [[0, 'not available: rlen is written as 0 and filled in when the mapper finishes; 0 means it never was']],
}

/** Why `value` is a "not available" placeholder for `field`, or undefined when it is a real value. */
export function placeholderReason(field: PlaceholderField, value: number | bigint | undefined): string | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  return PLACEHOLDERS[field].find(([v]) => v === n)?.[1]
}

/** The file tags whose value can be a placeholder, by name (§7.2, §7.3). */
export function fileTagPlaceholderField(name: string): PlaceholderField | undefined {
  return name === 'rlen' ? 'readLength' : undefined
}

/** v2 role names as docs/format.md §2.3 and libradicl spell them. */
const ROLE_NAMES: Record<RoleKind, string> = {
  none: 'None',
  barcode: 'Barcode',
  umi: 'Umi',
  reference: 'Reference',
  orientation: 'Orientation',
  mappingPosition: 'MappingPosition',
  fragmentLength: 'FragmentLength',
  mappingType: 'MappingType',
}

export function roleName(kind: RoleKind): string {
  return ROLE_NAMES[kind]
}

/** A reference name to show in a narrow cell: `short` keeps the gene visible, `full` is the name. */
export interface RefLabel {
  short: string
  full: string
}

/** GENCODE transcript FASTA names: ENST…|ENSG…|OTTHUMG…|OTTHUMT…|transcript name|gene name|length|biotype| */
const GENCODE_TRANSCRIPT = /^ENS[A-Z]*T\d/
const GENCODE_GENE_FIELD = 5
const GENCODE_TRANSCRIPT_FIELD = 0

/**
 * `ENST00000456328.2|ENSG00000290825.1|-|-|DDX11L2-202|DDX11L2|1657|lncRNA|` → `DDX11L2 · ENST00000456328.2`:
 * the gene name first, so clipping keeps it. Other names are shown whole.
 */
export function refLabel(name: string): RefLabel {
  const fields = name.split('|')
  const gene = fields[GENCODE_GENE_FIELD]
  const transcript = fields[GENCODE_TRANSCRIPT_FIELD] ?? ''
  if (!GENCODE_TRANSCRIPT.test(transcript) || gene === undefined || gene === '' || gene === '-') {
    return { short: name, full: name }
  }
  return { short: `${gene} · ${transcript}`, full: name }
}
