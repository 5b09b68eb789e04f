import { fmtInt } from '../errors'
import type { IntegrityIssue } from '../checks/integrity'
import { fileTagValue } from './prelude'
import { describeType, isIntegerType, fixedWidth, roleLenOffset } from './tags'
import { TYPE_ID } from '../types'
import type { Prelude, RoleKind, TagDesc, TagType, TagValue } from '../types'

/**
 * What the tags mean (docs/format.md §7.7): found by v2 role first, by the
 * well-known names of §7 otherwise. Indices point into prelude.readTags /
 * prelude.alnTags.
 */
export type Assay = 'scRNA' | 'scRNA-multi-barcode' | 'bulk' | 'scATAC' | 'sc-long-read' | 'unknown'

export interface SequenceField {
  /** Index into prelude.readTags. */
  tag: number
  name: string
  /** Barcode level (0 = outermost); 0 for the UMI. */
  level: number
  /** Nucleotide length used to decode the 2-bit value; 0 when unknown. */
  len: number
  /** Where `len` came from, for the user ("role", "file tag cblen", "assumed …"). */
  lenSource: string
  /** A declared length more than the tag's type can hold, cut down to `len` (declaredLengthIssues). */
  overlong?: { declared: number; offset: number | undefined }
}

/** How an alignment word carries orientation (§5.3, §7.4). */
export type OrientationEncoding = 'bit31' | 'top2bits'

export interface Semantics {
  assay: Assay
  /** From the `known_rad_type` file tag, when present. */
  knownRadType: string | undefined
  barcodes: SequenceField[]
  umi: SequenceField | undefined
  /** Alignment tag holding the reference id (plain or packed with orientation). */
  reference: { tag: number; packed: OrientationEncoding | undefined } | undefined
  orientation: { tag: number; encoding: OrientationEncoding } | undefined
  position: number | undefined
  fragmentLength: number | undefined
  /** Mapping type: a read tag (bulk `frag_map_type`) or an alignment tag (scATAC `type`). */
  mappingType: { level: 'read' | 'alignment'; tag: number } | undefined
  warnings: string[]
}

function byRole(tags: readonly TagDesc[], kind: RoleKind): number {
  return tags.findIndex((t) => t.role.kind === kind)
}

function byName(tags: readonly TagDesc[], ...names: string[]): number {
  return tags.findIndex((t) => names.includes(t.name))
}

function found(i: number): number | undefined {
  return i >= 0 ? i : undefined
}

function numberValue(value: TagValue | undefined): number | undefined {
  if (typeof value === 'number') return value
  if (typeof value === 'bigint') return Number(value)
  return undefined
}

/** Most nucleotides a 2-bit packed value of this type holds (§7.8: 4 per byte); undefined for text and non-integers. */
export function packedCapacity(type: TagType): number | undefined {
  return isIntegerType(type.id) ? fixedWidth(type) * 4 : undefined
}

/** A sequence length as found: in nucleotides, what declared it, and where (undefined when assumed). */
interface FoundLength {
  len: number
  lenSource: string
  offset: number | undefined
}

function fileTagOffset(prelude: Prelude, name: string): number | undefined {
  const i = prelude.fileTags.findIndex((t) => t.name === name)
  return i < 0 ? undefined : prelude.fileTagValueOffsets[i]
}

/** Nucleotide length: role len, then the legacy file tag, then the integer width (§2.3, §7.8). */
function sequenceLength(prelude: Prelude, tag: TagDesc, fileTag: string, warnings: string[]): FoundLength {
  const legacy = numberValue(fileTagValue(prelude, fileTag))
  const roleLen = tag.role.len
  if (roleLen !== undefined && roleLen > 0) {
    if (legacy !== undefined && legacy !== roleLen) {
      warnings.push(
        `tag "${tag.name}": role length ${String(roleLen)} differs from file tag ${fileTag} = ${String(legacy)}; the role wins`,
      )
    }
    return { len: roleLen, lenSource: 'role', offset: roleLenOffset(tag) }
  }
  if (legacy !== undefined && legacy > 0) {
    return { len: legacy, lenSource: `file tag ${fileTag}`, offset: fileTagOffset(prelude, fileTag) }
  }
  if (tag.type.id === TYPE_ID.string) return { len: 0, lenSource: 'stored as text', offset: undefined }
  const bits = fixedWidth(tag.type) * 8
  const assumed = Math.min(32, bits / 2)
  warnings.push(
    `tag "${tag.name}": no length declared (no role length, no ${fileTag} file tag); assumed ${String(assumed)} nt from its ${String(bits)}-bit width`,
  )
  return { len: assumed, lenSource: `assumed from the ${String(bits)}-bit width`, offset: undefined }
}

/**
 * The field of a barcode or UMI tag, its length cut down to what the tag's
 * type can hold: a u32 holds 16 nt, a u64 32 (§7.8). A larger declared
 * length (`ulen` = 65,535 with a u32 UMI) would decode each value into
 * thousands of bases that are not in the file.
 */
function sequenceField(tag: TagDesc, i: number, level: number, found: FoundLength): SequenceField {
  const field: SequenceField = { tag: i, name: tag.name, level, len: found.len, lenSource: found.lenSource }
  const capacity = packedCapacity(tag.type)
  if (capacity !== undefined && found.len > capacity) {
    field.len = capacity
    field.lenSource = `${found.lenSource} says ${fmtInt(found.len)}, more than a ${describeType(tag.type)} holds: ${String(capacity)} used`
    field.overlong = { declared: found.len, offset: found.offset }
  }
  return field
}

function barcodeFileTag(name: string, count: number): string {
  const m = /^b(\d+)$/.exec(name)
  if (m?.[1] !== undefined) return `b${m[1]}len`
  return count > 1 ? `${name}len` : 'cblen'
}

function findBarcodes(prelude: Prelude, warnings: string[]): SequenceField[] {
  const tags = prelude.readTags
  let picks = tags.flatMap((t, i) => (t.role.kind === 'barcode' ? [i] : []))
  if (picks.length === 0) {
    picks = tags.flatMap((t, i) => (t.name === 'b' || t.name === 'barcode' || /^b\d+$/.test(t.name) ? [i] : []))
  }
  const fields = picks.map((i): SequenceField => {
    const tag = tags[i] as TagDesc
    const numbered = /^b(\d+)$/.exec(tag.name)
    const level = tag.role.level ?? (numbered?.[1] !== undefined ? Number(numbered[1]) : 0)
    return sequenceField(tag, i, level, sequenceLength(prelude, tag, barcodeFileTag(tag.name, picks.length), warnings))
  })
  return fields.sort((a, b) => a.level - b.level)
}

function findUmi(prelude: Prelude, warnings: string[]): SequenceField | undefined {
  const i = found(byRole(prelude.readTags, 'umi')) ?? found(byName(prelude.readTags, 'u'))
  if (i === undefined) return undefined
  const tag = prelude.readTags[i] as TagDesc
  return sequenceField(tag, i, 0, sequenceLength(prelude, tag, 'ulen', warnings))
}

function findOrientation(alnTags: readonly TagDesc[]): Semantics['orientation'] {
  const i =
    found(byRole(alnTags, 'orientation')) ?? found(byName(alnTags, 'compressed_ori_refid', 'compressed_ori_ref'))
  if (i === undefined || !isIntegerType(alnTags[i]?.type.id ?? -1)) return undefined
  // bulk's compressed_ori_ref packs two orientation bits (§7.4); others one (§5.3).
  const encoding: OrientationEncoding = alnTags[i]?.name === 'compressed_ori_ref' ? 'top2bits' : 'bit31'
  return { tag: i, encoding }
}

function findMappingType(prelude: Prelude): Semantics['mappingType'] {
  const read = found(byRole(prelude.readTags, 'mappingType')) ?? found(byName(prelude.readTags, 'frag_map_type'))
  if (read !== undefined) return { level: 'read', tag: read }
  const aln = found(byRole(prelude.alnTags, 'mappingType')) ?? found(byName(prelude.alnTags, 'type'))
  return aln !== undefined ? { level: 'alignment', tag: aln } : undefined
}

function guessAssay(s: Omit<Semantics, 'assay' | 'warnings'>, alnTags: readonly TagDesc[]): Assay {
  const t = s.knownRadType ?? ''
  if (t.startsWith('sc_rna_multi')) return 'scRNA-multi-barcode'
  if (t.startsWith('sc_rna')) return 'scRNA'
  if (t.startsWith('bulk')) return 'bulk'
  if (t.includes('atac')) return 'scATAC'
  if (s.barcodes.length > 1) return 'scRNA-multi-barcode'
  if (s.barcodes.length === 1 && s.umi) return alnTags.length >= 5 ? 'sc-long-read' : 'scRNA'
  if (s.barcodes.length === 1 && s.mappingType?.level === 'alignment') return 'scATAC'
  if (s.barcodes.length === 0 && s.mappingType?.level === 'read') return 'bulk'
  return 'unknown'
}

/** Works out what every well-known tag means (docs/format.md §7). */
export function inferSemantics(prelude: Prelude): Semantics {
  const warnings: string[] = []
  const alnTags = prelude.alnTags
  const known = fileTagValue(prelude, 'known_rad_type')
  const orientation = findOrientation(alnTags)
  const refTag = found(byRole(alnTags, 'reference')) ?? found(byName(alnTags, 'ref'))
  const reference =
    refTag !== undefined
      ? { tag: refTag, packed: undefined }
      : orientation
        ? { tag: orientation.tag, packed: orientation.encoding }
        : undefined
  const partial = {
    knownRadType: typeof known === 'string' ? known : undefined,
    barcodes: findBarcodes(prelude, warnings),
    umi: findUmi(prelude, warnings),
    reference,
    orientation,
    position: found(byRole(alnTags, 'mappingPosition')) ?? found(byName(alnTags, 'pos', 'start_pos')),
    fragmentLength: found(byRole(alnTags, 'fragmentLength')) ?? found(byName(alnTags, 'frag_len')),
    mappingType: findMappingType(prelude),
  }
  return { ...partial, assay: guessAssay(partial, alnTags), warnings }
}

/**
 * Every barcode or UMI length declared larger than its tag's type can hold
 * (ulen, cblen, bNlen file tags, §7; or a v2 role length, §2.3), as a
 * warning at the byte that declares it: the file reads, but not as it says.
 */
export function declaredLengthIssues(prelude: Prelude, sem: Semantics = inferSemantics(prelude)): IntegrityIssue[] {
  const fields = sem.umi ? [...sem.barcodes, sem.umi] : sem.barcodes
  return fields.flatMap((f): IntegrityIssue[] => {
    if (!f.overlong) return []
    const tag = prelude.readTags[f.tag] as TagDesc
    const at = f.overlong.offset === undefined ? '' : ` at byte ${fmtInt(f.overlong.offset)}`
    const issue: IntegrityIssue = {
      kind: 'declared-length',
      severity: 'warning',
      part: tag.role.len === f.overlong.declared ? 'prelude' : 'file-tag-values',
      message:
        `tag "${f.name}" is a ${describeType(tag.type)}, which holds at most ${String(f.len)} nt, but its length is declared as ` +
        `${fmtInt(f.overlong.declared)}${at}; its values are decoded as ${String(f.len)} nt`,
    }
    if (f.overlong.offset !== undefined) issue.offset = f.overlong.offset
    return [issue]
  })
}
