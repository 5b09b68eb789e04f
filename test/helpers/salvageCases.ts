/**
 * Damaged files for "save the valid part" (docs/integrity.md), with the chunks a
 * salvage must keep, and an in-process salvage (planSalvage, assembled the way
 * the CLI and the viewer do) to compare with. Shared by test/io/salvage.test.ts
 * and test/cli/salvage.test.ts.
 */
import { expect } from 'vitest'
import { chunkSpan } from '../../src/rad/decode/chunk'
import { integrityStatus } from '../../src/rad/checks/integrity'
import type { IntegrityIssue, IntegrityStatus } from '../../src/rad/checks/integrity'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import type { NbytesConvention, Prelude } from '../../src/rad/types'
import { makeCheckPlan } from '../../src/rad/checks/valueChecks'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import { planSalvage } from '../../src/io/salvage'
import type { SalvagePlan } from '../../src/io/salvage'
import { scanChunks } from '../../src/io/scanChunks'
import type { ScanResult } from '../../src/io/scanChunks'
import { ATAC_READS, SC_READS, atacPiscemCpp, chunked, piscemScRnaV2 } from './assays'
import { buildRad, tag } from './radWriter'
import type { BuiltRad, ChunkLayout, RadSpec } from './radWriter'
import { K, base, storedPayload, withChunk } from './integrityCases'

export interface SalvageCase {
  name: string
  /** The damaged input. */
  input: Uint8Array
  /** Where the input's chunks are (the writer's layout). */
  chunks: ChunkLayout[]
  /** Input chunks that must be in the output, in order. */
  kept: number[]
  /** Indexed input chunks that must be left out. */
  dropped: number[]
  numChunksOffset: number
  firstChunkOffset: number
  convention: NbytesConvention
  /** When the output must equal these bytes exactly. */
  exactly?: Uint8Array
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i)

function salvageCase(
  name: string,
  b: BuiltRad,
  input: Uint8Array,
  kept: number[],
  dropped: number[],
  extra: Partial<SalvageCase> = {},
): SalvageCase {
  return {
    name,
    input,
    chunks: b.layout.chunks,
    kept,
    dropped,
    numChunksOffset: b.layout.numChunksOffset,
    firstChunkOffset: b.layout.firstChunkOffset,
    convention: 'header-inclusive',
    ...extra,
  }
}

/** A reference id ≥ ref_count in chunk k's only alignment word (scRNA layout). */
function badRef(spec: RadSpec, k: number): RadSpec {
  const rec = spec.chunks?.[k]?.records?.[0]
  if (!rec) throw new Error(`no record in chunk ${String(k)}`)
  return withChunk(spec, k, { records: [{ ...rec, alns: [[0x7ffffff0]] }] })
}

/** Needs loadZstd() first. */
export function salvageCases(): SalvageCase[] {
  const cases: SalvageCase[] = []
  const spec = base()
  const clean = buildRad(spec)
  const cut = clean.layout.chunks[3]?.payloadOffset ?? 0
  cases.push(
    salvageCase('a truncated file (cut inside chunk 3)', clean, clean.bytes.subarray(0, cut + 5), [0, 1, 2], []),
  )
  {
    const b = buildRad(badRef(spec, K))
    cases.push(salvageCase(`a corrupt middle chunk (${String(K)})`, b, b.bytes, [0, 1, 3, 4], [K]))
  }
  {
    const b = buildRad(withChunk(badRef(spec, 1), 3, { records: spec.chunks?.[3]?.records ?? [], extra: [0, 0] }))
    cases.push(
      salvageCase('corrupt chunks 1 and 3 (a bad reference, an undeclared field)', b, b.bytes, [0, 2, 4], [1, 3]),
    )
  }
  {
    const v2 = buildRad(piscemScRnaV2(true))
    const b = buildRad({ ...spec, trailing: v2.bytes })
    cases.push(salvageCase('a concatenated file (legacy + v2)', b, b.bytes, range(5), [], { exactly: clean.bytes }))
  }
  {
    const b = buildRad({ ...spec, numChunks: 0 })
    cases.push(salvageCase('a num_chunks = 0 file', b, b.bytes, range(5), [], { exactly: clean.bytes }))
    const tail = b.bytes.subarray(0, (b.layout.chunks[4]?.offset ?? 0) + 3)
    cases.push(salvageCase('a num_chunks = 0 file cut inside chunk 4 header', b, tail, range(4), []))
  }
  {
    const b = buildRad({ ...spec, numChunks: 9 })
    cases.push(
      salvageCase('num_chunks larger than the chunks present', b, b.bytes, range(5), [], { exactly: clean.bytes }),
    )
  }
  {
    const b = buildRad({ ...spec, trailing: [1, 2, 3, 4, 5] })
    cases.push(salvageCase('trailing bytes', b, b.bytes, range(5), [], { exactly: clean.bytes }))
  }
  {
    // v2 (14-byte prefix + roles): num_chunks sits after the prefix and the names.
    const v2spec: RadSpec = {
      ...piscemScRnaV2(true),
      chunks: chunked(piscemScRnaV2(true).chunks?.flatMap((c) => c.records ?? []) ?? [], 1),
    }
    const rec = v2spec.chunks?.[2]?.records?.[0]
    const b = buildRad(withChunk(v2spec, 2, { records: [{ ...rec, read: { b: 1, u: 2 ** 30 } }] }))
    cases.push(salvageCase('a v2 file with a corrupt middle chunk (a UMI too wide)', b, b.bytes, [0, 1, 3, 4], [2]))
    const cutV2 = b.bytes.subarray(0, (b.layout.chunks[4]?.offset ?? 0) + 9)
    cases.push(salvageCase('a v2 file, truncated, with a corrupt middle chunk', b, cutV2, [0, 1, 3], [2]))
  }
  {
    // Payload-only nbytes (the older C++ writer, §4.2): kept as it is, still payload-only.
    const atac = atacPiscemCpp('payload-only', [...ATAC_READS, ...ATAC_READS])
    const spec6: RadSpec = { ...atac, chunks: chunked(atac.chunks?.flatMap((c) => c.records ?? []) ?? [], 1) }
    const rec = spec6.chunks?.[3]?.records?.[0]
    const b = buildRad(withChunk(spec6, 3, { records: [{ ...rec, naln: 7 }] }))
    const input = b.bytes.subarray(0, (b.layout.chunks[5]?.offset ?? 0) + 4)
    cases.push(
      salvageCase('a payload-only nbytes file, truncated, with a corrupt chunk', b, input, [0, 1, 2, 4], [3], {
        convention: 'payload-only',
      }),
    )
  }
  {
    const lz4: RadSpec = {
      ...spec,
      fileTags: [tag('cblen', 'u16'), tag('ulen', 'u16'), tag('chunk_codec', 'u8')],
      fileValues: { cblen: 16, ulen: 12, chunk_codec: 1 },
    }
    const good = buildRad(lz4)
    const stored = storedPayload(good, K)
    const b = buildRad(withChunk(lz4, K, { ...lz4.chunks?.[K], stored: stored.subarray(0, stored.length - 2) }))
    cases.push(salvageCase('an lz4 file whose middle chunk fails to decompress', b, b.bytes, [0, 1, 3, 4], [K]))
  }
  {
    // More damaged chunks than the report lists (1000): every one must still be left out.
    const many: RadSpec = {
      refs: ['r0'],
      readTags: [tag('b', 'u32')],
      alnTags: [tag('ref', 'u32')],
      chunks: range(1200).map((k) => ({ records: [{ read: [k], alns: [[k % 10 === 9 ? 0 : 5]] }] })),
    }
    const b = buildRad(many)
    const kept = range(1200).filter((k) => k % 10 === 9)
    const dropped = range(1200).filter((k) => k % 10 !== 9)
    cases.push(salvageCase('more damaged chunks (1,080) than the report lists (1,000)', b, b.bytes, kept, dropped))
  }
  cases.push(
    salvageCase('a clean file (salvages to an identical file)', clean, clean.bytes, range(5), [], {
      exactly: clean.bytes,
    }),
  )
  {
    const b = buildRad(piscemScRnaV2(false, SC_READS))
    cases.push(salvageCase('a clean v2 file', b, b.bytes, range(b.layout.chunks.length), [], { exactly: b.bytes }))
  }
  return cases
}

export interface Scan {
  prelude: Prelude
  scan: ScanResult
  integrity: IntegrityStatus
  issues: IntegrityIssue[]
}

/** Opens and walks a file with every check, as `rad validate` / the index worker do. */
export async function scanBytes(bytes: Uint8Array): Promise<Scan> {
  const { source, prelude } = await openRad(new BytesSource(bytes, 'salvage.rad'))
  const scan = await scanChunks(source, prelude, { check: makeCheckPlan(prelude, inferSemantics(prelude)) })
  return { prelude, scan, integrity: integrityStatus(scan.issues, true), issues: scan.issues }
}

/** planSalvage, and the file it describes assembled from the input's byte ranges. */
export async function salvageBytes(bytes: Uint8Array): Promise<{ plan: SalvagePlan; out: Uint8Array; before: Scan }> {
  const before = await scanBytes(bytes)
  const { scan, prelude } = before
  const plan = await planSalvage(
    new BytesSource(bytes),
    prelude,
    scan.index,
    scan.convention,
    scan.issues,
    scan.damagedChunks,
  )
  const out = new Uint8Array(plan.bytes)
  out.set(plan.head, 0)
  let at = plan.head.length
  for (const [start, end] of plan.ranges) {
    out.set(bytes.subarray(start, end), at)
    at += end - start
  }
  expect(at, 'the plan accounts for every byte it writes').toBe(plan.bytes)
  return { plan, out, before }
}

/**
 * The salvaged file is sound (no error when validated), declares as many
 * chunks as it holds, has the input's prelude (num_chunks aside), and holds
 * exactly the kept chunks, byte for byte, in order.
 */
export async function expectSalvaged(c: SalvageCase, out: Uint8Array): Promise<void> {
  if (c.exactly) {
    expect(Buffer.from(out).equals(Buffer.from(c.exactly)), 'byte-identical to the expected file').toBe(true)
  }
  const after = await scanBytes(out)
  expect(after.issues.filter((i) => i.severity === 'error')).toEqual([])
  const notes = after.issues.map((i) => i.kind)
  expect(notes).toEqual(c.convention === 'payload-only' ? ['payload-only-nbytes'] : [])
  expect(after.integrity).toBe(c.convention === 'payload-only' ? 'notes' : 'clean')
  expect(after.scan.convention).toBe(c.convention)
  // num_chunks = chunks kept (never 0 = "unknown" when any is kept).
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength)
  expect(Number(view.getBigUint64(c.numChunksOffset, true))).toBe(c.kept.length)
  expect(after.prelude.numChunks).toBe(c.kept.length)
  expect(after.scan.index.count).toBe(c.kept.length)
  // The prelude is the input's, but for num_chunks.
  expect(
    Buffer.from(out.subarray(0, c.numChunksOffset)).equals(Buffer.from(c.input.subarray(0, c.numChunksOffset))),
  ).toBe(true)
  const rest = [c.numChunksOffset + 8, c.firstChunkOffset] as const
  expect(Buffer.from(out.subarray(...rest)).equals(Buffer.from(c.input.subarray(...rest)))).toBe(true)
  // Every kept chunk, byte for byte, where the salvaged file's own index finds it.
  c.kept.forEach((k, i) => {
    const from = c.chunks[k]
    if (!from) throw new Error(`no chunk ${String(k)}`)
    const at = after.scan.index.offset[i] ?? -1
    const span = chunkSpan(after.scan.index.nbytes[i] ?? 0, after.scan.convention)
    expect(span, `chunk ${String(k)} keeps its size`).toBe(from.span)
    const same = Buffer.from(out.subarray(at, at + span)).equals(
      Buffer.from(c.input.subarray(from.offset, from.offset + from.span)),
    )
    expect(same, `input chunk ${String(k)} is output chunk ${String(i)}, byte for byte`).toBe(true)
  })
  expect(out.length).toBe(c.firstChunkOffset + c.kept.reduce((n, k) => n + (c.chunks[k]?.span ?? 0), 0))
}
