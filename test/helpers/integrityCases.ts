/**
 * The integrity classes (docs/integrity.md) as hand-made files (the test writer), each
 * with the report a reader must give: the status, the chunks still indexed,
 * and every issue with its kind, severity, chunk, part and absolute byte
 * offset. Shared by the in-process test (scanChunks with a check plan) and the
 * CLI test (`rad info`), so both are held to the same expectations.
 */
import { gzipSync } from 'node:zlib'
import { expect } from 'vitest'
import { MAX_CHUNK_BYTES } from '../../src/rad/decode/chunkHeader'
import type { IntegrityIssue, IntegrityStatus, IssueKind, Severity } from '../../src/rad/checks/integrity'
import type { FilePart } from '../../src/rad/errors'
import { REFS, SC_READS, multiBarcodeV2, piscemScRnaV2, salmonScRna } from './assays'
import { buildRad, pack2bit, pack2bitNumber, role, snappyFrame, tag, zstdFrame } from './radWriter'
import type { BuiltRad, ChunkSpec, RadSpec, RecordSpec } from './radWriter'

export interface ExpectedIssue {
  kind: IssueKind
  severity: Severity
  chunk?: number
  offset?: number
  part?: FilePart
  message: RegExp
}

export interface IntegrityCase {
  name: string
  bytes: Uint8Array
  integrity: IntegrityStatus
  /** Chunks indexed (undefined when the prelude cannot be read). */
  chunks?: number
  /** Where the indexed chunks are, when they must be exactly these. */
  chunkOffsets?: number[]
  issues: ExpectedIssue[]
  /** False for a second variant of a class the CLI test already runs (each `rad info` costs ~0.4 s). */
  cli?: boolean
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s)

/** Offset of data frame `n` (0-based) in a one-stream .sz from snappyFrame: after the 10-byte stream id. */
export function snappyDataFrameAt(sz: Uint8Array, n: number): number {
  const view = new DataView(sz.buffer, sz.byteOffset, sz.byteLength)
  let at = 10
  for (let i = 0; i < n; i++) at += 4 + (view.getUint32(at, true) >>> 8)
  return at
}

/** salmon scRNA (legacy), one record per chunk: 5 chunks; faults go into chunk K. */
export const K = 2
export function base(): RadSpec {
  return salmonScRna(SC_READS, 1)
}

/** The same file with chunk `k` replaced. */
export function withChunk(spec: RadSpec, k: number, chunk: ChunkSpec): RadSpec {
  const chunks = [...(spec.chunks ?? [])]
  chunks[k] = chunk
  return { ...spec, chunks }
}

function record(spec: RadSpec, k: number): RecordSpec {
  const r = spec.chunks?.[k]?.records?.[0]
  if (!r) throw new Error(`no record in chunk ${String(k)}`)
  return r
}

const offsets = (b: BuiltRad): number[] => b.layout.chunks.map((c) => c.offset)
const chunkAt = (b: BuiltRad, k: number): BuiltRad['layout']['chunks'][number] => {
  const c = b.layout.chunks[k]
  if (!c) throw new Error(`no chunk ${String(k)}`)
  return c
}

/** Absolute offset of reference name i's u16 length in a legacy file (1 paired + 8 ref_count first). */
export function refNameOffset(names: readonly string[], i: number, prefix = 0): number {
  let at = prefix + 9
  for (let j = 0; j < i; j++) at += 2 + text(names[j] ?? '').length
  return at
}

/** A file whose chunk K is replaced, expected to keep all 5 chunks indexed with one chunk-local fault. */
function chunkLocal(
  name: string,
  spec: RadSpec,
  k: number,
  chunk: ChunkSpec,
  issue: (b: BuiltRad) => Omit<ExpectedIssue, 'chunk' | 'severity' | 'part'>,
): IntegrityCase {
  const b = buildRad(withChunk(spec, k, chunk))
  return {
    name,
    bytes: b.bytes,
    integrity: 'damaged',
    chunks: b.layout.chunks.length,
    chunkOffsets: offsets(b),
    issues: [{ ...issue(b), severity: 'error', chunk: k, part: 'chunk-records' }],
  }
}

/** A file whose chunk K has a bad header: the walk stops there, chunks before K stay. */
function structural(name: string, chunk: Partial<ChunkSpec>, message: RegExp): IntegrityCase {
  const spec = base()
  const b = buildRad(withChunk(spec, K, { ...spec.chunks?.[K], ...chunk }))
  return {
    name,
    bytes: b.bytes,
    integrity: 'damaged',
    chunks: K,
    chunkOffsets: offsets(b).slice(0, K),
    issues: [{ kind: 'corrupt-chunk', severity: 'error', chunk: K, offset: chunkAt(b, K).offset, message }],
  }
}

function notRad(name: string, bytes: Uint8Array, message: RegExp): IntegrityCase {
  return {
    name,
    bytes,
    integrity: 'unreadable',
    issues: [{ kind: 'not-rad', severity: 'error', offset: 0, part: 'prelude', message }],
  }
}

/** 28 bytes: the BGZF end-of-file block every BAM file ends with (SAM spec §4.1.2). */
const BGZF_EOF = Uint8Array.of(
  0x1f,
  0x8b,
  0x08,
  0x04,
  0,
  0,
  0,
  0,
  0,
  0xff,
  0x06,
  0,
  0x42,
  0x43,
  0x02,
  0,
  0x1b,
  0,
  0x03,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
  0,
)

/** An uncompressed BAM header: magic, l_text, text, n_ref, one reference. */
function rawBam(): Uint8Array {
  const header = text('@HD\tVN:1.6\n')
  const out = new Uint8Array(4 + 4 + header.length + 4 + 4 + 5 + 4)
  const view = new DataView(out.buffer)
  out.set(text('BAM\x01'), 0)
  view.setUint32(4, header.length, true)
  out.set(header, 8)
  let at = 8 + header.length
  view.setUint32(at, 1, true)
  view.setUint32(at + 4, 5, true)
  out.set(text('chr1\0'), at + 8)
  at += 13
  view.setUint32(at, 1000, true)
  return out
}

function compressed(codec: 1 | 2): RadSpec {
  return {
    ...base(),
    fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16'), tag('chunk_codec', 'u8')],
    fileValues: { cblen: 16, ulen: 12, chunk_codec: codec },
  }
}

/** The stored (compressed) payload of chunk k of a built file. */
export function storedPayload(b: BuiltRad, k: number): Uint8Array {
  const c = chunkAt(b, k)
  return b.bytes.slice(c.payloadOffset, c.offset + c.span)
}

/** legacy scRNA with 14-nt barcodes (cblen 14): a u32 barcode above 2^28 is too wide. */
function narrowBarcodes(): RadSpec {
  const reads = SC_READS.map((r) => ({ ...r, cb: r.cb.slice(0, 14) }))
  return { ...salmonScRna(reads, 1), fileValues: { cblen: 14, ulen: 12 } }
}

/** Needs loadZstd() first. */
export function integrityCases(): IntegrityCase[] {
  const spec = base()
  const clean = buildRad(spec)
  const c = (k: number): BuiltRad['layout']['chunks'][number] => chunkAt(clean, k)
  const cases: IntegrityCase[] = []

  // -- clean
  cases.push({ name: 'clean (legacy)', bytes: clean.bytes, integrity: 'clean', chunks: 5, issues: [] })
  const v2 = buildRad(piscemScRnaV2(true))
  cases.push({
    name: 'clean (v2 with roles)',
    bytes: v2.bytes,
    integrity: 'clean',
    chunks: v2.layout.chunks.length,
    chunkOffsets: offsets(v2),
    issues: [],
  })

  // -- truncated
  const name2 = refNameOffset(REFS, 2)
  cases.push({
    name: 'truncated inside the prelude (a reference name)',
    bytes: clean.bytes.subarray(0, name2 + 2 + 3),
    integrity: 'unreadable',
    issues: [
      {
        kind: 'truncated',
        severity: 'error',
        offset: name2 + 2,
        part: 'prelude',
        message: /file ends inside the reference names.*at reference name 2 of 6/,
      },
    ],
  })
  cases.push({
    name: 'truncated inside the prelude (num_chunks)',
    bytes: clean.bytes.subarray(0, clean.layout.numChunksOffset + 5),
    integrity: 'unreadable',
    issues: [
      {
        kind: 'truncated',
        severity: 'error',
        offset: clean.layout.numChunksOffset,
        part: 'prelude',
        message: /num_chunks/,
      },
    ],
  })
  cases.push({
    name: 'truncated inside the prelude (the tag sections of a v2 file)',
    bytes: v2.bytes.subarray(0, v2.layout.tagSectionsOffset + 5),
    integrity: 'unreadable',
    issues: [
      {
        kind: 'truncated',
        severity: 'error',
        offset: v2.layout.tagSectionsOffset + 4,
        part: 'prelude',
        message: /file ends inside file tag descriptor 0/,
      },
    ],
  })
  // cblen (u16) at tagValuesOffset, ulen (u16) at +2: cut inside ulen.
  cases.push({
    name: 'truncated inside the file-tag values',
    bytes: clean.bytes.subarray(0, clean.layout.tagValuesOffset + 3),
    integrity: 'unreadable',
    issues: [
      {
        kind: 'truncated',
        severity: 'error',
        offset: clean.layout.tagValuesOffset + 2,
        part: 'file-tag-values',
        message: /file ends inside the value of file tag "ulen"/,
      },
    ],
  })
  cases.push({
    name: `truncated inside chunk ${String(K)}'s header`,
    bytes: clean.bytes.subarray(0, c(K).offset + 5),
    integrity: 'damaged',
    chunks: K,
    chunkOffsets: offsets(clean).slice(0, K),
    issues: [
      {
        kind: 'truncated',
        severity: 'error',
        chunk: K,
        offset: c(K).offset,
        part: 'chunk-header',
        message: new RegExp(`file ends inside the header of chunk ${String(K)} .*\\(5 of 8 bytes present\\)`),
      },
    ],
  })
  cases.push({
    name: `truncated inside chunk ${String(K)}'s records`,
    bytes: clean.bytes.subarray(0, c(K).payloadOffset + 6),
    integrity: 'damaged',
    chunks: K,
    chunkOffsets: offsets(clean).slice(0, K),
    issues: [
      {
        kind: 'truncated',
        severity: 'error',
        chunk: K,
        offset: c(K).offset,
        message: new RegExp(
          `file ends inside chunk ${String(K)} at byte ${String(c(K).offset)}: .*only 14 bytes remain`,
        ),
      },
    ],
  })

  // -- unfinished or streaming
  const zero = buildRad({ ...spec, numChunks: 0 })
  const unknownNote: ExpectedIssue = {
    kind: 'num-chunks-unknown',
    severity: 'info',
    part: 'prelude',
    message: /num_chunks is 0 .*read to the end of the file/,
  }
  cases.push({
    name: 'num_chunks stored as 0: every chunk read to the end, and said so',
    bytes: zero.bytes,
    integrity: 'notes',
    chunks: 5,
    chunkOffsets: offsets(zero),
    issues: [unknownNote],
  })
  cases.push({
    name: 'num_chunks stored as 0 and the tail cut inside chunk 4 (a mapper killed mid-write)',
    bytes: zero.bytes.subarray(0, chunkAt(zero, 4).offset + 11),
    integrity: 'damaged',
    chunks: 4,
    chunkOffsets: offsets(zero).slice(0, 4),
    issues: [
      unknownNote,
      {
        kind: 'truncated',
        severity: 'error',
        chunk: 4,
        offset: chunkAt(zero, 4).offset,
        message: /file ends inside chunk 4/,
      },
    ],
  })
  const more = buildRad({ ...spec, numChunks: 7 })
  cases.push({
    name: 'num_chunks larger than the chunks present',
    bytes: more.bytes,
    integrity: 'damaged',
    chunks: 5,
    chunkOffsets: offsets(more),
    issues: [
      {
        kind: 'num-chunks-too-large',
        severity: 'error',
        chunk: 5,
        offset: more.layout.endOfChunks,
        part: 'after-chunks',
        message: /file ends after 5 of the 7 chunks that num_chunks declares/,
      },
    ],
  })

  // -- trailing bytes and concatenation
  const trailing = buildRad({ ...spec, trailing: text('some trailing garbage') })
  cases.push({
    name: 'trailing bytes after the last declared chunk',
    bytes: trailing.bytes,
    integrity: 'warnings',
    chunks: 5,
    chunkOffsets: offsets(trailing),
    issues: [
      {
        kind: 'trailing-bytes',
        severity: 'warning',
        offset: trailing.layout.endOfChunks,
        part: 'after-chunks',
        message: /21 trailing bytes after the 5 chunks/,
      },
    ],
  })
  for (const [label, second] of [
    ['legacy + legacy', clean.bytes],
    ['legacy + v2', v2.bytes],
  ] as const) {
    const cat = buildRad({ ...spec, trailing: second })
    cases.push({
      name: `concatenated RAD files (${label})`,
      bytes: cat.bytes,
      integrity: 'warnings',
      chunks: 5,
      chunkOffsets: offsets(cat),
      issues: [
        {
          kind: 'concatenated',
          severity: 'warning',
          offset: cat.layout.endOfChunks,
          part: 'after-chunks',
          message: new RegExp(
            `a second RAD file seems to start at byte ${String(cat.layout.endOfChunks)}.*\\(${String(second.length)} bytes follow\\)`,
          ),
        },
      ],
    })
  }

  // -- corrupt chunks: chunk-local faults keep every later chunk indexed
  const rec = record(spec, K)
  const two: RecordSpec[] = [record(spec, 0), { ...rec, naln: 3 }]
  cases.push(
    chunkLocal('corrupt chunk: records overrun nbytes', spec, K, { records: two }, (b) => ({
      kind: 'corrupt-chunk',
      offset: chunkAt(b, K).recordOffsets[1] ?? -1,
      message: new RegExp(`chunk ${String(K)} .*record 1 at byte \\d+ runs past the end of the chunk`),
    })),
  )
  cases.push(
    chunkLocal('corrupt chunk: records underrun nbytes', spec, K, { records: [rec], extra: [0, 0, 0, 0, 0] }, (b) => ({
      kind: 'corrupt-chunk',
      offset: chunkAt(b, K).offset + chunkAt(b, K).span - 5,
      message: /its 1 records end 5 bytes before the chunk does/,
    })),
  )
  cases.push(
    chunkLocal('corrupt chunk: absurd naln (2^32 − 1)', spec, K, { records: [{ ...rec, naln: 0xffffffff }] }, (b) => ({
      kind: 'corrupt-chunk',
      offset: chunkAt(b, K).payloadOffset,
      message: /record 0 at byte \d+ runs past the end of the chunk/,
    })),
  )
  for (const [label, word] of [
    ['reverse', 6],
    ['forward, bit 31 set', 0x80000006],
  ] as const) {
    cases.push(
      chunkLocal(
        `corrupt chunk: a reference id ≥ ref_count (${label})`,
        spec,
        K,
        { records: [{ ...rec, alns: [[word]] }] },
        (b) => ({
          kind: 'corrupt-chunk',
          offset: chunkAt(b, K).payloadOffset,
          message: /alignment 0 names reference 6, but the header lists only 6 references/,
        }),
      ),
    )
  }
  const narrow = narrowBarcodes()
  cases.push(
    chunkLocal(
      'corrupt chunk: a barcode wider than cblen (legacy, 14 nt in a u32)',
      narrow,
      K,
      { records: [{ ...record(narrow, K), read: { b: 2 ** 28, u: 5 } }] },
      (b) => ({
        kind: 'corrupt-chunk',
        offset: chunkAt(b, K).payloadOffset,
        message: /"b" is 268435456, wider than its 14 nt \(28 bits\) allow/,
      }),
    ),
  )
  cases.push(
    chunkLocal(
      'corrupt chunk: a UMI wider than ulen (legacy)',
      spec,
      K,
      { records: [{ ...rec, read: { b: pack2bitNumber('ACGTACGTACGTACGT'), u: 2 ** 24 + 1 } }] },
      (b) => ({
        kind: 'corrupt-chunk',
        offset: chunkAt(b, K).payloadOffset,
        message: /"u" is 16777217, wider than its 12 nt \(24 bits\) allow/,
      }),
    ),
  )
  // v2: the role's len wins over the file tag (ulen 12, role Umi{10}): 2^20 fits 12 nt but not 10.
  const v2Spec: RadSpec = {
    ...piscemScRnaV2(
      false,
      SC_READS.map((r) => ({ ...r, umi: r.umi.slice(0, 10) })),
    ),
    readTags: [tag('b', 'u32', role.barcode(0, 16)), tag('u', 'u32', role.umi(10))],
  }
  cases.push(
    chunkLocal(
      'corrupt chunk: a UMI wider than its v2 role length (the role wins over ulen)',
      v2Spec,
      1,
      { records: [{ read: { b: 1, u: 2 ** 20 }, alns: [{ compressed_ori_refid: 0 }] }] },
      (b) => ({
        kind: 'corrupt-chunk',
        offset: chunkAt(b, 1).payloadOffset,
        message: /"u" is 1048576, wider than its 10 nt \(20 bits\) allow/,
      }),
    ),
  )
  const multi = multiBarcodeV2()
  const multiChunk = multi.chunks?.[0] as ChunkSpec
  const multiSpec: RadSpec = { ...multi, chunks: [multiChunk, multiChunk, multiChunk] }
  cases.push(
    chunkLocal(
      'corrupt chunk: a u64 barcode wider than its 20-nt role length',
      multiSpec,
      1,
      {
        records: [
          { read: { b0: 1, b1: pack2bit('ACGTACGTACGTACGTACGT'), u: 1 }, alns: [] },
          { read: { b0: 1, b1: 1n << 40n, u: 1 }, alns: [{ compressed_ori_refid: 0 }] },
        ],
      },
      (b) => ({
        kind: 'corrupt-chunk',
        offset: chunkAt(b, 1).recordOffsets[1] ?? -1,
        message: /"b1" is 1099511627776, wider than its 20 nt \(40 bits\) allow/,
      }),
    ),
  )
  // Two damaged chunks: both listed, the walk goes on past each.
  {
    const b = buildRad(
      withChunk(withChunk(spec, 1, { records: [{ ...record(spec, 1), alns: [[9]] }] }), 3, {
        records: [record(spec, 3)],
        extra: [1],
      }),
    )
    cases.push({
      name: 'chunk-local faults in chunks 1 and 3: both listed, every chunk indexed',
      bytes: b.bytes,
      integrity: 'damaged',
      chunks: 5,
      chunkOffsets: offsets(b),
      issues: [
        {
          kind: 'corrupt-chunk',
          severity: 'error',
          chunk: 1,
          offset: chunkAt(b, 1).payloadOffset,
          part: 'chunk-records',
          message: /names reference 9/,
        },
        {
          kind: 'corrupt-chunk',
          severity: 'error',
          chunk: 3,
          offset: chunkAt(b, 3).offset + chunkAt(b, 3).span - 1,
          part: 'chunk-records',
          message: /end 1 bytes before the chunk does/,
        },
      ],
    })
  }
  // Structural faults in chunk K's header: nothing after it can be located.
  cases.push(
    structural('corrupt chunk: absurd nbytes (2^32 − 16)', { nbytes: 0xfffffff0 }, /an absurd size for one chunk/),
  )
  cases.push(
    structural(
      'corrupt chunk: nbytes just above the 1 GiB limit',
      { nbytes: MAX_CHUNK_BYTES + 1 },
      /an absurd size for one chunk/,
    ),
  )
  cases.push(structural('corrupt chunk: nbytes below the 8-byte header', { nbytes: 5 }, /at least its 8-byte header/))
  cases.push(
    structural(
      'corrupt chunk: absurd nrec (2^32 − 1)',
      { nrec: 0xffffffff },
      /nrec is 4,294,967,295, but its \d+ record bytes/,
    ),
  )

  // -- compressed chunks
  for (const [codec, label] of [
    [1, 'lz4'],
    [2, 'zstd'],
  ] as const) {
    const cs = compressed(codec)
    const good = buildRad(cs)
    const stored = storedPayload(good, K)
    const damages: [string, Uint8Array][] = [['cut short', stored.subarray(0, stored.length - 3)]]
    if (codec === 1) damages.push(['shorter than its size prefix', stored.subarray(0, 2)])
    for (const [how, damaged] of damages) {
      cases.push(
        chunkLocal(
          `compressed chunk that fails to decompress (${label}, ${how})`,
          cs,
          K,
          { ...cs.chunks?.[K], stored: damaged },
          (b) => ({
            kind: 'decompress-failed',
            offset: chunkAt(b, K).offset,
            message: new RegExp(`chunk ${String(K)} at byte ${String(chunkAt(b, K).offset)}: .*${label}`),
          }),
        ),
      )
    }
  }
  {
    // Decompresses, but a record inside is wrong: found by the checks pass after the index (ADR 0003).
    const cs = compressed(2)
    cases.push(
      chunkLocal(
        'corrupt chunk inside a zstd frame: a reference id ≥ ref_count',
        cs,
        K,
        { records: [{ ...record(cs, K), alns: [[6]] }] },
        (b) => ({
          kind: 'corrupt-chunk',
          offset: chunkAt(b, K).offset,
          message: /record 0 at byte \d+ of its decompressed payload: alignment 0 names reference 6/,
        }),
      ),
    )
  }
  {
    const cs = compressed(2)
    const notZstd = text('definitely not a zstd frame')
    cases.push(
      chunkLocal(
        'compressed chunk that fails to decompress (zstd, no frame magic)',
        cs,
        K,
        { ...cs.chunks?.[K], stored: notZstd },
        (b) => ({
          kind: 'decompress-failed',
          offset: chunkAt(b, K).offset,
          message: /zstd/,
        }),
      ),
    )
  }
  {
    const b = buildRad({ ...compressed(1), fileValues: { cblen: 16, ulen: 12, chunk_codec: 3 } })
    cases.push({
      name: 'unknown codec id (chunk_codec = 3)',
      bytes: b.bytes,
      // The chunk table still reads (headers are never compressed, §6); no record can be decoded.
      integrity: 'damaged',
      chunks: b.layout.chunks.length,
      chunkOffsets: offsets(b),
      issues: [
        {
          kind: 'unknown-codec',
          severity: 'error',
          offset: b.layout.tagValuesOffset + 4, // chunk_codec's own value, after cblen and ulen (u16 each)
          part: 'prelude',
          message: /"chunk_codec" is 3; known codecs are 0 \(none\), 1 \(lz4\) and 2 \(zstd\)/,
        },
      ],
    })
  }

  // -- a .sz frame whose stored CRC-32C does not match its data (docs/integrity.md)
  {
    const frameSize = 16
    const frame = Math.floor(chunkAt(clean, K).offset / frameSize)
    const sz = snappyFrame(clean.bytes, { frameSize })
    const at = snappyDataFrameAt(sz, frame)
    sz[at + 4] = (sz[at + 4] ?? 0) ^ 0x01
    const start = frame * frameSize
    cases.push({
      name: 'a .sz frame failing its checksum (the CRC field flipped)',
      bytes: sz,
      integrity: 'damaged',
      chunks: 5,
      chunkOffsets: offsets(clean),
      issues: [
        { kind: 'note', severity: 'info', part: 'prelude', message: /whole-file Snappy stream/ },
        {
          kind: 'checksum-mismatch',
          severity: 'error',
          offset: start,
          chunk: offsets(clean).filter((o) => o <= start).length - 1,
          message: new RegExp(
            `Snappy frame at byte ${at.toLocaleString('en-US')} of the .sz file \\(bytes ${String(start)}–${String(start + frameSize)} of the unwrapped stream\\) fails its checksum`,
          ),
        },
      ],
    })
  }

  // -- a declared length its tag's type cannot hold (docs/integrity.md)
  {
    const b = buildRad({ ...spec, fileValues: { cblen: 16, ulen: 40 } })
    cases.push({
      name: 'ulen 40 with a u32 UMI (a length its type cannot hold)',
      bytes: b.bytes,
      integrity: 'warnings',
      chunks: 5,
      chunkOffsets: offsets(b),
      issues: [
        {
          kind: 'declared-length',
          severity: 'warning',
          offset: b.layout.tagValuesOffset + 2,
          part: 'file-tag-values',
          message: /tag "u" is a u32, which holds at most 16 nt, but its length is declared as 40 at byte \d+/,
        },
      ],
    })
  }

  // -- not a RAD file
  cases.push(notRad('gzip (.gz)', gzipSync(text('@r1\nACGT\n+\nIIII\n')), /gzip stream.*Decompress it first/))
  cases.push(
    notRad('BAM (BGZF-compressed)', BGZF_EOF, /gzip stream \(a \.gz file, or a BAM file, which is BGZF-compressed\)/),
  )
  cases.push(
    notRad('BAM (uncompressed "BAM\\1")', rawBam(), /uncompressed BAM file; convert it with `alevin-fry convert`/),
  )
  cases.push(notRad('zstd stream', zstdFrame(text('hello, this is not RAD')), /zstd-compressed stream.*zstd -d/))
  cases.push(
    notRad(
      'Snappy stream that is not RAD inside',
      snappyFrame(text('id,name\n1,not a rad file at all\n')),
      /Snappy.*alevin-fry collate --compress.*not a RAD file/,
    ),
  )
  cases.push(
    notRad(
      'SAM (with a header)',
      text('@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:chr1\tLN:1000\nr1\t0\tchr1\t1\t60\t4M\t*\t0\t0\tACGT\tIIII\n'),
      /SAM text file/,
    ),
  )
  cases.push(
    notRad(
      'text (headerless SAM)',
      text('r1\t0\tchr1\t1\t60\t4M\t*\t0\t0\tACGT\tIIII\n'),
      /plain text file \(RAD is binary\)/,
    ),
  )
  cases.push(notRad('FASTQ', text('@read1\nACGTACGT\n+\nIIIIIIII\n'), /FASTQ/))
  cases.push({
    name: 'an empty file',
    bytes: new Uint8Array(0),
    integrity: 'unreadable',
    issues: [
      { kind: 'truncated', severity: 'error', offset: 0, part: 'prelude', message: /the file is empty \(0 bytes\)/ },
    ],
  })
  return cases.map((c) => (SECOND_VARIANTS.some((v) => c.name.startsWith(v)) ? { ...c, cli: false } : c))
}

/** Further variants of a class whose first variant the CLI test runs too. */
const SECOND_VARIANTS = [
  'clean (v2',
  'truncated inside the prelude (num_chunks)',
  'truncated inside the prelude (the tag sections',
  'num_chunks stored as 0 and the tail cut',
  'corrupt chunk: a reference id ≥ ref_count (forward',
  'corrupt chunk: a UMI wider than ulen (legacy)',
  'corrupt chunk: nbytes just above',
  'corrupt chunk: nbytes below',
  'compressed chunk that fails to decompress (lz4, shorter',
  'compressed chunk that fails to decompress (zstd, no frame magic)',
  'text (headerless SAM)',
]

/** The fields an issue must have exactly (absent ones must be absent), and its message. */
export function expectIssues(got: readonly Partial<IntegrityIssue>[], want: readonly ExpectedIssue[]): void {
  const shape = (i: Partial<IntegrityIssue> | ExpectedIssue): Record<string, unknown> => ({
    kind: i.kind,
    severity: i.severity,
    chunk: i.chunk,
    offset: i.offset,
    part: i.part,
  })
  expect(got.map(shape), JSON.stringify(got, null, 1)).toEqual(want.map(shape))
  want.forEach((w, i) => {
    expect(got[i]?.message).toMatch(w.message)
  })
}
