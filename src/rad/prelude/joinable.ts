/**
 * Can two RAD files be joined into one (`rad cat`, `rad compare`)? Only when
 * the second was written against the same index, with the same schema, as
 * the first: the chunks of both then mean the same thing under one prelude.
 * Compared in the order the fields sit in the prelude (docs/format.md §1–§3):
 *
 * - the format version (§1.2: major and minor; legacy is 0.0);
 * - `paired` and the references: their count, then each name in order (§1.3);
 * - the file, read and alignment tag descriptions: count, then each tag's
 *   name, type and v2 role (code, level, len) (§2);
 * - the file-tag values (§3.2), such as `cblen`, `ulen`, `known_rad_type`.
 *
 * `chunk_codec` (§6) is left out of the descriptions and the values: it says
 * how the chunks are stored, not what they hold, and a joined file is written
 * uncompressed. `num_chunks` and the extension block's bytes are not compared.
 *
 * Pure: no I/O, no DOM, so the page can use it as the CLI does.
 */
import type { Prelude, TagDesc, TagRole, TagValue } from '../types'
import { describeType } from './tags'
import { roleName } from '../text/display'

/** The first field in which two preludes differ, and its value in each (as text for people). */
export interface JoinDifference {
  /** The field, e.g. `reference 17`, `the number of read tags`, `file tag "ulen"`. */
  field: string
  a: string
  b: string
}

/** The file tag that says how chunks are stored (§6): not part of what is compared. */
const CODEC_TAG = 'chunk_codec'

function versionText(v: readonly [number, number]): string {
  const text = `${String(v[0])}.${String(v[1])}`
  return v[0] === 0 ? `${text} (legacy)` : text
}

/** A role as §2.3 names it, with its payload: `Barcode (level 0, len 16)`; an unknown code by its number. */
export function roleText(role: TagRole): string {
  const name = role.kind === 'none' && role.code !== 0 ? `unknown role code ${String(role.code)}` : roleName(role.kind)
  const parts: string[] = []
  if (role.level !== undefined) parts.push(`level ${String(role.level)}`)
  if (role.len !== undefined) parts.push(`len ${String(role.len)}`)
  return parts.length > 0 ? `${name} (${parts.join(', ')})` : name
}

function sameRole(a: TagRole, b: TagRole): boolean {
  return a.kind === b.kind && a.code === b.code && a.level === b.level && a.len === b.len
}

/** The file tags and their values, `chunk_codec` left out. */
function comparedFileTags(p: Prelude): { tags: TagDesc[]; values: TagValue[] } {
  const tags: TagDesc[] = []
  const values: TagValue[] = []
  p.fileTags.forEach((tag, i) => {
    if (tag.name === CODEC_TAG) return
    tags.push(tag)
    values.push(p.fileTagValues[i] ?? '')
  })
  return { tags, values }
}

function tagSectionDifference(
  section: string,
  a: readonly TagDesc[],
  b: readonly TagDesc[],
): JoinDifference | undefined {
  if (a.length !== b.length) {
    return { field: `the number of ${section} tags`, a: String(a.length), b: String(b.length) }
  }
  for (let i = 0; i < a.length; i++) {
    const ta = a[i]
    const tb = b[i]
    if (!ta || !tb) continue
    const which = `${section} tag ${String(i)}`
    if (ta.name !== tb.name) {
      return { field: `the name of ${which}`, a: JSON.stringify(ta.name), b: JSON.stringify(tb.name) }
    }
    const named = `${which} (${JSON.stringify(ta.name)})`
    const typeA = describeType(ta.type)
    const typeB = describeType(tb.type)
    if (typeA !== typeB) return { field: `the type of ${named}`, a: typeA, b: typeB }
    if (!sameRole(ta.role, tb.role)) {
      return { field: `the role of ${named}`, a: roleText(ta.role), b: roleText(tb.role) }
    }
  }
  return undefined
}

/** A value for a message: strings quoted, 64-bit integers as digits. */
function valueText(v: TagValue): string {
  if (typeof v === 'string') return JSON.stringify(v)
  if (typeof v === 'bigint') return v.toString()
  if (Array.isArray(v)) return `an array of ${String(v.length)}`
  return String(v)
}

function sameValue(a: TagValue, b: TagValue): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    return a.every((x, i) => sameValue(x, b[i] ?? ''))
  }
  if (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a)) return Number.isNaN(b)
  return a === b
}

/** Where two values differ; arrays (such as bulk `ref_lengths`) by their length, then their first differing element. */
function valueDifference(field: string, a: TagValue, b: TagValue): JoinDifference | undefined {
  if (sameValue(a, b)) return undefined
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return { field: `the length of ${field}`, a: String(a.length), b: String(b.length) }
    for (let i = 0; i < a.length; i++) {
      const d = valueDifference(`element ${String(i)} of ${field}`, a[i] ?? '', b[i] ?? '')
      if (d) return d
    }
  }
  return { field, a: valueText(a), b: valueText(b) }
}

/** The first difference that keeps `b` from being joined after `a`, or undefined when they can be joined. */
export function joinDifference(a: Prelude, b: Prelude): JoinDifference | undefined {
  if (a.version[0] !== b.version[0] || a.version[1] !== b.version[1]) {
    return { field: 'the format version', a: versionText(a.version), b: versionText(b.version) }
  }
  if (a.paired !== b.paired) return { field: 'paired', a: a.paired ? '1' : '0', b: b.paired ? '1' : '0' }
  if (a.refCount !== b.refCount) {
    return { field: 'the number of references', a: String(a.refCount), b: String(b.refCount) }
  }
  for (let i = 0; i < a.refNames.length; i++) {
    const na = a.refNames[i] ?? ''
    const nb = b.refNames[i] ?? ''
    if (na !== nb) return { field: `reference ${String(i)}`, a: JSON.stringify(na), b: JSON.stringify(nb) }
  }
  const fa = comparedFileTags(a)
  const fb = comparedFileTags(b)
  const tags =
    tagSectionDifference('file', fa.tags, fb.tags) ??
    tagSectionDifference('read', a.readTags, b.readTags) ??
    tagSectionDifference('alignment', a.alnTags, b.alnTags)
  if (tags) return tags
  for (let i = 0; i < fa.tags.length; i++) {
    const d = valueDifference(
      `file tag ${JSON.stringify(fa.tags[i]?.name ?? '')}`,
      fa.values[i] ?? '',
      fb.values[i] ?? '',
    )
    if (d) return d
  }
  return undefined
}

/** `reference 17 is "TX3" in A.rad, "TX9" in B.rad`. */
export function differenceText(d: JoinDifference, aName: string, bName: string): string {
  return `${d.field} is ${d.a} in ${aName}, ${d.b} in ${bName}`
}
