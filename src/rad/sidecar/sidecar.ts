/**
 * The `.rdx` sidecar index (docs/sidecar.md, byte by byte): everything a scan
 * of a RAD file learns that is needed to browse it — the chunk table, the
 * nbytes convention, the integrity verdict — plus the fingerprint of the file
 * it describes, so a reader can open the file without walking it and refuse a
 * sidecar written for another file. Pure bytes in, bytes out.
 */
import type { ChunkIndex } from '../chunkIndex'
import { crc32c } from '../decode/crc32c'
import { decodeUtf8 } from '../decode/cursor'
import { fmtInt } from '../errors'
import { asVerdict } from './sidecarVerdict'
import type { DroppedSection, SidecarStatus, SidecarVerdict } from './sidecarVerdict'
import type { NbytesConvention } from '../types'
import { encodeUtf8 } from '../runtime'

export type { DroppedSection, SidecarStatus, SidecarVerdict } from './sidecarVerdict'

/** `\x89RDX\r\n\x1a\n`: PNG's trick — a high byte, the name, and line endings a text transfer would mangle. */
export const SIDECAR_MAGIC = Uint8Array.of(0x89, 0x52, 0x44, 0x58, 0x0d, 0x0a, 0x1a, 0x0a)
export const SIDECAR_VERSION = 1
/** Bytes before the chunk table. */
export const SIDECAR_HEADER_BYTES = 64
/** One chunk table entry: offset u64, nbytes u32, nrec u32, first record u64 (the ChunkIndex's 24 bytes). */
export const SIDECAR_ENTRY_BYTES = 24
/**
 * Bytes hashed at each end of the file for the fingerprint: the first 64 KiB
 * hold the prelude of most files (readPrelude's first read), the last 64 KiB
 * the last chunks, where an append, a rewrite or a cut shows first.
 */
export const SIDECAR_HASH_BYTES = 64 << 10

/** The file a sidecar describes: its size and a CRC-32C of each end (SIDECAR_HASH_BYTES, or the whole file when shorter). */
export interface HashedFingerprint {
  size: number
  headCrc: number
  tailCrc: number
}

/** What a sidecar holds: a known index, ready to install without a scan. */
export interface KnownIndex {
  fingerprint: HashedFingerprint
  container: 'none' | 'snappy-framed'
  convention: NbytesConvention
  index: ChunkIndex
  records: number
  /** End of the last good chunk. */
  endOffset: number
  verdict: SidecarVerdict
  /** Whole-file statistics as JSON (branch stats-core), when the writer had them. */
  stats: unknown
  /**
   * Finished cells passes as JSON, each under its annotations' fingerprints and cut-off
   * (src/rad/cells/cellsSection.ts), when the writer had any: a third section, absent from
   * older sidecars (docs/sidecar.md, "The cells section").
   */
  cells?: unknown
}

/**
 * A sidecar as read (decodeSidecar): a KnownIndex whose verdict is undefined when its verdict
 * section had another shape, and the sections dropped for that. Installing it never throws
 * while the page shows it (docs/sidecar.md).
 */
export interface DecodedSidecar extends Omit<KnownIndex, 'verdict'> {
  verdict: SidecarVerdict | undefined
  dropped: DroppedSection[]
}

/** A sidecar that cannot be used: unreadable (magic, version, checksum, shape) or describing another file. */
export class SidecarError extends Error {
  override readonly name = 'SidecarError'
  readonly reason: 'unreadable' | 'mismatch'

  constructor(reason: 'unreadable' | 'mismatch', message: string) {
    super(message)
    this.reason = reason
  }
}

const STATUS_CODES: readonly SidecarStatus[] = ['clean', 'notes', 'warnings', 'damaged']
const CONVENTIONS: readonly NbytesConvention[] = ['header-inclusive', 'payload-only']
const CONTAINERS: readonly KnownIndex['container'][] = ['none', 'snappy-framed']

function setU64(view: DataView, at: number, value: number): void {
  view.setUint32(at, value % 2 ** 32, true)
  view.setUint32(at + 4, Math.floor(value / 2 ** 32), true)
}

function getU64(view: DataView, at: number, what: string): number {
  const value = view.getUint32(at + 4, true) * 2 ** 32 + view.getUint32(at, true)
  if (!Number.isSafeInteger(value)) throw unreadable(`its ${what} (${fmtInt(value)}) is beyond 2^53`)
  return value
}

function unreadable(why: string): SidecarError {
  return new SidecarError('unreadable', `the sidecar index cannot be used: ${why}`)
}

function verdictJson(verdict: SidecarVerdict): Uint8Array {
  const { alignments, issues, damagedChunks, error } = verdict
  return encodeUtf8(JSON.stringify({ alignments, issues, damagedChunks, error }))
}

/** Encodes a known index as `.rdx` bytes (docs/sidecar.md). */
export function encodeSidecar(known: KnownIndex): Uint8Array {
  const { index } = known
  const verdict = verdictJson(known.verdict)
  const stats = known.stats === undefined ? new Uint8Array(0) : encodeUtf8(JSON.stringify(known.stats))
  // Only written when there are cells: a sidecar without them is byte for byte what it was.
  const cells = known.cells === undefined ? undefined : encodeUtf8(JSON.stringify(known.cells))
  const tableEnd = SIDECAR_HEADER_BYTES + index.count * SIDECAR_ENTRY_BYTES
  const cellsBytes = cells ? 4 + cells.length : 0
  const out = new Uint8Array(tableEnd + 4 + verdict.length + 4 + stats.length + cellsBytes)
  const view = new DataView(out.buffer)
  out.set(SIDECAR_MAGIC, 0)
  view.setUint32(8, SIDECAR_VERSION, true)
  setU64(view, 16, known.fingerprint.size)
  view.setUint32(24, known.fingerprint.headCrc, true)
  view.setUint32(28, known.fingerprint.tailCrc, true)
  view.setUint8(32, CONTAINERS.indexOf(known.container))
  view.setUint8(33, CONVENTIONS.indexOf(known.convention))
  view.setUint8(34, STATUS_CODES.indexOf(known.verdict.status))
  view.setUint32(36, SIDECAR_HASH_BYTES, true)
  setU64(view, 40, index.count)
  setU64(view, 48, known.records)
  setU64(view, 56, known.endOffset)
  for (let i = 0; i < index.count; i++) {
    const at = SIDECAR_HEADER_BYTES + i * SIDECAR_ENTRY_BYTES
    setU64(view, at, index.offset[i] ?? 0)
    view.setUint32(at + 8, index.nbytes[i] ?? 0, true)
    view.setUint32(at + 12, index.nrec[i] ?? 0, true)
    setU64(view, at + 16, index.firstRecord[i] ?? 0)
  }
  view.setUint32(tableEnd, verdict.length, true)
  out.set(verdict, tableEnd + 4)
  const statsAt = tableEnd + 4 + verdict.length
  view.setUint32(statsAt, stats.length, true)
  out.set(stats, statsAt + 4)
  if (cells) {
    const cellsAt = statsAt + 4 + stats.length
    view.setUint32(cellsAt, cells.length, true)
    out.set(cells, cellsAt + 4)
  }
  view.setUint32(12, crc32c(out.subarray(16)), true)
  return out
}

/** Magic, version and checksum: whether these bytes are an intact `.rdx` this reader understands. */
function checkEnvelope(bytes: Uint8Array, view: DataView): void {
  if (bytes.length < 16 || !SIDECAR_MAGIC.every((b, i) => bytes[i] === b)) {
    throw unreadable('it is not a .rdx file (its first 8 bytes are not the .rdx magic number)')
  }
  const version = view.getUint32(8, true)
  if (version !== SIDECAR_VERSION) {
    const newer = version > SIDECAR_VERSION ? ' (written by a newer viewer: update this one)' : ''
    throw unreadable(
      `it is format version ${String(version)}, this viewer reads version ${String(SIDECAR_VERSION)}${newer}`,
    )
  }
  if (bytes.length < SIDECAR_HEADER_BYTES + 8) throw unreadable(`it is cut short (${fmtInt(bytes.length)} bytes)`)
  const stored = view.getUint32(12, true)
  const actual = crc32c(bytes.subarray(16))
  if (stored !== actual) {
    throw unreadable('its checksum does not match its contents (the file is damaged or was cut short)')
  }
}

function enumAt<T>(values: readonly T[], code: number, what: string): T {
  const value = values[code]
  if (value === undefined) throw unreadable(`unknown ${what} code ${String(code)}`)
  return value
}

/** The chunk table, checked: first records are the running sum of nrec, offsets increase. */
function readTable(view: DataView, count: number): { index: ChunkIndex; records: number } {
  const index: ChunkIndex = {
    count,
    offset: new Float64Array(count),
    nbytes: new Uint32Array(count),
    nrec: new Uint32Array(count),
    firstRecord: new Float64Array(count),
  }
  let records = 0
  let lastOffset = -1
  for (let i = 0; i < count; i++) {
    const at = SIDECAR_HEADER_BYTES + i * SIDECAR_ENTRY_BYTES
    const offset = getU64(view, at, `chunk ${fmtInt(i)}'s offset`)
    const first = getU64(view, at + 16, `chunk ${fmtInt(i)}'s first record`)
    if (offset <= lastOffset || first !== records) {
      throw unreadable(`its chunk table is inconsistent at chunk ${fmtInt(i)}`)
    }
    index.offset[i] = offset
    index.nbytes[i] = view.getUint32(at + 8, true)
    index.nrec[i] = view.getUint32(at + 12, true)
    index.firstRecord[i] = first
    records += index.nrec[i] ?? 0
    lastOffset = offset
  }
  return { index, records }
}

/** A length-prefixed JSON section at `at`: its value (undefined when empty) and where the next one starts. */
function readJson(bytes: Uint8Array, view: DataView, at: number, what: string): { value: unknown; next: number } {
  if (at + 4 > bytes.length) throw unreadable(`it ends before its ${what} section`)
  const length = view.getUint32(at, true)
  const next = at + 4 + length
  if (next > bytes.length) throw unreadable(`its ${what} section runs past its end`)
  if (length === 0) return { value: undefined, next }
  try {
    return { value: JSON.parse(decodeUtf8(bytes.subarray(at + 4, next))) as unknown, next }
  } catch {
    throw unreadable(`its ${what} section is not valid JSON`)
  }
}

/**
 * Decodes `.rdx` bytes; throws SidecarError('unreadable') naming what is wrong with its envelope
 * or chunk table. A verdict section of another shape is dropped (DecodedSidecar.dropped); the
 * statistics and cells sections are left as JSON for their readers to check (statsProblem,
 * sessionCache.ts; cellsSectionFromJson, src/rad/cells/cellsSection.ts).
 */
export function decodeSidecar(bytes: Uint8Array): DecodedSidecar {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  checkEnvelope(bytes, view)
  if (view.getUint32(36, true) !== SIDECAR_HASH_BYTES) throw unreadable('its fingerprint hashes another window size')
  const count = getU64(view, 40, 'chunk count')
  const tableEnd = SIDECAR_HEADER_BYTES + count * SIDECAR_ENTRY_BYTES
  if (tableEnd + 8 > bytes.length) throw unreadable(`its chunk table (${fmtInt(count)} chunks) runs past its end`)
  const { index, records } = readTable(view, count)
  if (records !== getU64(view, 48, 'record count')) throw unreadable('its record count disagrees with its chunk table')
  const status = enumAt(STATUS_CODES, view.getUint8(34), 'verdict')
  const verdict = readJson(bytes, view, tableEnd, 'verdict')
  const stats = readJson(bytes, view, verdict.next, 'statistics')
  // Older sidecars end after the statistics: no cells section.
  const cells = stats.next < bytes.length ? readJson(bytes, view, stats.next, 'cells').value : undefined
  const recorded = asVerdict(verdict.value, status)
  return {
    fingerprint: {
      size: getU64(view, 16, 'file size'),
      headCrc: view.getUint32(24, true),
      tailCrc: view.getUint32(28, true),
    },
    container: enumAt(CONTAINERS, view.getUint8(32), 'container'),
    convention: enumAt(CONVENTIONS, view.getUint8(33), 'nbytes convention'),
    index,
    records,
    endOffset: getU64(view, 56, 'end offset'),
    verdict: 'section' in recorded ? undefined : recorded,
    stats: stats.value,
    ...(cells === undefined ? {} : { cells }),
    dropped: 'section' in recorded ? [recorded] : [],
  }
}

/**
 * What differs between the file a sidecar describes and the file at hand, in
 * words ("its size: …"), or undefined when they match.
 */
export function fingerprintMismatch(sidecar: HashedFingerprint, file: HashedFingerprint): string | undefined {
  if (sidecar.size !== file.size) {
    return `its size: the file has ${fmtInt(file.size)} bytes, the sidecar describes one of ${fmtInt(sidecar.size)}`
  }
  const ends: string[] = []
  if (sidecar.headCrc !== file.headCrc) ends.push('first')
  if (sidecar.tailCrc !== file.tailCrc) ends.push('last')
  if (ends.length === 0) return undefined
  const kib = String(SIDECAR_HASH_BYTES >> 10)
  return `its content: the ${ends.join(' and ')} ${kib} KiB differ from those the sidecar was written for`
}

/** Throws SidecarError('mismatch') unless the sidecar describes this file. */
export function assertSidecarMatches(
  known: Pick<KnownIndex, 'fingerprint'>,
  file: HashedFingerprint,
  fileName: string,
): void {
  const differs = fingerprintMismatch(known.fingerprint, file)
  if (differs !== undefined) {
    throw new SidecarError('mismatch', `the sidecar index was written for another file than ${fileName}; ${differs}`)
  }
}

/** The fingerprint of bytes already at hand: `head` the file's first bytes, `tail` its last (each SIDECAR_HASH_BYTES or the whole file). */
export function hashFingerprint(size: number, head: Uint8Array, tail: Uint8Array): HashedFingerprint {
  return { size, headCrc: crc32c(head), tailCrc: crc32c(tail) }
}

function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0')
}

/**
 * The one short name of a file as it was opened, `SIZE-HEADTAIL`: its size in bytes and the two
 * CRC-32C of the sidecar fingerprint in hex (8 digits each). Deep links (`#fp=…`), the index cache
 * and the recent files key on it, and a sidecar matches the same fingerprint, so the three never
 * disagree about which file is which. Hashing 64 KiB at each end (SIDECAR_HASH_BYTES) tells apart
 * files of the same size that differ only past their first and last 4 KiB (two salmon runs of the
 * same reads with -p 1 and -p 3: test/fixtures/salmon).
 */
export function fingerprintKey(fp: HashedFingerprint): string {
  return `${String(fp.size)}-${hex8(fp.headCrc)}${hex8(fp.tailCrc)}`
}
