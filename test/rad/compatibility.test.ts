/** Producer guess and consumer verdicts (docs/integrity.md) on real salmon files and writer-built assays. */
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import { assessCompatibility } from '../../src/rad/prelude/compatibility'
import type { CompatibilityReport, ConsumerVerdict, Verdict } from '../../src/rad/prelude/compatibility'
import { CONSUMERS, CONSUMER_SOURCES } from '../../src/rad/consumers'
import { identifyProducer } from '../../src/rad/prelude/producer'
import { BytesSource } from '../../src/io/byteSource'
import { openRad } from '../../src/io/openRad'
import {
  atacPiscemCpp,
  atacPiscemRs,
  bulk,
  multiBarcodeV2,
  piscemScRnaV2,
  salmonScRna,
  scLongRead,
} from '../helpers/assays'
import { SALMON_V2, SALMON_V3, SALMON_V3_P3, SALMON_V3_SKETCH } from '../helpers/fixtures'
import { loadZstd, radBytes, snappyFrame, tag } from '../helpers/radWriter'
import type { RadSpec } from '../helpers/radWriter'

beforeAll(loadZstd)

async function reportOf(bytes: Uint8Array): Promise<CompatibilityReport> {
  const { prelude, container } = await openRad(new BytesSource(bytes, 'test.rad'))
  return assessCompatibility(prelude, container)
}

function row(report: CompatibilityReport, tool: string, versions: string): ConsumerVerdict {
  const found = report.consumers.find((c) => c.tool === tool && c.versions === versions)
  if (!found) throw new Error(`no consumer row ${tool} ${versions}`)
  return found
}

/** tool → versions → verdict, for compact expectations. */
function verdicts(report: CompatibilityReport): Record<string, Verdict> {
  return Object.fromEntries(report.consumers.map((c) => [`${c.tool} ${c.versions}`, c.verdict]))
}

function withCodec(spec: RadSpec, codec: number): RadSpec {
  return {
    ...spec,
    fileTags: [...(spec.fileTags ?? []), tag('chunk_codec', 'u8')],
    fileValues: { ...(spec.fileValues as Record<string, never>), chunk_codec: codec },
  }
}

const AF_OLD = ['0.15.x and earlier', '0.16.x – 0.17.x', '0.18.x'] as const
const AF_NEW = '0.19.0 and later'

describe('the consumer table', () => {
  it('cites a known source for every row', () => {
    for (const c of CONSUMERS) {
      expect(c.sources.length).toBeGreaterThan(0)
      for (const key of c.sources) expect(CONSUMER_SOURCES[key], `${c.tool} ${c.versions}: ${key}`).toBeDefined()
    }
  })
})

describe('real salmon files (test/fixtures, salmon 1.10.1 alevin --rad / --sketch)', () => {
  for (const path of [SALMON_V3, SALMON_V3_SKETCH, SALMON_V2, SALMON_V3_P3]) {
    it(`${path.split('/').pop() ?? path}: salmon, read by every alevin-fry`, async () => {
      const r = await reportOf(new Uint8Array(readFileSync(path)))
      expect(r.producer.name).toBe('salmon')
      expect(r.producer.certainty).toBe('weak')
      expect(r.producer.evidence.join(' ')).toContain('cblen, ulen')
      expect(r.producer.alsoPossible.join(' ')).toContain('alevin-fry convert')
      expect(r.producer.alsoPossible.join(' ')).toContain('alevin-fry collate without compression')
      for (const v of [...AF_OLD, AF_NEW]) expect(row(r, 'alevin-fry', v).verdict).toBe('reads')
      expect(row(r, 'libradicl', '0.14.2 and earlier').verdict).toBe('reads')
      expect(row(r, 'salmon', '2.8.0 and later').verdict).toBe('not-applicable')
    })
  }
})

describe('piscem-rs v2 files', () => {
  it('scRNA: alevin-fry before 0.19 stops at the RAD_FILE magic; 0.19 reads it', async () => {
    const r = await reportOf(radBytes(piscemScRnaV2(true)))
    expect(r.producer).toMatchObject({ name: 'piscem-rs', certainty: 'strong' })
    expect(r.producer.evidence.join(' ')).toContain('known_rad_type = "sc_rna_pos"')
    for (const v of AF_OLD) {
      const old = row(r, 'alevin-fry', v)
      expect(old.verdict).toBe('fails')
      expect(old.reasons.join(' ')).toMatch(/RAD v2 prelude \(RAD_FILE magic at byte 0\): not read/)
    }
    expect(row(r, 'alevin-fry', AF_NEW).verdict).toBe('reads')
    expect(row(r, 'libradicl', '0.14.3 – 0.19.x')).toMatchObject({ verdict: 'unknown' })
    expect(row(r, 'libradicl', '0.20.0 and later').verdict).toBe('reads')
  })

  it('multi-barcode (Flex): only alevin-fry 0.19 and later', async () => {
    const r = await reportOf(radBytes(multiBarcodeV2()))
    expect(r.producer.name).toBe('piscem-rs')
    expect(verdicts(r)).toMatchObject({
      'alevin-fry 0.18.x': 'fails',
      'alevin-fry 0.19.0 and later': 'reads',
      'salmon 2.8.0 and later': 'not-applicable',
    })
  })

  it('bulk: not an alevin-fry input; salmon 2.8.0 and later read it', async () => {
    const r = await reportOf(radBytes(bulk(true)))
    expect(r.producer).toMatchObject({ name: 'piscem-rs', certainty: 'strong' })
    const af = row(r, 'alevin-fry', AF_NEW)
    expect(af.verdict).toBe('not-applicable')
    expect(af.reasons).toEqual(['alevin-fry does not process bulk files'])
    expect(row(r, 'salmon', 'before 2.8.0').verdict).toBe('fails')
    expect(row(r, 'salmon', '2.8.0 and later').verdict).toBe('reads')
  })

  it('scATAC: u32 ref_lengths and the tag name `b` stop alevin-fry 0.15; 0.19 is unknown on u32 lengths', async () => {
    const r = await reportOf(radBytes(atacPiscemRs()))
    expect(r.producer).toMatchObject({ name: 'piscem-rs', certainty: 'strong' })
    const old = row(r, 'alevin-fry', '0.15.x and earlier')
    expect(old.verdict).toBe('fails')
    expect(old.reasons).toEqual(
      expect.arrayContaining([
        'file tag "ref_lengths" is array<u32,u32>; these versions require an array of u64',
        'the barcode read tag is named "b"; these versions look for a tag named "barcode"',
      ]),
    )
    const now = row(r, 'alevin-fry', AF_NEW)
    expect(now.verdict).toBe('unknown')
    expect(now.unknowns.join(' ')).toContain('ref_lengths as array<u32,u32>')
  })

  it('a non-empty extension block: no known producer writes one', async () => {
    const r = await reportOf(radBytes({ ...piscemScRnaV2(false), v2: { ext: [1, 2, 3] } }))
    expect(r.producer.name).toBe('unknown')
    expect(r.producer.evidence.join(' ')).toContain('3-byte extension block')
  })
})

describe('legacy piscem files', () => {
  it('bulk: piscem-cpp (or piscem-rs before v2), from known_rad_type', async () => {
    const r = await reportOf(radBytes(bulk(false)))
    expect(r.producer).toMatchObject({ name: 'piscem-cpp', certainty: 'weak' })
    expect(r.producer.alsoPossible).toContain('piscem-rs before RAD v2')
    expect(row(r, 'salmon', 'before 2.8.0').verdict).toBe('unknown')
  })

  it('scATAC with `barcode` and u64 lengths: piscem-cpp', async () => {
    const r = await reportOf(radBytes(atacPiscemCpp('header-inclusive')))
    expect(r.producer).toMatchObject({ name: 'piscem-cpp', certainty: 'strong' })
    expect(row(r, 'alevin-fry', '0.15.x and earlier').reasons).toEqual([])
  })

  it('scATAC with `b` and u32 lengths, no magic: piscem-rs before v2', async () => {
    const spec = {
      ...atacPiscemRs(),
      v2: false,
      fileValues: { cblen: 16, known_rad_type: 'sc_atac', ref_lengths: [1, 2, 3, 4, 5, 6] },
    }
    const r = await reportOf(radBytes(spec))
    expect(r.producer).toMatchObject({ name: 'piscem-rs', certainty: 'weak' })
  })
})

describe('alevin-fry collate marks', () => {
  it('a chunk_codec tag: collated, from a salmon file; lz4 support before 0.19 is unknown', async () => {
    const r = await reportOf(radBytes(withCodec(salmonScRna(), 1)))
    expect(r.producer).toMatchObject({ name: 'alevin-fry collate', certainty: 'strong' })
    expect(r.producer.evidence.join(' ')).toContain('collated from a file written by salmon')
    expect(row(r, 'alevin-fry', '0.18.x').verdict).toBe('unknown')
    expect(row(r, 'alevin-fry', '0.18.x').unknowns.join(' ')).toContain('lz4-compressed chunks')
    expect(row(r, 'alevin-fry', AF_NEW).verdict).toBe('reads')
  })

  it('zstd chunks: unknown everywhere (the zstd feature is optional in libradicl)', async () => {
    const r = await reportOf(radBytes(withCodec(salmonScRna(), 2)))
    expect(row(r, 'alevin-fry', AF_NEW).verdict).toBe('unknown')
    expect(row(r, 'libradicl', '0.20.0 and later').unknowns.join(' ')).toContain('zstd-compressed chunks')
  })

  it('a whole-file Snappy stream: collate --compress; alevin-fry 0.18 reads it', async () => {
    const r = await reportOf(snappyFrame(radBytes(salmonScRna())))
    expect(r.producer.name).toBe('alevin-fry collate')
    expect(r.producer.evidence[0]).toContain('Snappy stream')
    expect(row(r, 'alevin-fry', '0.18.x').verdict).toBe('reads')
    expect(row(r, 'alevin-fry', AF_NEW).verdict).toBe('unknown')
  })
})

describe('types a consumer may not take', () => {
  it('salmon text barcodes (> 32 nt) are refused by alevin-fry before 0.19', async () => {
    const spec = salmonScRna()
    const long = { ...spec, readTags: [tag('b', 'string'), tag('u', 'u32')], chunks: [] }
    const r = await reportOf(radBytes(long))
    expect(r.producer.name).toBe('salmon')
    expect(row(r, 'alevin-fry', '0.18.x').reasons).toEqual([
      'read tag "b" is string; these versions take u8, u16, u32, u64 only',
    ])
  })

  it('long-read files use signed types: unknown for every consumer', async () => {
    const r = await reportOf(radBytes(scLongRead()))
    expect(r.producer.name).toBe('unknown')
    expect(r.producer.evidence.join(' ')).toContain('matches no producer')
    expect(row(r, 'alevin-fry', AF_NEW).unknowns.join(' ')).toContain('"score" (i32)')
  })
})

describe('identifyProducer alone', () => {
  it('keeps the mapper evidence under a collate guess', async () => {
    const { prelude } = await openRad(new BytesSource(radBytes(withCodec(bulk(true), 1)), 'x.rad'))
    const p = identifyProducer(prelude, 'none')
    expect(p.name).toBe('alevin-fry collate')
    expect(p.evidence.join(' ')).toContain('piscem-rs')
  })
})
