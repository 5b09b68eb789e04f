import type { Cursor } from '../decode/cursor'
import { RadError, fmtInt } from '../errors'
import { TYPE_ID } from '../types'
import type { RoleKind, TagDesc, TagRole, TagType, TagValue, TypeName } from '../types'

const TYPE_NAMES: readonly TypeName[] = [
  'bool',
  'u8',
  'u16',
  'u32',
  'u64',
  'f32',
  'f64',
  'array',
  'string',
  'u128',
  'i8',
  'i16',
  'i32',
  'i64',
  'i128',
]

/** Byte width of each fixed-width type id; 0 for variable width (§3). */
const FIXED_WIDTH: readonly number[] = [1, 1, 2, 4, 8, 4, 8, 0, 0, 16, 1, 2, 4, 8, 16]

const INTEGER_IDS = new Set<number>([1, 2, 3, 4, 9, 10, 11, 12, 13, 14])

export function typeName(id: number): TypeName {
  const name = TYPE_NAMES[id]
  if (name === undefined) throw new Error(`internal: unknown type id ${String(id)}`)
  return name
}

/** `u32`, `array<u32,u64>`, … as shown to people. */
export function describeType(type: TagType): string {
  if (type.id !== TYPE_ID.array) return typeName(type.id)
  return `array<${typeName(type.lengthType ?? 0)},${typeName(type.elementType ?? 0)}>`
}

export function isIntegerType(id: number): boolean {
  return INTEGER_IDS.has(id)
}

/** Fixed byte width of a type, or 0 when the width depends on the value. */
export function fixedWidth(type: TagType): number {
  return FIXED_WIDTH[type.id] ?? 0
}

/** Sum of widths, or -1 when any tag is variable-width. */
export function fixedStride(tags: readonly TagDesc[]): number {
  let sum = 0
  for (const tag of tags) {
    const w = fixedWidth(tag.type)
    if (w === 0) return -1
    sum += w
  }
  return sum
}

/** Smallest number of bytes a value of this type can take (for allocation guards). */
function minWidth(id: number): number {
  if (id === TYPE_ID.string) return 2
  return FIXED_WIDTH[id] ?? 1
}

/** Reads a scalar (non-array) value of type id `id` (§3). */
function readScalar(cur: Cursor, id: number): TagValue {
  switch (id) {
    case TYPE_ID.bool:
      // byte != 0 is true (§3.2 bug note: libradicl reads "> 1").
      return cur.u8() !== 0
    case TYPE_ID.u8:
      return cur.u8()
    case TYPE_ID.u16:
      return cur.u16()
    case TYPE_ID.u32:
      return cur.u32()
    case TYPE_ID.u64:
      return cur.u64()
    case TYPE_ID.f32:
      return cur.f32()
    case TYPE_ID.f64:
      return cur.f64()
    case TYPE_ID.string:
      return cur.str16()
    case TYPE_ID.u128:
      return cur.u128()
    case TYPE_ID.i8:
      return cur.i8()
    case TYPE_ID.i16:
      return cur.i16()
    case TYPE_ID.i32:
      return cur.i32()
    case TYPE_ID.i64:
      return cur.i64()
    case TYPE_ID.i128:
      return cur.i128()
    default:
      throw new Error(`internal: readScalar on type id ${String(id)}`)
  }
}

/** An array's element count, as a Number, checked against the bytes that can hold it. */
function readArrayCount(cur: Cursor, type: TagType): number {
  const at = cur.pos
  const raw = readScalar(cur, type.lengthType ?? TYPE_ID.u32)
  const count = Number(raw)
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new RadError(
      'BAD_VALUE',
      `array length at byte ${fmtInt(at)} is ${String(raw)}, which is not a valid count`,
      at,
    )
  }
  // Guard before allocating: `count` elements need at least this many bytes.
  cur.need(count * minWidth(type.elementType ?? TYPE_ID.u8))
  return count
}

/** Reads one value of any type (§3, §3.1 arrays). */
export function readValue(cur: Cursor, type: TagType): TagValue {
  if (type.id !== TYPE_ID.array) return readScalar(cur, type.id)
  const count = readArrayCount(cur, type)
  const elementType = type.elementType ?? TYPE_ID.u8
  const values: TagValue[] = new Array<TagValue>(count)
  for (let k = 0; k < count; k++) values[k] = readScalar(cur, elementType)
  return values
}

/** Advances past one value without building it. */
export function skipValue(cur: Cursor, type: TagType): void {
  const width = fixedWidth(type)
  if (width > 0) {
    cur.skip(width)
  } else if (type.id === TYPE_ID.string) {
    cur.skip(cur.u16())
  } else {
    const count = readArrayCount(cur, type)
    const elementType = type.elementType ?? TYPE_ID.u8
    const elementWidth = FIXED_WIDTH[elementType] ?? 0
    if (elementWidth > 0) {
      cur.skip(count * elementWidth)
    } else {
      for (let k = 0; k < count; k++) cur.skip(cur.u16())
    }
  }
}

const ROLE_KINDS: readonly RoleKind[] = [
  'none',
  'barcode',
  'umi',
  'reference',
  'orientation',
  'mappingPosition',
  'fragmentLength',
  'mappingType',
]

/**
 * v2 role suffix `[code u8][plen u8][payload]` (§2.3). Unknown codes read as
 * None with the code kept; a longer payload than expected is skipped.
 */
function readRole(cur: Cursor, warnings: string[], tagName: string): TagRole {
  const code = cur.u8()
  const plen = cur.u8()
  const payload = cur.bytesOf(plen)
  const kind = ROLE_KINDS[code]
  if (kind === undefined) {
    warnings.push(`tag "${tagName}" has role code ${String(code)}, unknown to this viewer; treated as no role`)
    return { kind: 'none', code }
  }
  if (kind === 'barcode') {
    return { kind, code, level: payload[0] ?? 0, len: payload[1] ?? 0 }
  }
  if (kind === 'umi') return { kind, code, len: payload[0] ?? 0 }
  return { kind, code }
}

function checkTypeId(id: number, at: number, tagName: string, what: string): void {
  if (id > 14) {
    throw new RadError(
      'BAD_TAG_TYPE',
      `tag "${tagName}" declares ${what} type id ${String(id)} at byte ${fmtInt(at)}; valid ids are 0–14`,
      at,
    )
  }
}

/** One tag descriptor (§2.2). */
function readDescriptor(cur: Cursor, versioned: boolean, warnings: string[]): TagDesc {
  const name = cur.str16()
  const typeAt = cur.pos
  const id = cur.u8()
  checkTypeId(id, typeAt, name, 'value')
  const type: TagType = { id }
  if (id === TYPE_ID.array) {
    const lengthAt = cur.pos
    const lengthType = cur.u8()
    const elementType = cur.u8()
    if (!isIntegerType(lengthType)) {
      throw new RadError(
        'BAD_TAG_TYPE',
        `array tag "${name}" uses type id ${String(lengthType)} for its length at byte ${fmtInt(lengthAt)}; a length must be an integer type`,
        lengthAt,
      )
    }
    checkTypeId(elementType, lengthAt + 1, name, 'element')
    if (elementType === TYPE_ID.array) {
      throw new RadError(
        'BAD_TAG_TYPE',
        `array tag "${name}" nests another array at byte ${fmtInt(lengthAt + 1)}`,
        lengthAt + 1,
      )
    }
    type.lengthType = lengthType
    type.elementType = elementType
  }
  if (!versioned) return { name, type, role: { kind: 'none', code: 0 } }
  const roleOffset = cur.pos
  return { name, type, role: readRole(cur, warnings, name), roleOffset }
}

/** Absolute offset of the byte holding a Barcode or Umi role's length: `[code][plen][level?][len]` (§2.3). */
export function roleLenOffset(tag: TagDesc): number | undefined {
  if (tag.roleOffset === undefined) return undefined
  if (tag.role.kind === 'barcode') return tag.roleOffset + 3
  return tag.role.kind === 'umi' ? tag.roleOffset + 2 : undefined
}

/** A tag section: u16 count, then descriptors (§2.1). */
export function readTagSection(cur: Cursor, label: string, versioned: boolean, warnings: string[]): TagDesc[] {
  cur.context = `the ${label} tag section`
  const count = cur.u16()
  const tags: TagDesc[] = []
  for (let k = 0; k < count; k++) {
    cur.context = `${label} tag descriptor ${String(k)}`
    tags.push(readDescriptor(cur, versioned, warnings))
  }
  return tags
}
