/**
 * Declared lengths the tag's type cannot hold (docs/integrity.md): `ulen` = 65,535
 * with a u32 UMI made `view` build 65,535-base UMIs until it died with a
 * stack trace. Each is a warning at the byte that declares it; display,
 * `view` and `dump` decode what the type holds; no command prints a stack
 * trace, on these or any input.
 */
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { parsePrelude } from '../../src/rad/prelude/prelude'
import { declaredLengthIssues, inferSemantics } from '../../src/rad/prelude/semantics'
import { roleLenOffset } from '../../src/rad/prelude/tags'
import { buildRad, role, tag } from '../helpers/radWriter'
import { runCli, tempDir } from '../helpers/cli'
import { SALMON_V3 } from '../helpers/fixtures'
import { piscemScRnaV2, salmonScRna } from '../helpers/assays'

const dir = tempDir()
afterAll(() => {
  dir.cleanup()
})

const real = new Uint8Array(readFileSync(SALMON_V3))

/** The real salmon file with one u16 file tag value (cblen or ulen, §7.1) set to `value`. */
function withFileTag(name: string, value: number): { bytes: Uint8Array; at: number } {
  const prelude = parsePrelude(real, real.length)
  const at = prelude.fileTagValueOffsets[prelude.fileTags.findIndex((t) => t.name === name)] ?? -1
  const bytes = real.slice()
  new DataView(bytes.buffer).setUint16(at, value, true)
  return { bytes, at }
}

interface Case {
  name: string
  bytes: Uint8Array
  /** Tag name, the most its type holds, the declared length, and where. */
  tag: string
  capacity: number
  declared: number
  at: number
}

function cases(): Case[] {
  const ulen = withFileTag('ulen', 65535)
  const cblen = withFileTag('cblen', 40)
  // A u64 barcode whose cblen is 65,535: at most 32 nt.
  const wide = salmonScRna()
  const u64 = buildRad({
    ...wide,
    fileValues: { cblen: 65535, ulen: 12 },
    readTags: [tag('b', 'u64'), tag('u', 'u32')],
    chunks: wide.chunks?.map((c) => ({
      records: (c.records ?? []).map((r) => {
        const read = r.read as { b: number; u: number }
        return { ...r, read: { b: BigInt(read.b), u: read.u } }
      }),
    })),
  })
  const cblenAt = parsePrelude(u64.bytes, u64.bytes.length).fileTagValueOffsets[0] ?? -1
  // v2: a UMI role length of 255 on a u32 (§2.3), with ulen agreeing.
  const v2spec = piscemScRnaV2(false)
  const v2 = buildRad({
    ...v2spec,
    readTags: [tag('b', 'u32', role.barcode(0, 16)), tag('u', 'u32', role.umi(255))],
    fileValues: { ...(v2spec.fileValues as Record<string, never>), ulen: 255 },
  }).bytes
  const v2prelude = parsePrelude(v2, v2.length)
  return [
    {
      name: 'ulen 65,535 with a u32 UMI (the real file)',
      bytes: ulen.bytes,
      tag: 'u',
      capacity: 16,
      declared: 65535,
      at: ulen.at,
    },
    {
      name: 'cblen 40 with a u32 barcode (the real file)',
      bytes: cblen.bytes,
      tag: 'b',
      capacity: 16,
      declared: 40,
      at: cblen.at,
    },
    { name: 'cblen 65,535 with a u64 barcode', bytes: u64.bytes, tag: 'b', capacity: 32, declared: 65535, at: cblenAt },
    {
      name: 'a v2 UMI role length of 255 on a u32',
      bytes: v2,
      tag: 'u',
      capacity: 16,
      declared: 255,
      at: roleLenOffset(v2prelude.readTags[1] ?? v2prelude.readTags[0]!) ?? -1,
    },
  ]
}

/** No line of a Node stack trace, no "Error:" dump: at most one line per problem. */
function expectNoStackTrace(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m)
  expect(stderr).not.toMatch(/RangeError|TypeError|node:internal/)
}

describe('absurd declared lengths', () => {
  it.each(cases())('$name: a warning at the declaring byte; decoded to what the type holds', (c) => {
    const prelude = parsePrelude(c.bytes, c.bytes.length)
    const sem = inferSemantics(prelude)
    const field = [...sem.barcodes, ...(sem.umi ? [sem.umi] : [])].find((f) => f.name === c.tag)
    expect(field).toMatchObject({ len: c.capacity, overlong: { declared: c.declared, offset: c.at } })
    expect(declaredLengthIssues(prelude)).toMatchObject([
      {
        kind: 'declared-length',
        severity: 'warning',
        offset: c.at,
        message: new RegExp(`tag "${c.tag}" is a u\\d+, which holds at most ${String(c.capacity)} nt`),
      },
    ])
  })

  it('a declared length within the type is no issue', () => {
    const prelude = parsePrelude(real, real.length)
    expect(declaredLengthIssues(prelude)).toEqual([])
  })
})

describe.concurrent('every CLI command on absurd lengths: no stack trace, bounded time, sane output', () => {
  for (const c of cases()) {
    it(
      c.name,
      async () => {
        const path = dir.write(`${c.tag}-${String(c.declared)}-${String(c.capacity)}.rad`, c.bytes)
        const [info, dump, view, validate, salvage] = await Promise.all([
          runCli(['info', path]),
          runCli(['dump', path]),
          runCli(['view', path]),
          runCli(['validate', path]),
          runCli(['salvage', path, `${path}.out`]),
        ])
        // Bounded output, not a timing: unclamped, `view` wrote 728 MB of 65,535-base UMIs and died.
        expect(view.stdout.length + dump.stdout.length).toBeLessThan(64 << 20)
        for (const r of [info, dump, view, validate, salvage]) expectNoStackTrace(r.stderr)

        expect(validate.code).toBe(2)
        expect(validate.stdout).toMatch(/^readable, with warnings: \d+ chunks/)
        expect(validate.stderr).toMatch(new RegExp(`^warning at byte ${String(c.at)}: tag "${c.tag}" is a u\\d+`, 'm'))
        const json = JSON.parse(info.stdout) as { integrity: string; issues: { kind: string; offset: number }[] }
        expect(info.code).toBe(2)
        expect(json.integrity).toBe('warnings')
        expect(json.issues.filter((i) => i.kind === 'declared-length')).toMatchObject([{ offset: c.at }])

        expect(view.code).toBe(0)
        const field = c.tag === 'u' ? 'UMI' : 'CB'
        const lines = view.stdout.split('\n').filter((l) => l !== '')
        const widths = new Set(lines.map((l) => new RegExp(`\\t${field}:([ACGT]*)\\t`).exec(l)?.[1]?.length))
        expect([...widths]).toEqual([c.capacity])
        expect(dump.code).toBe(0)
        expect(
          dump.stdout
            .split('\n')
            .filter((l) => l !== '')
            .every((l) => JSON.parse(l) !== undefined),
        ).toBe(true)
        // salvage copies the header, so its output keeps the warning: it says so, and exits as validate will.
        expect(salvage.code).toBe(2)
        expect(salvage.stderr).toMatch(/keeps this warning of the header, which salvage copies unchanged/)
        expect((await runCli(['validate', `${path}.out`])).code).toBe(2)
      },
      60_000,
    )
  }

  it('1 beats 2: an absurd length (warning) in a file also cut short (error) exits 1', async () => {
    const { bytes } = withFileTag('ulen', 65535)
    const r = await runCli(['validate', dir.write('both.rad', bytes.subarray(0, bytes.length - 100))])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/^warning at byte \d+: tag "u"/m)
    expect(r.stderr).toMatch(/^error at byte \d+ \(chunk 3\)/m)
  })
})
