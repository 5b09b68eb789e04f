/**
 * Test-only RAD writer: builds byte-exact RAD files (docs/format.md) from a
 * declarative description, valid or deliberately broken, and reports where
 * every part landed so tests can assert exact byte offsets.
 *
 * Nothing here is shared with the reader in src/: the encoding is written out
 * again from the spec, so a misreading of the spec in the reader is not
 * silently mirrored here.
 */
import { Zstd } from '@hpcc-js/wasm-zstd'
import { compressBlock, compressBound } from 'lz4js'
import { compress as snappyCompress } from 'snappyjs'

/** Type ids of docs/format.md §3, by name. */
export const T = {
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

export type TypeName = keyof typeof T
/** A type by name, or a raw id (any u8, to write invalid descriptors). */
export type TypeRef = TypeName | number

/** A value to encode. Booleans may be given as raw bytes (numbers) to test the `!= 0` rule. */
export type WValue = boolean | number | bigint | string | readonly WValue[]

/** v2 role suffix `[code u8][plen u8][payload]` (§2.3). */
export interface RoleSpec {
  code: number
  payload?: readonly number[]
}

export const role = {
  none: { code: 0 } as RoleSpec,
  barcode: (level: number, len: number): RoleSpec => ({ code: 1, payload: [level, len] }),
  umi: (len: number): RoleSpec => ({ code: 2, payload: [len] }),
  reference: { code: 3 } as RoleSpec,
  orientation: { code: 4 } as RoleSpec,
  position: { code: 5 } as RoleSpec,
  fragmentLength: { code: 6 } as RoleSpec,
  mappingType: { code: 7 } as RoleSpec,
}

export interface TagSpec {
  name: string
  type: TypeRef
  /** Arrays: the length type. */
  length?: TypeRef
  /** Arrays: the element type. */
  element?: TypeRef
  /** v2 only; defaults to None (`00 00`). */
  role?: RoleSpec
}

export function tag(name: string, type: TypeRef, tagRole?: RoleSpec): TagSpec {
  return tagRole ? { name, type, role: tagRole } : { name, type }
}

export function arrayTag(name: string, length: TypeRef, element: TypeRef, tagRole?: RoleSpec): TagSpec {
  const spec: TagSpec = { name, type: 'array', length, element }
  if (tagRole) spec.role = tagRole
  return spec
}

/** Values for a list of tags: positional, or by tag name. */
export type Values = readonly WValue[] | Readonly<Record<string, WValue>>

export interface RecordSpec {
  /** One value per read tag. */
  read?: Values
  /** One entry per alignment, each with one value per alignment tag. */
  alns?: readonly Values[]
  /** Overrides the stored alignment count (broken files). */
  naln?: number
}

export type CodecName = 'none' | 'lz4' | 'zstd'

export interface ChunkSpec {
  records?: readonly RecordSpec[]
  /** Overrides the stored nbytes. */
  nbytes?: number
  /** Overrides the stored nrec (default: records.length). */
  nrec?: number
  /** Bytes appended after the records, before compression (an undeclared field). */
  extra?: Uint8Array | readonly number[]
  /** Replaces the encoded record bytes (before compression). */
  payload?: Uint8Array | readonly number[]
  /** Replaces the stored (possibly compressed) payload entirely. */
  stored?: Uint8Array | readonly number[]
  /** Overrides the codec taken from the `chunk_codec` file tag for this chunk. */
  codec?: CodecName
}

export interface VersionSpec {
  major?: number
  minor?: number
  /** Extension block bytes (ext_len = their length unless extLen is given). */
  ext?: Uint8Array | readonly number[]
  /** Overrides the stored ext_len. */
  extLen?: number
  /** The early, ext-less v2 prefix variant (§1.2 history notes). */
  omitExtLen?: boolean
}

export interface RadSpec {
  /** Omit or false for a legacy file; true for v2.0 with ext_len 0. */
  v2?: boolean | VersionSpec
  paired?: boolean | number
  refs?: readonly string[] | { count: number; name: (i: number) => string }
  /** Overrides the stored ref_count. */
  refCount?: number | bigint
  /** num_chunks as stored; default: the number of chunks written. */
  numChunks?: number | bigint
  fileTags?: readonly TagSpec[]
  readTags?: readonly TagSpec[]
  alnTags?: readonly TagSpec[]
  fileValues?: Values
  chunks?: readonly ChunkSpec[]
  /** §4.2: what nbytes counts. Default header-inclusive (every real producer). */
  nbytes?: 'header-inclusive' | 'payload-only'
  /** Write v2 role suffixes; default: whenever the file is v2. */
  roleSuffix?: boolean
  /** Bytes after the last chunk. */
  trailing?: Uint8Array | readonly number[]
  /** Raw byte overrides applied to the finished file. */
  patches?: readonly { at: number; bytes: Uint8Array | readonly number[] }[]
}

export interface ChunkLayout {
  /** Absolute offset of the chunk header. */
  offset: number
  nbytes: number
  nrec: number
  /** Bytes on disk, header included. */
  span: number
  /** Absolute offset of the first payload byte. */
  payloadOffset: number
  /** Absolute offset of each record (uncompressed chunks; payload-relative + payloadOffset). */
  recordOffsets: number[]
  /** The uncompressed record bytes (extra included). */
  records: Uint8Array
  codec: CodecName
}

export interface RadLayout {
  versioned: boolean
  numChunksOffset: number
  /** Offset of the file tag section (after num_chunks). */
  tagSectionsOffset: number
  /** Offset of the file-tag values (end of the prelude proper). */
  tagValuesOffset: number
  firstChunkOffset: number
  chunks: ChunkLayout[]
  /** Offset of the trailing bytes (end of the last chunk). */
  endOfChunks: number
  size: number
}

export interface BuiltRad {
  bytes: Uint8Array
  layout: RadLayout
}

// ---------------------------------------------------------------------------
// Byte writer

/** A growable little-endian byte buffer. */
export class ByteWriter {
  private buf = new Uint8Array(256)
  private view = new DataView(this.buf.buffer)
  length = 0

  /** Makes room for n bytes and returns where they go (may replace buf and view). */
  private reserve(n: number): number {
    const at = this.length
    if (at + n > this.buf.length) {
      let size = this.buf.length * 2
      while (size < at + n) size *= 2
      const next = new Uint8Array(size)
      next.set(this.buf.subarray(0, at))
      this.buf = next
      this.view = new DataView(next.buffer)
    }
    this.length += n
    return at
  }

  u8(v: number): this {
    const at = this.reserve(1)
    this.view.setUint8(at, v)
    return this
  }
  i8(v: number): this {
    const at = this.reserve(1)
    this.view.setInt8(at, v)
    return this
  }
  u16(v: number): this {
    const at = this.reserve(2)
    this.view.setUint16(at, v, true)
    return this
  }
  i16(v: number): this {
    const at = this.reserve(2)
    this.view.setInt16(at, v, true)
    return this
  }
  u32(v: number): this {
    const at = this.reserve(4)
    this.view.setUint32(at, v, true)
    return this
  }
  i32(v: number): this {
    const at = this.reserve(4)
    this.view.setInt32(at, v, true)
    return this
  }
  u64(v: number | bigint): this {
    const at = this.reserve(8)
    this.view.setBigUint64(at, BigInt.asUintN(64, BigInt(v)), true)
    return this
  }
  i64(v: number | bigint): this {
    const at = this.reserve(8)
    this.view.setBigInt64(at, BigInt.asIntN(64, BigInt(v)), true)
    return this
  }
  /** 128-bit, low 64-bit word first (LE); negative values as two's complement. */
  u128(v: number | bigint): this {
    const big = BigInt.asUintN(128, BigInt(v))
    return this.u64(big & ((1n << 64n) - 1n)).u64(big >> 64n)
  }
  f32(v: number): this {
    const at = this.reserve(4)
    this.view.setFloat32(at, v, true)
    return this
  }
  f64(v: number): this {
    const at = this.reserve(8)
    this.view.setFloat64(at, v, true)
    return this
  }
  bytes(b: Uint8Array | readonly number[]): this {
    const at = this.reserve(b.length)
    this.buf.set(b, at)
    return this
  }
  /** str16: u16 byte length + UTF-8 bytes. */
  str16(s: string): this {
    const b = utf8(s)
    if (b.length > 0xffff) throw new Error(`str16 too long: ${b.length}`)
    return this.u16(b.length).bytes(b)
  }
  /** Overwrites a u32 already written. */
  setU32(at: number, v: number): void {
    this.view.setUint32(at, v, true)
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.length)
  }
}

const encoder = new TextEncoder()
function utf8(s: string): Uint8Array {
  // Names are mostly ASCII; skip the encoder for them (300k references).
  let ascii = true
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false
      break
    }
  }
  if (!ascii) return encoder.encode(s)
  const out = new Uint8Array(s.length)
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i)
  return out
}

function typeId(t: TypeRef): number {
  return typeof t === 'number' ? t : T[t]
}

// ---------------------------------------------------------------------------
// Values

function asNumber(v: WValue, what: string): number {
  if (typeof v === 'number') return v
  if (typeof v === 'boolean') return v ? 1 : 0
  if (typeof v === 'bigint') return Number(v)
  throw new Error(`${what}: expected a number, got ${typeof v}`)
}

function asBig(v: WValue, what: string): bigint {
  if (typeof v === 'bigint') return v
  if (typeof v === 'number') return BigInt(v)
  if (typeof v === 'boolean') return v ? 1n : 0n
  throw new Error(`${what}: expected an integer, got ${typeof v}`)
}

/** Writes one scalar of type id `id` (§3). */
export function writeScalar(w: ByteWriter, id: number, v: WValue): void {
  const what = `type id ${id}`
  switch (id) {
    case T.bool:
      w.u8(asNumber(v, what))
      return
    case T.u8:
      w.u8(asNumber(v, what))
      return
    case T.u16:
      w.u16(asNumber(v, what))
      return
    case T.u32:
      w.u32(asNumber(v, what))
      return
    case T.u64:
      w.u64(asBig(v, what))
      return
    case T.f32:
      w.f32(asNumber(v, what))
      return
    case T.f64:
      w.f64(asNumber(v, what))
      return
    case T.string:
      if (typeof v !== 'string') throw new Error(`${what}: expected a string`)
      w.str16(v)
      return
    case T.u128:
    case T.i128:
      w.u128(asBig(v, what))
      return
    case T.i8:
      w.i8(asNumber(v, what))
      return
    case T.i16:
      w.i16(asNumber(v, what))
      return
    case T.i32:
      w.i32(asNumber(v, what))
      return
    case T.i64:
      w.i64(asBig(v, what))
      return
    default:
      throw new Error(`cannot encode a value of type id ${id}`)
  }
}

/** Writes one value of a tag (§3, arrays as count + elements, string elements as str16). */
export function writeValue(w: ByteWriter, spec: TagSpec, v: WValue): void {
  const id = typeId(spec.type)
  if (id !== T.array) {
    writeScalar(w, id, v)
    return
  }
  if (!Array.isArray(v)) throw new Error(`tag ${spec.name}: an array value is needed`)
  const items = v as readonly WValue[]
  writeScalar(w, typeId(spec.length ?? 'u32'), items.length)
  const element = typeId(spec.element ?? 'u32')
  for (const item of items) writeScalar(w, element, item)
}

function valueAt(values: Values | undefined, tags: readonly TagSpec[], i: number, what: string): WValue {
  const spec = tags[i]
  if (!spec) throw new Error(`${what}: no tag ${i}`)
  const v = Array.isArray(values)
    ? (values as readonly WValue[])[i]
    : (values as Record<string, WValue> | undefined)?.[spec.name]
  if (v === undefined) throw new Error(`${what}: no value for tag "${spec.name}"`)
  return v
}

/** True when a descriptor is invalid, so no value of it can be written (broken-file tests). */
function unwritable(spec: TagSpec): boolean {
  const id = typeId(spec.type)
  if (id > 14) return true
  if (id !== T.array) return false
  const length = typeId(spec.length ?? 'u32')
  const element = typeId(spec.element ?? 'u32')
  return element > 14 || element === T.array || ![1, 2, 3, 4, 9, 10, 11, 12, 13, 14].includes(length)
}

function writeValues(w: ByteWriter, tags: readonly TagSpec[], values: Values | undefined, what: string): void {
  for (let i = 0; i < tags.length; i++) {
    const spec = tags[i] as TagSpec
    if (unwritable(spec)) continue
    writeValue(w, spec, valueAt(values, tags, i, what))
  }
}

// ---------------------------------------------------------------------------
// Descriptors

function writeDescriptor(w: ByteWriter, spec: TagSpec, roles: boolean): void {
  w.str16(spec.name)
  const id = typeId(spec.type)
  w.u8(id)
  if (id === T.array) w.u8(typeId(spec.length ?? 'u32')).u8(typeId(spec.element ?? 'u32'))
  if (roles) {
    const r = spec.role ?? role.none
    const payload = r.payload ?? []
    w.u8(r.code).u8(payload.length).bytes(payload)
  }
}

function writeSection(w: ByteWriter, tags: readonly TagSpec[], roles: boolean): void {
  w.u16(tags.length)
  for (const t of tags) writeDescriptor(w, t, roles)
}

// ---------------------------------------------------------------------------
// Compression

/** A raw LZ4 block holding only literals (always valid; used when lz4js finds no match). */
function literalBlock(src: Uint8Array): Uint8Array {
  const w = new ByteWriter()
  const n = src.length
  if (n >= 15) {
    w.u8(0xf0)
    let rest = n - 15
    for (; rest >= 255; rest -= 255) w.u8(255)
    w.u8(rest)
  } else {
    w.u8(n << 4)
  }
  return w.bytes(src).finish()
}

/** lz4 chunk payload (§6): u32 LE uncompressed size + raw LZ4 block (lz4_flex `compress_prepend_size`). */
export function lz4Payload(data: Uint8Array): Uint8Array {
  const dst = new Uint8Array(compressBound(data.length) + 16)
  const n = data.length > 0 ? compressBlock(data, dst, 0, data.length, new Uint32Array(1 << 16)) : 0
  const block = n > 0 ? dst.subarray(0, n) : literalBlock(data)
  return new ByteWriter().u32(data.length).bytes(block).finish()
}

let zstd: Zstd | undefined

/** Loads the wasm zstd compressor; call once (e.g. in beforeAll) before building zstd chunks. */
export async function loadZstd(): Promise<void> {
  zstd ??= await Zstd.load()
}

/** A standard zstd frame (§6, `zstd::encode_all(payload, 3)`). */
export function zstdFrame(data: Uint8Array, level = 3): Uint8Array {
  if (!zstd) throw new Error('call loadZstd() before building zstd-compressed chunks')
  return zstd.compress(data, level).slice()
}

function compressWith(codec: CodecName, data: Uint8Array): Uint8Array {
  if (codec === 'lz4') return lz4Payload(data)
  if (codec === 'zstd') return zstdFrame(data)
  return data
}

// ---------------------------------------------------------------------------
// Records and chunks

/** Encodes one record: naln, read tag values, then each alignment's values (§5.1). */
export function writeRecord(w: ByteWriter, spec: RadSpec, rec: RecordSpec): void {
  const alns = rec.alns ?? []
  w.u32(rec.naln ?? alns.length)
  writeValues(w, spec.readTags ?? [], rec.read, 'record')
  for (const a of alns) writeValues(w, spec.alnTags ?? [], a, 'alignment')
}

function fileCodec(spec: RadSpec): CodecName {
  const tags = spec.fileTags ?? []
  const i = tags.findIndex((t) => t.name === 'chunk_codec')
  if (i < 0) return 'none'
  const v = valueAt(spec.fileValues, tags, i, 'file tags')
  return v === 1 ? 'lz4' : v === 2 ? 'zstd' : 'none'
}

function writeChunk(w: ByteWriter, spec: RadSpec, chunk: ChunkSpec, defaultCodec: CodecName): ChunkLayout {
  const records = chunk.records ?? []
  const rw = new ByteWriter()
  const recordOffsets: number[] = []
  if (chunk.payload) {
    rw.bytes(chunk.payload)
  } else {
    for (const rec of records) {
      recordOffsets.push(rw.length)
      writeRecord(rw, spec, rec)
    }
  }
  if (chunk.extra) rw.bytes(chunk.extra)
  const recordBytes = rw.finish()
  const codec = chunk.codec ?? defaultCodec
  const stored = chunk.stored ? Uint8Array.from(chunk.stored) : compressWith(codec, recordBytes)
  const payloadOnly = spec.nbytes === 'payload-only'
  const nbytes = chunk.nbytes ?? (payloadOnly ? stored.length : stored.length + 8)
  const nrec = chunk.nrec ?? records.length
  const offset = w.length
  w.u32(nbytes).u32(nrec).bytes(stored)
  return {
    offset,
    nbytes,
    nrec,
    span: 8 + stored.length,
    payloadOffset: offset + 8,
    recordOffsets: recordOffsets.map((r) => r + offset + 8),
    records: recordBytes,
    codec,
  }
}

// ---------------------------------------------------------------------------
// The file

function versionOf(spec: RadSpec): VersionSpec | undefined {
  if (spec.v2 === undefined || spec.v2 === false) return undefined
  return spec.v2 === true ? {} : spec.v2
}

/** Builds a whole RAD file and reports where its parts are. */
export function buildRad(spec: RadSpec): BuiltRad {
  const w = new ByteWriter()
  const version = versionOf(spec)
  if (version) {
    w.bytes(encoder.encode('RAD_FILE'))
    w.u8(version.major ?? 2).u8(version.minor ?? 0)
    const ext = version.ext ?? []
    if (!version.omitExtLen) w.u32(version.extLen ?? ext.length)
    w.bytes(ext)
  }
  const paired = spec.paired ?? false
  w.u8(typeof paired === 'number' ? paired : paired ? 1 : 0)

  const refs = spec.refs ?? []
  const count = Array.isArray(refs) ? refs.length : (refs as { count: number }).count
  w.u64(spec.refCount ?? count)
  if (Array.isArray(refs)) {
    for (const name of refs as readonly string[]) w.str16(name)
  } else {
    const gen = refs as { count: number; name: (i: number) => string }
    for (let i = 0; i < gen.count; i++) w.str16(gen.name(i))
  }

  const chunks = spec.chunks ?? []
  const numChunksOffset = w.length
  w.u64(spec.numChunks ?? chunks.length)

  const roles = spec.roleSuffix ?? (version !== undefined && (version.major ?? 2) >= 2)
  const tagSectionsOffset = w.length
  const fileTags = spec.fileTags ?? []
  writeSection(w, fileTags, roles)
  writeSection(w, spec.readTags ?? [], roles)
  writeSection(w, spec.alnTags ?? [], roles)
  const tagValuesOffset = w.length
  writeValues(w, fileTags, spec.fileValues, 'file tags')
  const firstChunkOffset = w.length

  const codec = fileCodec(spec)
  const layouts = chunks.map((c) => writeChunk(w, spec, c, codec))
  const endOfChunks = w.length
  if (spec.trailing) w.bytes(spec.trailing)

  const bytes = w.finish()
  for (const p of spec.patches ?? []) bytes.set(p.bytes, p.at)
  return {
    bytes,
    layout: {
      versioned: version !== undefined,
      numChunksOffset,
      tagSectionsOffset,
      tagValuesOffset,
      firstChunkOffset,
      chunks: layouts,
      endOfChunks,
      size: bytes.length,
    },
  }
}

/** Just the bytes of `buildRad`. */
export function radBytes(spec: RadSpec): Uint8Array {
  return buildRad(spec).bytes
}

/** The record bytes of one record, alone (for computing expected sizes). */
export function recordBytes(spec: RadSpec, rec: RecordSpec): Uint8Array {
  const w = new ByteWriter()
  writeRecord(w, spec, rec)
  return w.finish()
}

// ---------------------------------------------------------------------------
// 2-bit packing (§7.8), written independently of src/rad/text/display.ts

const BASE_CODE: Record<string, number> = { A: 0, C: 1, G: 2, T: 3 }

/** `ACGT` → 0b00011011: first base in the most significant used bit pair. */
export function pack2bit(seq: string): bigint {
  let v = 0n
  for (const c of seq) {
    const code = BASE_CODE[c]
    if (code === undefined) throw new Error(`cannot pack base ${c}`)
    v = (v << 2n) | BigInt(code)
  }
  return v
}

/** pack2bit as a Number (for u32 tags, ≤ 16 nt). */
export function pack2bitNumber(seq: string): number {
  if (seq.length > 16) throw new Error('more than 16 nt do not fit a u32')
  return Number(pack2bit(seq))
}

/** scRNA alignment word (§5.3): bit 31 = forward, bits 0–30 = ref id. */
export function oriRefId(ref: number, forward: boolean): number {
  return ((forward ? 0x80000000 : 0) | ref) >>> 0
}

/** Bulk alignment word (§7.4): bit 31 = read fw, bit 30 = mate fw, bits 0–29 = ref id. */
export function oriRef2(ref: number, readFw: boolean, mateFw: boolean): number {
  return ((readFw ? 0x80000000 : 0) | (mateFw ? 0x40000000 : 0) | ref) >>> 0
}

// ---------------------------------------------------------------------------
// Snappy framing format (alevin-fry `collate --compress` `.sz` files, §6.1)

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32C (Castagnoli), as the Snappy framing format uses. */
export function crc32c(data: Uint8Array): number {
  let crc = 0xffffffff
  for (const b of data) crc = (CRC32C_TABLE[(crc ^ b) & 0xff] as number) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/** The framing format's masked CRC: rotate right 15 bits, add 0xa282ead8. */
export function maskedCrc32c(data: Uint8Array): number {
  const crc = crc32c(data)
  return (((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0
}

export const SNAPPY_STREAM_IDENTIFIER = Uint8Array.of(0xff, 0x06, 0x00, 0x00, 0x73, 0x4e, 0x61, 0x50, 0x70, 0x59)

export interface SnappyFrameOptions {
  /** Uncompressed bytes per data frame, at most 65,536. */
  frameSize?: number
  /** Frame type for data: compressed (0x00), uncompressed (0x01), or alternating. */
  mode?: 'compressed' | 'uncompressed' | 'alternate'
  /** Insert a padding frame (0xfe) and a skippable frame (0x80) between data frames. */
  skippableFrames?: boolean
  /** Split the stream into this many concatenated streams (each with its own stream identifier). */
  streams?: number
}

function frameHeader(w: ByteWriter, type: number, length: number): void {
  w.u32((type | (length << 8)) >>> 0)
}

/** Wraps bytes in the Snappy framing format (stream identifier, then ≤64 KiB data frames). */
export function snappyFrame(data: Uint8Array, opts: SnappyFrameOptions = {}): Uint8Array {
  const frameSize = opts.frameSize ?? 65536
  if (frameSize < 1 || frameSize > 65536) throw new Error('frame size must be 1..65536')
  const mode = opts.mode ?? 'compressed'
  const streams = Math.max(1, opts.streams ?? 1)
  const w = new ByteWriter()
  const pieces: Uint8Array[] = []
  for (let at = 0; at < data.length; at += frameSize) pieces.push(data.subarray(at, at + frameSize))
  const perStream = Math.ceil(pieces.length / streams) || 1
  pieces.forEach((piece, i) => {
    if (i % perStream === 0) w.bytes(SNAPPY_STREAM_IDENTIFIER)
    if (opts.skippableFrames && i > 0) {
      frameHeader(w, 0xfe, 3)
      w.bytes([0, 0, 0])
      frameHeader(w, 0x80, 2)
      w.bytes([0xaa, 0xbb])
    }
    const compressed = mode === 'compressed' || (mode === 'alternate' && i % 2 === 0)
    const body = compressed ? snappyCompress(piece) : piece
    frameHeader(w, compressed ? 0x00 : 0x01, body.length + 4)
    w.u32(maskedCrc32c(piece))
    w.bytes(body)
  })
  if (pieces.length === 0) w.bytes(SNAPPY_STREAM_IDENTIFIER)
  return w.finish()
}
