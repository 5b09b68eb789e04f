import { u32le } from '../decode/chunk'
import { Cursor, NeedMoreBytes } from '../decode/cursor'
import { RadError, fmtInt, truncatedError } from '../errors'
import { SNAPPY_STREAM_ID, sniffForeignFormat } from './containerSniff'
import { readTagSection, readValue, describeType } from './tags'
import { TYPE_ID } from '../types'
import type { Codec, Prelude, TagDesc, TagValue } from '../types'

/** ASCII `RAD_FILE`, the v2 magic (docs/format.md §1.1). */
export const RAD_MAGIC = Uint8Array.of(0x52, 0x41, 0x44, 0x5f, 0x46, 0x49, 0x4c, 0x45)
export const HIGHEST_SUPPORTED_MAJOR = 2

/** The bytes start with the v2 magic (§1.1). */
export function hasRadMagic(bytes: Uint8Array): boolean {
  return RAD_MAGIC.every((b, i) => bytes[i] === b)
}

/**
 * A RAD prelude seems to start with these 8 bytes (§1.1): the magic, or a
 * legacy header, whose paired flag (0 or 1) is followed by a u64 ref_count
 * with its high bytes 0 and its low ones not.
 */
export function looksLikeRadStart(head: Uint8Array): boolean {
  if (head.length !== 8) return false
  if (hasRadMagic(head)) return true
  const paired = head[0]!
  return (paired === 0 || paired === 1) && head[5] === 0 && head[6] === 0 && head[7] === 0 && head[1]! + head[2]! > 0
}

/** The note on a file read with the early v2 prefix (§1.2): scanIssues lists it as a warning. */
export const EXT_LESS_NOTE =
  'the v2 prefix has no 4-byte ext_len: read as the early layout of docs/format.md §1.2 (magic, major, minor, then the header at byte 10), because the current layout did not parse'

/** §1.1–1.2: legacy vs versioned; returns [major, minor, extLen]. `extLess`: the early prefix, without ext_len. */
function readVersion(cur: Cursor, extLess: boolean): [number, number, number] {
  if (cur.fileSize === 0) {
    throw new RadError(
      'TRUNCATED',
      'the file is empty (0 bytes): a RAD file starts with a header of at least 23 bytes',
      0,
    )
  }
  cur.context = 'the file signature'
  const head = cur.bytes.subarray(0, Math.min(8, cur.bytes.length))
  if (head.length < 8 && cur.end < cur.fileSize) cur.need(8)
  if (head.length < 8 && head.length > 0 && RAD_MAGIC.subarray(0, head.length).every((b, i) => head[i] === b)) {
    cur.need(8) // a cut-off "RAD_FILE": truncated, not foreign
  }
  const whole = cur.bytes.length === cur.fileSize
  if (
    whole &&
    cur.fileSize < SNAPPY_STREAM_ID.length &&
    SNAPPY_STREAM_ID.subarray(0, cur.fileSize).every((b, i) => cur.bytes[i] === b)
  ) {
    cur.need(SNAPPY_STREAM_ID.length) // a cut-off Snappy stream identifier (.sz): truncated, not foreign
  }
  if (head.length === 8 && hasRadMagic(head)) {
    cur.skip(8)
    cur.context = 'the version prefix'
    const major = cur.u8()
    const minor = cur.u8()
    if (major < 2) {
      throw new RadError(
        'UNSUPPORTED_VERSION',
        `RAD_FILE magic with major version ${String(major)} at byte 8: versioned files start at major 2`,
        8,
      )
    }
    if (major > HIGHEST_SUPPORTED_MAJOR) {
      throw new RadError(
        'UNSUPPORTED_VERSION',
        `RAD spec version ${String(major)}.${String(minor)} at byte 8 is newer than this viewer understands (up to ${String(HIGHEST_SUPPORTED_MAJOR)}.x)`,
        8,
      )
    }
    if (extLess) return [major, minor, 0]
    const extLen = cur.u32()
    cur.context = 'the version extension block'
    cur.skip(extLen)
    return [major, minor, extLen]
  }
  // Legacy: byte 0 is the paired flag, so it must be 0 or 1 (§1.1).
  const first = head[0] ?? 0
  if (first > 1) {
    // Up to 16 bytes: some signatures (the 10-byte Snappy stream id) are longer than 8.
    const foreign = sniffForeignFormat(cur.bytes.subarray(0, 16))
    throw new RadError(
      'NOT_RAD',
      foreign ??
        `not a RAD file: it starts with byte 0x${first.toString(16).padStart(2, '0')}, but a RAD file starts with "RAD_FILE" or a paired flag of 0 or 1`,
      0,
    )
  }
  return [0, 0, 0]
}

function readRefNames(cur: Cursor, refCount: number): string[] {
  // Each name needs at least its 2-byte length: never allocate for more
  // names than the file could hold (§1.3).
  if (refCount * 2 > cur.fileSize - cur.pos) {
    throw truncatedError(`the reference names (${fmtInt(refCount)} declared)`, refCount * 2, cur.pos, cur.fileSize)
  }
  const names: string[] = []
  const start = cur.pos
  cur.context = 'the reference names'
  try {
    for (let i = 0; i < refCount; i++) names.push(cur.str16())
  } catch (e) {
    const i = names.length
    if (e instanceof NeedMoreBytes && i > 0) {
      // Ask for what the remaining names probably need (their average so far),
      // not a doubling: 300,000 names would otherwise be re-read ~8 times.
      const perName = (cur.pos - start) / i
      throw new NeedMoreBytes(Math.ceil(cur.pos + (refCount - i) * perName * 1.1 + 1024))
    }
    if (e instanceof RadError && e.code === 'TRUNCATED') {
      throw new RadError(e.code, `${e.message} (at reference name ${fmtInt(i)} of ${fmtInt(refCount)})`, e.offset)
    }
    throw e
  }
  return names
}

/** Each file tag's value, and the offset it starts at (§3.2). */
function readFileTagValues(cur: Cursor, tags: readonly TagDesc[]): { values: TagValue[]; offsets: number[] } {
  const values: TagValue[] = []
  const offsets: number[] = []
  for (const tag of tags) {
    cur.context = `the value of file tag "${tag.name}"`
    offsets.push(cur.pos)
    values.push(readValue(cur, tag.type))
  }
  return { values, offsets }
}

/** §6: `chunk_codec` u8 file tag; absent means none. */
function codecOf(fileTags: readonly TagDesc[], values: readonly TagValue[], valuesOffset: number): Codec {
  const i = fileTags.findIndex((t) => t.name === 'chunk_codec')
  if (i < 0) return 'none'
  const tag = fileTags[i]
  if (tag?.type.id !== TYPE_ID.u8) {
    throw new RadError(
      'BAD_CODEC',
      `file tag "chunk_codec" has type ${tag ? describeType(tag.type) : '?'}; it must be u8`,
      valuesOffset,
    )
  }
  const id = values[i]
  if (id === 0) return 'none'
  if (id === 1) return 'lz4'
  if (id === 2) return 'zstd'
  return 'unknown' // unknownCodecIssue explains; the chunk table still reads
}

/**
 * Parses the prelude (§0–3) and the file-tag values from a window that starts
 * at byte 0. Throws `NeedMoreBytes` when the window is too short and more of
 * the file exists, `RadError` for anything wrong with the bytes.
 */
export function parsePrelude(bytes: Uint8Array, fileSize: number): Prelude {
  try {
    return parsePreludeParts(new Cursor(bytes, 0, fileSize), false)
  } catch (e) {
    if (!(e instanceof RadError)) throw e // NeedMoreBytes: the caller reads more and asks again
    const early = mayBeExtLess(bytes) ? parseExtLess(bytes, fileSize) : undefined
    if (early) return early
    throw e.inPart('prelude')
  }
}

/**
 * §1.2 (UNCONFIRMED history): an early design had no ext_len after the
 * version. When the current layout fails, the file is read once more that
 * way, and kept only if that parses; the file is then flagged (EXT_LESS_NOTE).
 */
function mayBeExtLess(bytes: Uint8Array): boolean {
  // Every current writer's ext_len is 0; in the early layout those 4 bytes are the paired
  // flag (0/1) and ref_count's low bytes, non-zero for a file with references.
  const extLen = bytes.length >= 14 ? u32le(bytes, 10) : 0
  return hasRadMagic(bytes) && extLen !== 0 && (bytes[10] ?? 2) <= 1
}

function parseExtLess(bytes: Uint8Array, fileSize: number): Prelude | undefined {
  try {
    const prelude = parsePreludeParts(new Cursor(bytes, 0, fileSize), true)
    prelude.warnings.unshift(EXT_LESS_NOTE)
    return prelude
  } catch (e) {
    if (e instanceof RadError) return undefined
    throw e
  }
}

function parsePreludeParts(cur: Cursor, extLess: boolean): Prelude {
  const warnings: string[] = []
  const [major, minor, extLen] = readVersion(cur, extLess)
  const versioned = major >= 2
  cur.context = 'the header'
  const pairedAt = cur.pos
  const pairedByte = cur.u8()
  if (pairedByte > 1) {
    warnings.push(`paired flag at byte ${fmtInt(pairedAt)} is ${String(pairedByte)}; read as "paired"`)
  }
  cur.context = 'the header (ref_count)'
  const refCount = cur.u64Number('ref_count')
  const refNames = readRefNames(cur, refCount)
  cur.context = 'the header (num_chunks)'
  const numChunksOffset = cur.pos
  const numChunks = cur.u64Number('num_chunks')
  const fileTags = readTagSection(cur, 'file', versioned, warnings)
  const readTags = readTagSection(cur, 'read', versioned, warnings)
  const alnTags = readTagSection(cur, 'alignment', versioned, warnings)
  const tagValuesOffset = cur.pos
  let values: ReturnType<typeof readFileTagValues>
  try {
    values = readFileTagValues(cur, fileTags)
  } catch (e) {
    throw e instanceof RadError ? e.inPart('file-tag-values') : e
  }
  const codec = codecOf(fileTags, values.values, tagValuesOffset)
  if (numChunks === 0) {
    warnings.push(
      'num_chunks is 0 (unknown — the mapper may not have finished): chunks are read to the end of the file',
    )
  }
  return {
    version: [major, minor],
    extLen,
    paired: pairedByte !== 0,
    refCount,
    refNames,
    numChunks,
    numChunksOffset,
    fileTags,
    readTags,
    alnTags,
    fileTagValues: values.values,
    fileTagValueOffsets: values.offsets,
    codec,
    tagValuesOffset,
    firstChunkOffset: cur.pos,
    warnings,
  }
}

/** The value of a file tag by name, if declared. */
export function fileTagValue(prelude: Prelude, name: string): TagValue | undefined {
  const i = prelude.fileTags.findIndex((t) => t.name === name)
  return i < 0 ? undefined : prelude.fileTagValues[i]
}

/** `num_chunks` as stored: a u64, little-endian (§1.3). */
export function numChunksBytes(count: number): Uint8Array {
  const out = new Uint8Array(8)
  new DataView(out.buffer).setBigUint64(0, BigInt(count), true)
  return out
}

/**
 * Sets `num_chunks` in `head`, the file's bytes from byte 0 to at least the
 * end of the field: the u64 right after the reference names, at
 * `numChunksOffset` (§1.3; in a v2 file that offset counts the version
 * prefix, §1.2). 0 means "unknown, read to the end of the file" (§1.4).
 * The subset writer writes 0 and patches the real count when done, as the
 * mappers do; salvage writes the number of chunks it keeps.
 */
export function patchNumChunks(head: Uint8Array, prelude: Pick<Prelude, 'numChunksOffset'>, count: number): void {
  head.set(numChunksBytes(count), prelude.numChunksOffset)
}
