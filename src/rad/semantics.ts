import { fileTagValue } from './prelude'
import { isIntegerType, fixedWidth } from './tags'
import { TYPE_ID } from './types'
import type { Prelude, RoleKind, TagDesc, TagValue } from './types'

/**
 * What the tags mean (RAD-FORMAT.md §7.7): found by v2 role first, by the
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

/** Nucleotide length: role len, then the legacy file tag, then the integer width (§2.3, §7.8). */
function sequenceLength(
  prelude: Prelude,
  tag: TagDesc,
  roleLen: number | undefined,
  fileTag: string,
  warnings: string[],
): [number, string] {
  const legacy = numberValue(fileTagValue(prelude, fileTag))
  if (roleLen !== undefined && roleLen > 0) {
    if (legacy !== undefined && legacy !== roleLen) {
      warnings.push(
        `tag "${tag.name}": role length ${String(roleLen)} differs from file tag ${fileTag} = ${String(legacy)}; the role wins`,
      )
    }
    return [roleLen, 'role']
  }
  if (legacy !== undefined && legacy > 0) return [legacy, `file tag ${fileTag}`]
  if (tag.type.id === TYPE_ID.string) return [0, 'stored as text']
  const assumed = Math.min(32, (fixedWidth(tag.type) * 8) / 2)
  warnings.push(
    `tag "${tag.name}": no length declared (no role length, no ${fileTag} file tag); assumed ${String(assumed)} nt from its ${String(fixedWidth(tag.type) * 8)}-bit width`,
  )
  return [assumed, `assumed from the ${String(fixedWidth(tag.type) * 8)}-bit width`]
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
    const [len, lenSource] = sequenceLength(
      prelude,
      tag,
      tag.role.len,
      barcodeFileTag(tag.name, picks.length),
      warnings,
    )
    return { tag: i, name: tag.name, level, len, lenSource }
  })
  return fields.sort((a, b) => a.level - b.level)
}

function findUmi(prelude: Prelude, warnings: string[]): SequenceField | undefined {
  const i = found(byRole(prelude.readTags, 'umi')) ?? found(byName(prelude.readTags, 'u'))
  if (i === undefined) return undefined
  const tag = prelude.readTags[i] as TagDesc
  const [len, lenSource] = sequenceLength(prelude, tag, tag.role.len, 'ulen', warnings)
  return { tag: i, name: tag.name, level: 0, len, lenSource }
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

/** Works out what every well-known tag means (RAD-FORMAT.md §7). */
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
