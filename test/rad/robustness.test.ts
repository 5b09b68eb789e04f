/**
 * "Cannot be broken" (docs/integrity.md), property-based: valid files of every shape the
 * test writer makes (assays, random tag types, chunk counts, codecs, nbytes
 * conventions, v2 prefixes, Snappy containers), then random mutations (byte
 * flips, insertions, deletions, truncations, u32/u64 fields overwritten at the
 * writer's structure offsets). Reading them — openRad, scanChunks with every
 * check, decodeChunk of every indexed chunk, planSalvage — may only ever throw
 * RadError, finishes in bounded time, never reads past the end of the file
 * nor more than a small multiple of it, never allocates by an unchecked
 * count, and a salvage of whatever was read reads back without errors.
 *
 * Seeds are fixed: a failure prints its seed and path, and reproduces.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { RadError } from '../../src/rad/errors'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { BytesSource } from '../../src/io/byteSource'
import type { ByteSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { damageInPrelude } from '../../src/io/containerDamage'
import { planSalvage } from '../../src/io/salvage'
import { scanChunks } from '../../src/io/scanChunks'
import {
  ByteWriter,
  arrayTag,
  buildRad,
  loadZstd,
  lz4Payload,
  role,
  snappyFrame,
  tag,
  zstdFrame,
} from '../helpers/radWriter'
import type {
  BuiltRad,
  ChunkSpec,
  RadSpec,
  RecordSpec,
  RoleSpec,
  TagSpec,
  TypeName,
  WValue,
} from '../helpers/radWriter'
import {
  atacPiscemCpp,
  atacPiscemRs,
  bulk,
  chunked,
  multiBarcodeV2,
  piscemScRnaV2,
  salmonScRna,
  scLongRead,
} from '../helpers/assays'
import { RecordingSource } from '../helpers/recordingSource'

await loadZstd()

// ---------------------------------------------------------------------------
// Bounds every case is held to

/** One case (a file of at most a few KB) reads in milliseconds; this only catches hangs. */
const CASE_MS = 2000
/** Bytes read, as a multiple of the file size (prelude, chunk walk, decode, salvage each read it about once). */
const READ_FACTOR = 8
/** ...and of the unwrapped stream for a Snappy container (each frame touched is re-read and decoded). */
const SNAPPY_READ_FACTOR = 24
/**
 * ArrayBuffer growth allowed while reading one random case (a file of a few
 * KB): above the 128 MiB window a zstd frame without a content size may still
 * ask for (libzstd's own default limit; src/rad/decode/codec.ts), far below the GiB a
 * trusted count would allocate.
 */
const MEMORY_BYTES = 192 << 20
/** ...and while reading one of the hand-made absurd-field files below. */
const ABSURD_MEMORY_BYTES = 16 << 20

// ---------------------------------------------------------------------------
// Valid files

const SCALARS: TypeName[] = [
  'bool',
  'u8',
  'u16',
  'u32',
  'u64',
  'f32',
  'f64',
  'string',
  'u128',
  'i8',
  'i16',
  'i32',
  'i64',
  'i128',
]
const LENGTHS: TypeName[] = ['u8', 'u16', 'u32', 'u64', 'i8', 'i32']
/** Names the semantics layer looks for, so random files also get barcode, UMI and reference checks. */
const NAMES = [
  'b',
  'u',
  'b0',
  'b1',
  'barcode',
  'ref',
  'compressed_ori_refid',
  'compressed_ori_ref',
  'pos',
  'cblen',
  'ulen',
]

function scalar(t: TypeName): fc.Arbitrary<WValue> {
  switch (t) {
    case 'bool':
    case 'u8':
      return fc.integer({ min: 0, max: 255 })
    case 'u16':
      return fc.integer({ min: 0, max: 0xffff })
    case 'u32':
      return fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0, 1, 5, 0xffffffff))
    case 'u64':
      return fc.oneof(fc.bigInt(0n, (1n << 64n) - 1n), fc.bigInt(0n, 40n))
    case 'f32':
      return fc.float()
    case 'f64':
      return fc.double()
    case 'string':
      return fc.string({ unit: 'binary', maxLength: 6 })
    case 'u128':
      return fc.bigInt(0n, (1n << 128n) - 1n)
    case 'i8':
      return fc.integer({ min: -128, max: 127 })
    case 'i16':
      return fc.integer({ min: -32768, max: 32767 })
    case 'i32':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })
    case 'i64':
      return fc.bigInt(-(1n << 63n), (1n << 63n) - 1n)
    case 'i128':
      return fc.bigInt(-(1n << 127n), (1n << 127n) - 1n)
    default:
      throw new Error(`no scalar arbitrary for ${t}`)
  }
}

function valueOf(spec: TagSpec): fc.Arbitrary<WValue> {
  if (spec.type !== 'array') return scalar(spec.type as TypeName)
  return fc.array(scalar(spec.element as TypeName), { maxLength: 4 })
}

const roleArb: fc.Arbitrary<RoleSpec | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  fc.constantFrom(role.none, role.reference, role.orientation, role.position, role.fragmentLength, role.mappingType),
  fc
    .record({ level: fc.integer({ min: 0, max: 3 }), len: fc.integer({ min: 0, max: 40 }) })
    .map((r) => role.barcode(r.level, r.len)),
  fc.integer({ min: 0, max: 40 }).map((len) => role.umi(len)),
  // Unknown role codes, and known ones with longer payloads (a newer minor).
  fc.record({
    code: fc.integer({ min: 0, max: 255 }),
    payload: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }),
  }),
)

const tagArb: fc.Arbitrary<TagSpec> = fc
  .record({
    name: fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: 'binary', maxLength: 4 })),
    kind: fc.oneof(
      { arbitrary: fc.constantFrom(...SCALARS).map((t) => ({ type: t })), weight: 5 },
      fc.record({ length: fc.constantFrom(...LENGTHS), element: fc.constantFrom(...SCALARS) }),
    ),
    role: roleArb,
  })
  .map(({ name, kind, role: r }) =>
    'type' in kind ? tag(name, kind.type, r) : arrayTag(name, kind.length, kind.element, r),
  )

/** Any tag schema, values to match. */
const genericSpec: fc.Arbitrary<RadSpec> = fc
  .record({
    v2: fc.boolean(),
    paired: fc.integer({ min: 0, max: 1 }),
    refs: fc.array(fc.string({ unit: 'binary', maxLength: 5 }), { maxLength: 5 }),
    fileTags: fc.array(tagArb, { maxLength: 3 }),
    readTags: fc.array(tagArb, { maxLength: 3 }),
    // No alignment tags at all is its own case (naln then sizes nothing): one time in three.
    alnTags: fc.oneof(
      fc.constant<TagSpec[]>([]),
      fc.array(tagArb, { minLength: 1, maxLength: 3 }),
      fc.array(tagArb, { maxLength: 3 }),
    ),
  })
  .chain((s) => {
    const record: fc.Arbitrary<RecordSpec> = fc.record({
      read: fc.tuple(...s.readTags.map(valueOf)),
      alns: fc.array(fc.tuple(...s.alnTags.map(valueOf)), { maxLength: 3 }),
    })
    return fc
      .record({
        fileValues: fc.tuple(...s.fileTags.map(valueOf)),
        chunks: fc.array(fc.record({ records: fc.array(record, { maxLength: 3 }) }), { maxLength: 4 }),
      })
      .map((v): RadSpec => ({ ...s, ...v }))
  })

/** Strings and arrays everywhere: file-tag values, read tags; no alignment tags at all. */
const variable: RadSpec = {
  refs: ['a', 'b'],
  fileTags: [arrayTag('lens', 'u32', 'u64'), tag('note', 'string')],
  readTags: [tag('name', 'string'), arrayTag('xs', 'u32', 'u16')],
  alnTags: [],
  fileValues: [[1n, 2n], 'hello'],
  chunks: [{ records: [{ read: ['r0', [1, 2]] }, { read: ['r1', []] }] }, { records: [{ read: ['r2', [3]] }] }],
}

const ASSAYS: RadSpec[] = [
  salmonScRna(),
  piscemScRnaV2(true),
  piscemScRnaV2(false),
  multiBarcodeV2(),
  bulk(true),
  bulk(false),
  atacPiscemCpp('header-inclusive'),
  atacPiscemRs(),
  scLongRead(),
  variable,
]

/** A real assay's records, chunked anew. */
const assaySpec: fc.Arbitrary<RadSpec> = fc
  .record({ assay: fc.constantFrom(...ASSAYS), perChunk: fc.integer({ min: 1, max: 4 }) })
  .map(({ assay, perChunk }) => ({
    ...assay,
    chunks: chunked(
      (assay.chunks ?? []).flatMap((c) => c.records ?? []),
      perChunk,
    ),
  }))

interface Built {
  bytes: Uint8Array
  /** The writer's layout, when `bytes` is the RAD file itself (not a Snappy container). */
  built: BuiltRad | undefined
  /** Where ref_count is. */
  refCountOffset: number
  label: string
}

function withCodec(spec: RadSpec, codec: number): RadSpec {
  const fileTags = [...(spec.fileTags ?? []), tag('chunk_codec', 'u8')]
  const values = spec.fileValues
  const fileValues = Array.isArray(values)
    ? [...(values as WValue[]), codec]
    : { ...(values as Record<string, WValue> | undefined), chunk_codec: codec }
  return { ...spec, fileTags, fileValues }
}

/** `arb` one time in `n`, else undefined. */
function rarely<T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: n - 1 }, { arbitrary: arb, weight: 1 })
}

interface FileOptions {
  codecs?: readonly ('absent' | 0 | 1 | 2)[]
  snappy?: boolean
}

function files(opts: FileOptions = {}): fc.Arbitrary<Built> {
  return fc
    .record({
      spec: fc.oneof(assaySpec, genericSpec),
      codec: fc.constantFrom(...(opts.codecs ?? (['absent', 0, 1, 2, 1, 2] as const))),
      convention: fc.constantFrom('header-inclusive', 'header-inclusive', 'payload-only'),
      numChunks: fc.constantFrom('actual', 'actual', 0, 'more'),
      ext: rarely(fc.uint8Array({ maxLength: 3 }), 2),
      minor: fc.integer({ min: 0, max: 3 }),
      trailing: rarely(fc.uint8Array({ minLength: 1, maxLength: 12 }), 6),
      snappy: opts.snappy === false ? fc.constant(undefined) : rarely(fc.integer({ min: 16, max: 1024 }), 8),
    })
    .map((o): Built => {
      let spec: RadSpec = { ...o.spec, nbytes: o.convention }
      if (o.codec !== 'absent') spec = withCodec(spec, o.codec)
      if (o.numChunks === 0) spec.numChunks = 0
      if (o.numChunks === 'more') spec.numChunks = (spec.chunks?.length ?? 0) + 2
      const extLen = spec.v2 && o.ext ? o.ext.length : 0
      if (spec.v2 && o.ext) spec.v2 = { minor: o.minor, ext: o.ext }
      if (o.trailing) spec.trailing = o.trailing
      const built = buildRad(spec)
      const label = `${spec.v2 ? 'v2' : 'legacy'} ${String(spec.chunks?.length ?? 0)} chunks codec=${String(o.codec)} ${o.convention} num_chunks=${String(o.numChunks)}`
      const refCountOffset = (spec.v2 ? 14 + extLen : 0) + 1
      if (o.snappy) {
        return {
          bytes: snappyFrame(built.bytes, { frameSize: o.snappy }),
          built: undefined,
          refCountOffset,
          label: `${label} .sz`,
        }
      }
      return { bytes: built.bytes, built, refCountOffset, label }
    })
}

const fileArb = files()

// ---------------------------------------------------------------------------
// Mutations

type Mutation =
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'truncate'; length: number }
  | { kind: 'u32'; at: number; value: number }
  | { kind: 'u64'; at: number; value: bigint }

const U32_VALUES = [0, 1, 2, 7, 8, 9, 255, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff]
const U64_VALUES = [0n, 1n, 0xffffffffn, 1n << 32n, (1n << 53n) - 1n, 1n << 53n, (1n << 64n) - 1n]

/** Offsets of the fields a reader sizes things by: counts, lengths, chunk headers, codec prefixes. */
function u32Offsets(b: Built): number[] {
  const at = new Set<number>()
  const layout = b.built?.layout
  if (!layout) return []
  if (layout.versioned) at.add(10) // ext_len
  at.add(layout.tagSectionsOffset) // u16 count + the first name length
  at.add(layout.tagSectionsOffset + 2)
  at.add(layout.tagValuesOffset) // the first file-tag value (a length, a count…)
  for (const c of layout.chunks) {
    at.add(c.offset) // nbytes
    at.add(c.offset + 4) // nrec
    at.add(c.payloadOffset) // lz4 size prefix, zstd magic
    at.add(c.payloadOffset + 4) // zstd frame header descriptor, window, content size
    at.add(c.payloadOffset + 5)
    for (const r of c.recordOffsets) {
      at.add(r) // naln
      at.add(r + 4) // the first read tag (a string length, an array count…)
    }
  }
  return [...at].filter((x) => x + 4 <= b.bytes.length)
}

/** Byte-level damage anywhere, and overwritten fields ('any'); or only overwritten fields ('fields'). */
function mutationArb(b: Built, which: 'any' | 'fields' = 'any'): fc.Arbitrary<Mutation[]> {
  const n = b.bytes.length
  // Half the byte-level mutations land in the chunks: the prelude is most of a small file.
  const first = Math.min(b.built?.layout.firstChunkOffset ?? 0, Math.max(0, n - 1))
  const pos = fc.oneof(
    fc.integer({ min: 0, max: Math.max(0, n - 1) }),
    fc.integer({ min: first, max: Math.max(0, n - 1) }),
  )
  const bytes: fc.Arbitrary<Mutation>[] = [
    fc.record({ kind: fc.constant('flip' as const), at: pos, xor: fc.integer({ min: 1, max: 255 }) }),
    fc.record({
      kind: fc.constant('insert' as const),
      at: fc.integer({ min: 0, max: n }),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
    }),
    fc.record({ kind: fc.constant('delete' as const), at: pos, length: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ kind: fc.constant('truncate' as const), length: fc.integer({ min: first, max: n }) }),
  ]
  const fields: fc.Arbitrary<Mutation>[] = []
  const u32 = u32Offsets(b)
  if (u32.length > 0) {
    // The largest value most often: it is the one a trusting reader would allocate or loop by.
    const value = fc.oneof(
      { arbitrary: fc.constant(0xffffffff), weight: 2 },
      { arbitrary: fc.constantFrom(...U32_VALUES), weight: 2 },
      { arbitrary: fc.integer({ min: 0, max: 0xffffffff }), weight: 1 },
    )
    fields.push(fc.record({ kind: fc.constant('u32' as const), at: fc.constantFrom(...u32), value }))
    fields.push(fc.record({ kind: fc.constant('u32' as const), at: fc.constantFrom(...u32), value }))
  }
  const layout = b.built?.layout
  if (layout) {
    const u64 = [b.refCountOffset, layout.numChunksOffset].filter((x) => x + 8 <= n)
    if (u64.length > 0) {
      fields.push(
        fc.record({
          kind: fc.constant('u64' as const),
          at: fc.constantFrom(...u64),
          value: fc.constantFrom(...U64_VALUES),
        }),
      )
    }
  }
  const options = which === 'fields' && fields.length > 0 ? fields : [...bytes, ...fields]
  return fc.array(fc.oneof(...options), { minLength: 1, maxLength: which === 'fields' ? 2 : 3 })
}

function mutate(bytes: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let out = bytes.slice()
  for (const m of mutations) {
    switch (m.kind) {
      case 'flip':
        if (m.at < out.length) out[m.at] = (out[m.at] ?? 0) ^ m.xor
        break
      case 'insert': {
        const at = Math.min(m.at, out.length)
        const next = new Uint8Array(out.length + m.bytes.length)
        next.set(out.subarray(0, at), 0)
        next.set(m.bytes, at)
        next.set(out.subarray(at), at + m.bytes.length)
        out = next
        break
      }
      case 'delete': {
        const at = Math.min(m.at, out.length)
        const next = new Uint8Array(out.length - Math.min(m.length, out.length - at))
        next.set(out.subarray(0, at), 0)
        next.set(out.subarray(at + m.length), at)
        out = next
        break
      }
      case 'truncate':
        out = out.slice(0, Math.min(m.length, out.length))
        break
      case 'u32':
        if (m.at + 4 <= out.length) new DataView(out.buffer).setUint32(m.at, m.value, true)
        break
      case 'u64':
        if (m.at + 8 <= out.length) new DataView(out.buffer).setBigUint64(m.at, m.value, true)
        break
    }
  }
  return out
}

// ---------------------------------------------------------------------------
// Reading everything, as the viewer and the CLI do

interface Outcome {
  /** The RadError that stopped opening, if any. */
  openError: RadError | undefined
  chunks: number
  /** Errors in the salvaged file (must be none). */
  salvageErrors: string[]
  decoded: number
  snappy: boolean
  /** Size of the stream the reader parsed (the unwrapped one for .sz). */
  streamSize: number
}

function rethrowUnlessRad(e: unknown): void {
  if (!(e instanceof RadError)) throw e
}

async function readAll(file: ByteSource): Promise<Outcome> {
  const outcome: Outcome = {
    openError: undefined,
    chunks: 0,
    salvageErrors: [],
    decoded: 0,
    snappy: false,
    streamSize: file.size,
  }
  let opened
  try {
    opened = await openRad(file)
  } catch (e) {
    rethrowUnlessRad(e)
    outcome.openError = e as RadError
    return outcome
  }
  const { source, prelude } = opened
  outcome.snappy = opened.container === 'snappy-framed'
  outcome.streamSize = source.size
  const sem = inferSemantics(prelude)
  // Tiny blocks: chunks straddle the reader's blocks, as they do every 32 MiB of a real file.
  const scan = await scanChunks(source, prelude, { check: makeCheckPlan(prelude, sem), blockSize: 256 })
  outcome.chunks = scan.index.count
  for (let k = 0; k < scan.index.count; k++) {
    const offset = scan.index.offset[k] ?? 0
    const span = chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention)
    expect(offset + span).toBeLessThanOrEqual(source.size)
    const bytes = await source.read(offset, span)
    try {
      decodeChunk(bytes, offset, k, prelude, scan.convention)
      outcome.decoded++
    } catch (e) {
      rethrowUnlessRad(e)
    }
  }
  const salvage = planSalvage(source, prelude, scan.index, scan.convention, scan.issues, scan.damagedChunks)
  if (prelude.codec === 'unknown') {
    await expect(salvage, 'a newer codec: nothing to salvage').rejects.toThrow(/nothing to salvage/)
    return outcome
  }
  if (damageInPrelude(source, prelude.firstChunkOffset)) {
    // A .sz frame failing its checksum over the header: no chunk can stand in for it (docs/integrity.md).
    await expect(salvage, 'a damaged header: nothing to salvage').rejects.toThrow(/nothing to salvage: the header/)
    return outcome
  }
  const plan = await salvage
  // The salvaged file, assembled from the stream, reads back without an error.
  const out = new ByteWriter().bytes(plan.head)
  for (const [start, end] of plan.ranges) {
    expect(start).toBeGreaterThanOrEqual(prelude.firstChunkOffset)
    expect(end).toBeLessThanOrEqual(source.size)
    out.bytes(await source.read(start, end - start))
  }
  const salvaged = out.finish()
  expect(salvaged.length).toBe(plan.bytes)
  const again = await openRad(new BytesSource(salvaged))
  const check = await scanChunks(again.source, again.prelude, {
    check: makeCheckPlan(again.prelude, inferSemantics(again.prelude)),
  })
  outcome.salvageErrors = check.issues.filter((i) => i.severity === 'error').map((i) => i.message)
  expect(check.index.count).toBe(plan.keptChunks)
  return outcome
}

/** Mutations as text for a failure message (bigints and byte arrays included). */
function describe_(mutations: readonly Mutation[]): string {
  return JSON.stringify(mutations, (_k, v: unknown) =>
    typeof v === 'bigint' ? `${String(v)}n` : v instanceof Uint8Array ? Array.from(v) : v,
  )
}

interface Measured {
  outcome: Outcome
  ms: number
  memory: number
  source: RecordingSource
}

async function measured(bytes: Uint8Array): Promise<Measured> {
  const source = new RecordingSource(bytes)
  const before = process.memoryUsage().arrayBuffers
  const started = performance.now()
  const outcome = await readAll(source)
  const ms = performance.now() - started
  const memory = process.memoryUsage().arrayBuffers - before
  return { outcome, ms, memory, source }
}

/** The bounds every read of every input is held to. */
function expectBounded(m: Measured, what: string, memory = MEMORY_BYTES): void {
  expect(m.source.readsPastEnd, `${what}: reads past the end`).toEqual([])
  const size = m.source.size
  const factor = m.outcome.snappy ? SNAPPY_READ_FACTOR : READ_FACTOR
  const stream = m.outcome.snappy ? Math.max(size, m.outcome.streamSize) : size
  expect(m.source.bytesRead, `${what}: bytes read from a ${String(size)}-byte file`).toBeLessThanOrEqual(
    factor * stream + 4096,
  )
  expect(m.ms, `${what}: milliseconds`).toBeLessThan(CASE_MS)
  expect(m.memory, `${what}: ArrayBuffer growth`).toBeLessThan(memory)
  expect(m.outcome.salvageErrors, `${what}: errors in the salvaged file`).toEqual([])
}

/** How deep the mutated files got (a property that rejects everything at byte 0 tests little). */
const stats = { cases: 0, opened: 0, chunks: 0 }

function note(m: Measured): void {
  stats.cases++
  if (!m.outcome.openError) stats.opened++
  stats.chunks += m.outcome.chunks
}

// ---------------------------------------------------------------------------

describe('random valid files read cleanly', () => {
  it('every generated file opens and every chunk decodes, with no error', async () => {
    await fc.assert(
      fc.asyncProperty(fileArb, async (f) => {
        const m = await measured(f.bytes)
        expect(m.outcome.openError?.message, f.label).toBeUndefined()
        expect(m.outcome.decoded, f.label).toBe(m.outcome.chunks)
        expectBounded(m, f.label)
      }),
      { numRuns: 150, seed: 0x0ad5eed, endOnFailure: true },
    )
  })
})

describe('mutated files: only RadError, bounded time, reads and memory', () => {
  const mutated = fileArb.chain((f) => fc.tuple(fc.constant(f), mutationArb(f)))

  it('random flips, insertions, deletions, truncations and overwritten fields', async () => {
    await fc.assert(
      fc.asyncProperty(mutated, async ([f, mutations]) => {
        const bytes = mutate(f.bytes, mutations)
        const m = await measured(bytes)
        note(m)
        expectBounded(m, `${f.label} mutated ${describe_(mutations)}`)
      }),
      { numRuns: 400, seed: 0x5eed05, endOnFailure: true },
    )
    // The mutations must not all be rejected at the door: many files still open, and their chunks are walked.
    expect(stats.opened / stats.cases).toBeGreaterThan(0.35)
    expect(stats.chunks).toBeGreaterThan(stats.cases / 2)
  })

  it('overwritten counts, lengths and chunk-header fields (0, 1, 8, 2^31, 2^32 − 1, 2^53…)', async () => {
    const arb = files({ snappy: false }).chain((f) => fc.tuple(fc.constant(f), mutationArb(f, 'fields')))
    await fc.assert(
      fc.asyncProperty(arb, async ([f, mutations]) => {
        const m = await measured(mutate(f.bytes, mutations))
        expectBounded(m, `${f.label} fields ${describe_(mutations)}`)
      }),
      { numRuns: 500, seed: 0xf1e1d5, endOnFailure: true },
    )
  })

  it('lz4 and zstd chunks damaged anywhere, their size prefixes and frame headers included', async () => {
    const arb = files({ codecs: [1, 2], snappy: false }).chain((f) => fc.tuple(fc.constant(f), mutationArb(f)))
    await fc.assert(
      fc.asyncProperty(arb, async ([f, mutations]) => {
        const m = await measured(mutate(f.bytes, mutations))
        expectBounded(m, `${f.label} mutated ${describe_(mutations)}`)
      }),
      { numRuns: 300, seed: 0x12d5, endOnFailure: true },
    )
  })

  it('every truncation of a file (each prefix): only RadError, bounded', async () => {
    await fc.assert(
      fc.asyncProperty(
        fileArb.chain((f) => fc.tuple(fc.constant(f), fc.integer({ min: 0, max: f.bytes.length }))),
        async ([f, length]) => {
          const m = await measured(f.bytes.subarray(0, length))
          expectBounded(m, `${f.label} cut at ${String(length)}`)
        },
      ),
      { numRuns: 200, seed: 0xc0ffee, endOnFailure: true },
    )
  })
})

// ---------------------------------------------------------------------------
// Allocation-sized fields set to absurd values, one at a time

function setU32(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const out = bytes.slice()
  new DataView(out.buffer).setUint32(at, value, true)
  return out
}

function setU64(bytes: Uint8Array, at: number, value: bigint): Uint8Array {
  const out = bytes.slice()
  new DataView(out.buffer).setBigUint64(at, value, true)
  return out
}

function chunkOf(b: BuiltRad, k: number): BuiltRad['layout']['chunks'][number] {
  const c = b.layout.chunks[k]
  if (!c) throw new Error(`no chunk ${String(k)}`)
  return c
}

/** A chunk holding this stored payload under a codec (the writer does not compress it again). */
function storedChunk(codec: 1 | 2, stored: Uint8Array, nrec = 1): Uint8Array {
  const spec = withCodec(salmonScRna(), codec)
  const chunks: ChunkSpec[] = [{ records: [], nrec, stored }, ...(spec.chunks ?? [])]
  return buildRad({ ...spec, chunks }).bytes
}

/** zstd frame: magic, descriptor, [window], [content size], then one last raw block of `raw` bytes. */
function zstdCrafted(descriptor: number, window: number | undefined, contentSize: number[], raw = 0): Uint8Array {
  const w = new ByteWriter().bytes([0x28, 0xb5, 0x2f, 0xfd]).u8(descriptor)
  if (window !== undefined) w.u8(window)
  w.bytes(contentSize)
  w.u8(((raw << 3) | 1) & 0xff)
    .u8((raw >> 5) & 0xff)
    .u8((raw >> 13) & 0xff)
  return w.bytes(new Uint8Array(raw)).finish()
}

function absurdCases(): [string, Uint8Array][] {
  const sc = buildRad(salmonScRna())
  const v = buildRad(variable)
  const v2 = buildRad(piscemScRnaV2(true))
  const c0 = chunkOf(sc, 0)
  const vc0 = chunkOf(v, 0)
  const lz4 = lz4Payload(new Uint8Array(40).fill(3))
  const zstdOk = zstdFrame(new Uint8Array(40).fill(3))
  const cases: [string, Uint8Array][] = [
    ['ref_count = 2^32 − 1', setU64(sc.bytes, 1, 0xffffffffn)],
    ['ref_count = 2^53 − 1', setU64(sc.bytes, 1, (1n << 53n) - 1n)],
    ['ref_count = 2^64 − 1', setU64(sc.bytes, 1, (1n << 64n) - 1n)],
    ['num_chunks = 2^32 − 1', setU64(sc.bytes, sc.layout.numChunksOffset, 0xffffffffn)],
    ['num_chunks = 2^53 − 1', setU64(sc.bytes, sc.layout.numChunksOffset, (1n << 53n) - 1n)],
    ['the file tag section count = 65,535', setU32(sc.bytes, sc.layout.tagSectionsOffset, 0xffff)],
    ['v2 ext_len = 2^32 − 1', setU32(v2.bytes, 10, 0xffffffff)],
    ['chunk 0 nbytes = 2^32 − 1', setU32(sc.bytes, c0.offset, 0xffffffff)],
    ['chunk 0 nrec = 2^32 − 1', setU32(sc.bytes, c0.offset + 4, 0xffffffff)],
    ['record 0 naln = 2^32 − 1', setU32(sc.bytes, c0.payloadOffset, 0xffffffff)],
    ['a file-tag array count (u32) = 2^32 − 1', setU32(v.bytes, v.layout.tagValuesOffset, 0xffffffff)],
    ['a record array count (u32) = 2^32 − 1', setU32(v.bytes, (vc0.recordOffsets[0] ?? 0) + 4 + 2 + 2, 0xffffffff)],
    [
      'naln = 2^32 − 1 in a file with no alignment tags (variable-width records)',
      setU32(v.bytes, vc0.payloadOffset, 0xffffffff),
    ],
    [
      'naln = 2^32 − 1 in a file with no alignment tags, nrec = 2',
      setU32(setU32(v.bytes, vc0.payloadOffset, 0xffffffff), vc0.recordOffsets[1] ?? 0, 0xffffffff),
    ],
    ['lz4 size prefix = 2^32 − 1', storedChunk(1, setU32(lz4, 0, 0xffffffff))],
    ['lz4 size prefix = 1 GiB', storedChunk(1, setU32(lz4, 0, 1 << 30))],
    [
      'zstd content size claims 1 GiB − 1 (4-byte field, single segment)',
      storedChunk(2, zstdCrafted(0xa0, undefined, [0xff, 0xff, 0xff, 0x3f])),
    ],
    ['zstd content size claims 2^40 (8-byte field)', storedChunk(2, zstdCrafted(0xc0, 0x50, [0, 0, 0, 0, 0, 1, 0, 0]))],
    ['zstd window of 1.9 GiB, no content size', storedChunk(2, zstdCrafted(0x00, (20 << 3) | 7, []))],
    ['zstd window of 256 MiB, no content size', storedChunk(2, zstdCrafted(0x00, 18 << 3, [], 4))],
    [
      'zstd frame header of a real frame with its content size raised to 1 GiB − 1',
      storedChunk(2, zstdContentSizeRaised(zstdOk)),
    ],
    ['Snappy frame length = 2^24 − 1', setU32(snappyFrame(sc.bytes), 10, 0xffffff00)],
    ['Snappy compressed frame claiming more than 64 KiB', snappyClaim(sc.bytes)],
  ]
  return cases
}

/** A real zstd frame (single segment, 1-byte content size) rewritten to claim 2^30 − 1 bytes. */
function zstdContentSizeRaised(frame: Uint8Array): Uint8Array {
  // Descriptor 0x20 = single segment, 1-byte content size at byte 5; 0xa0 = 4-byte content size.
  if (frame[4] !== 0x20) throw new Error(`unexpected zstd descriptor ${String(frame[4])}`)
  return new ByteWriter()
    .bytes(frame.subarray(0, 4))
    .u8(0xa0)
    .u32(2 ** 30 - 1)
    .bytes(frame.subarray(6))
    .finish()
}

/** A Snappy stream whose first data frame's varint length says 1 GiB. */
function snappyClaim(rad: Uint8Array): Uint8Array {
  const framed = snappyFrame(rad, { mode: 'compressed' })
  // Stream id (10 bytes), frame header (4), CRC (4), then the varint: make it 5 bytes claiming 2^30.
  const head = framed.subarray(0, 18)
  const body = framed.subarray(18)
  let varint = 0
  while (((body[varint] ?? 0) & 0x80) !== 0) varint++
  const claim = [0x80, 0x80, 0x80, 0x80, 0x04]
  const out = new ByteWriter()
    .bytes(head)
    .bytes(claim)
    .bytes(body.subarray(varint + 1))
    .finish()
  const view = new DataView(out.buffer)
  const word = view.getUint32(10, true)
  view.setUint32(10, ((word & 0xff) | (((word >>> 8) + claim.length - (varint + 1)) << 8)) >>> 0, true)
  return out
}

describe('no count or size from the file sizes an allocation or a loop', () => {
  it.each(absurdCases())('%s', async (name, bytes) => {
    const m = await measured(bytes)
    expectBounded(m, name, ABSURD_MEMORY_BYTES)
  })
})
