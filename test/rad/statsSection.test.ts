/**
 * The statistics section of a `.rdx` sidecar (docs/sidecar.md, "The statistics section";
 * src/rad/stats/section.ts): `rad index`'s statistics round-trip through the format, an older
 * sidecar without them is still read (and has none), and statistics that do not describe the
 * file the chunk table describes are caught.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { scanWithStats } from '../../src/cli/indexCommand'
import { BytesSource } from '../../src/io/byteSource'
import { scanForSidecar } from '../../src/io/sidecarIndex'
import { decodeSidecar, encodeSidecar } from '../../src/rad/sidecar/sidecar'
import { asVerdict } from '../../src/rad/sidecar/sidecarVerdict'
import type { KnownIndex } from '../../src/rad/sidecar/sidecar'
import { createStatsAccumulator } from '../../src/rad/stats'
import { statsClaimProblem, statsFromJson, statsProblem, statsReportOf } from '../../src/rad/stats/section'
import type { IndexFacts, StatsReport } from '../../src/rad/stats/section'
import { openWithKnownIndex } from '../../src/workers/knownIndex'
import { FIXTURES, SALMON_V2, SALMON_V3 } from '../helpers/fixtures'
import { buildRad } from '../helpers/radWriter'
import { salmonScRna } from '../helpers/assays'
import { readRad } from '../helpers/read'

const v3 = new Uint8Array(readFileSync(SALMON_V3))
const OLD_SIDECAR = join(FIXTURES, '..', 'sidecar', 'rad-chromium-v3-small.no-stats.rdx')

function factsOf(known: Pick<KnownIndex, 'records' | 'index' | 'verdict'>): IndexFacts {
  return { records: known.records, chunks: known.index.count, complete: known.verdict.damagedChunks.length === 0 }
}

async function pageReport(bytes: Uint8Array): Promise<StatsReport> {
  const r = await readRad(bytes)
  const acc = createStatsAccumulator(r.prelude, r.sem)
  for (const c of r.chunks) acc.addChunk(c)
  return statsReportOf(acc.exportState(), r.prelude, r.sem)
}

describe('the statistics section', () => {
  it('round-trips rad index’s statistics: the JSON and knee curve the page computes, and the writer', async () => {
    const known = await scanWithStats(new BytesSource(v3, 'map.rad'))
    const back = decodeSidecar(encodeSidecar(known))
    expect(back.dropped).toEqual([])
    expect(statsProblem(back.stats)).toBeUndefined()
    const report = statsFromJson(back.stats)
    expect(report).toEqual({ ...(await pageReport(v3)), writer: 'rad index' })
    expect(report?.json.knee).toBeGreaterThan(0)
    expect(report && statsClaimProblem(report, factsOf(known))).toBeUndefined()
    // The index part is an index-only scan's, key for key.
    expect({ ...back, stats: undefined }).toEqual({ ...(await scanForSidecar(new BytesSource(v3))), dropped: [] })
  })

  it('reads a sidecar written before statistics were stored: same format version, no statistics', async () => {
    const old = new Uint8Array(readFileSync(OLD_SIDECAR))
    const back = decodeSidecar(old)
    expect(back.stats).toBeUndefined()
    expect(statsFromJson(back.stats)).toBeUndefined()
    expect(back).toEqual({ ...(await scanForSidecar(new BytesSource(v3))), dropped: [] })
    // This encoder writes the same bytes when there are no statistics (rad index --no-stats).
    expect(encodeSidecar(await scanForSidecar(new BytesSource(v3)))).toEqual(old)
    // Installed, it stands for a summary without statistics: the page computes (or offers) them.
    const summary = await openWithKnownIndex(new BytesSource(v3, 'map.rad'), back, sinkless())
    expect(summary.stats).toBeUndefined()
    expect(summary.dropped).toBeUndefined()
  })

  it('catches statistics of another file, a curve with more reads than records, or other barcodes', async () => {
    const mine = await scanForSidecar(new BytesSource(v3))
    const other = await pageReport(new Uint8Array(readFileSync(SALMON_V2)))
    expect(statsClaimProblem(other, factsOf(mine))).toBe(
      'they count 18,919 records in 4 chunks, its chunk table 18,949 in 4',
    )
    const real = await pageReport(v3)
    const curve = real.curve!
    expect(statsClaimProblem({ ...real, curve: { ...curve, total: 20_000 } }, factsOf(mine))).toBe(
      'their knee curve counts 20,000 reads, more than their 18,949 records',
    )
    expect(statsClaimProblem({ ...real, curve: { ...curve, barcodes: 7 } }, factsOf(mine))).toMatch(
      /^their knee curve has 7 barcodes, their figures [\d,]+$/,
    )
    // Fewer chunks counted than the table holds: only when the verdict lists damaged chunks.
    const short = { ...mine, records: mine.records + 5 }
    expect(statsClaimProblem(real, factsOf(short))).toMatch(/^they count 18,949 records/)
    expect(statsClaimProblem(real, { ...factsOf(short), complete: false })).toBeUndefined()
  })

  it('a damaged file: rad index counts the intact chunks, and its statistics pass the check', async () => {
    const { bytes } = buildRad({
      ...salmonScRna(),
      chunks: [{ records: [{ read: [1, 2], alns: [[0]] }] }, { records: [{ read: [3, 4], alns: [[99]] }] }],
    })
    const known = await scanWithStats(new BytesSource(bytes, 'damaged.rad'))
    expect(known.verdict.damagedChunks).toEqual([1])
    const report = statsFromJson(decodeSidecar(encodeSidecar(known)).stats)
    expect(report?.json.records).toBeLessThan(known.records)
    expect(report && statsClaimProblem(report, factsOf(known))).toBeUndefined()
  })

  it('installing a sidecar whose statistics disagree drops them, naming why', async () => {
    const known = await scanWithStats(new BytesSource(v3, 'map.rad'))
    const donor = await scanWithStats(new BytesSource(new Uint8Array(readFileSync(SALMON_V2)), 'v2.rad'))
    const forged = decodeSidecar(encodeSidecar({ ...known, stats: donor.stats }))
    const summary = await openWithKnownIndex(new BytesSource(v3, 'map.rad'), forged, sinkless())
    expect(summary.stats).toBeUndefined()
    expect(summary.dropped).toEqual([
      {
        section: 'statistics',
        why: 'they count 18,919 records in 4 chunks, its chunk table 18,949 in 4',
        reason: 'disagrees',
      },
    ])
    const honest = await openWithKnownIndex(
      new BytesSource(v3, 'map.rad'),
      decodeSidecar(encodeSidecar(known)),
      sinkless(),
    )
    expect(statsFromJson(honest.stats)?.writer).toBe('rad index')
  })
})

describe('a section with an extra key nested 200,000 levels deep (issue 40 §7)', () => {
  const deep = (levels: number): unknown => JSON.parse('{"a":'.repeat(levels) + '1' + '}'.repeat(levels))

  it('is dropped with a sentence, and the file opens: nothing overflows the stack copying it on', async () => {
    const known = await scanWithStats(new BytesSource(v3, 'map.rad'))
    const good = known.stats as { json: Record<string, unknown> }
    const umis = good.json.umis as Record<string, unknown>
    const crafted = { ...good, json: { ...good.json, umis: { ...umis, extra: deep(200_000) } } }
    // What went wrong before: the section passed the shape check, and the page's copy of it threw.
    expect(() => structuredClone(crafted)).toThrow(RangeError)
    expect(statsProblem(crafted)).toBe('the section nests deeper than the 8 levels any writer writes')
    const summary = await openWithKnownIndex(
      new BytesSource(v3, 'map.rad'),
      { ...decodeSidecar(encodeSidecar(known)), stats: crafted },
      sinkless(),
    )
    expect(summary.stats).toBeUndefined()
    expect(summary.dropped).toEqual([
      { section: 'statistics', why: 'the section nests deeper than the 8 levels any writer writes' },
    ])
    expect(() => structuredClone(summary)).not.toThrow()
  })

  it('in the verdict, drops the verdict the same way', async () => {
    const known = await scanWithStats(new BytesSource(v3, 'map.rad'))
    const crafted = { ...known.verdict, issues: [{ ...known.verdict.issues[0], extra: deep(200_000) }] }
    expect(asVerdict(crafted, 'clean')).toEqual({
      section: 'verdict',
      why: 'the section nests deeper than the 8 levels any writer writes',
    })
  })
})

/** A sink that hears nothing (the summary is what these tests read). */
function sinkless(): Parameters<typeof openWithKnownIndex>[2] {
  return {
    indexSource: () => undefined,
    opened: () => undefined,
    first: () => undefined,
    index: () => undefined,
    progress: () => undefined,
  }
}

describe('a statistics section longer than any writer writes (made to freeze the page)', () => {
  it('a top list of a million entries is refused at once, naming the list and the limit; so are a long curve, histogram and notes', async () => {
    const known = await scanWithStats(new BytesSource(v3, 'map.rad'))
    const good = known.stats as { json: Record<string, unknown>; curve: Record<string, number[]> }
    const million = Array.from({ length: 1_000_000 }, (_, i) => ['ACGT', i] as [string, number])
    const barcodes = good.json.barcodes as Record<string, unknown>
    const topped = { ...good, json: { ...good.json, barcodes: { ...barcodes, top: million } } }
    expect(statsProblem(topped)).toBe('json.barcodes.top has 1,000,000 entries, more than the 20 a writer writes')
    const long = Array.from({ length: 100_000 }, (_, i) => i + 1)
    const curve = { ...good.curve, rank: long, count: long, cumulative: long }
    expect(statsProblem({ ...good, curve })).toBe(
      'its knee curve is not one thinned for the plot (at most 2004 points)',
    )
    const rows = Array.from({ length: 70_000 }, (_, i) => [i, 1])
    expect(statsProblem({ ...good, json: { ...good.json, alignments_per_record: rows } })).toBe(
      'json.alignments_per_record has 70,000 entries, more than the 65,536 a writer writes',
    )
    const notes = Array.from({ length: 100 }, () => 'x')
    expect(statsProblem({ ...good, json: { ...good.json, notes } })).toMatch(/^json\.notes has 100 entries/)
    // What rad index writes passes.
    expect(statsProblem(good)).toBeUndefined()
  })

  it('installing such a sidecar drops the statistics with the sentence and keeps the index', async () => {
    const known = await scanWithStats(new BytesSource(v3, 'map.rad'))
    const good = known.stats as { json: Record<string, unknown> }
    const barcodes = good.json.barcodes as Record<string, unknown>
    const million = Array.from({ length: 1_000_000 }, (_, i) => ['ACGT', i] as [string, number])
    const stats = { ...good, json: { ...good.json, barcodes: { ...barcodes, top: million } } }
    const crafted = decodeSidecar(encodeSidecar({ ...known, stats }))
    const summary = await openWithKnownIndex(new BytesSource(v3, 'map.rad'), crafted, sinkless())
    expect(summary.stats).toBeUndefined()
    expect(summary.dropped?.[0]?.section).toBe('statistics')
    expect(summary.dropped?.[0]?.why).toBe('json.barcodes.top has 1,000,000 entries, more than the 20 a writer writes')
    expect(summary.chunks).toBe(known.index.count)
  })
})

describe('statistics with figures no pass can give', () => {
  it('are refused with the figure and its bounds', async () => {
    const known = await scanWithStats(new BytesSource(v3, 'map.rad'))
    const good = known.stats as { json: Record<string, unknown> }
    const json = good.json as { records: number; barcodes: Record<string, unknown>; umis: Record<string, unknown> }
    const cases: [Record<string, unknown>, string][] = [
      [{ barcodes: { ...json.barcodes, distinct: -5 } }, 'json.barcodes.distinct is -5, outside 0–18949'],
      [{ umis: { ...json.umis, sequencing_saturation: 7 } }, 'json.umis.sequencing_saturation is 7, outside 0–1'],
      [{ knee: 1e300 }, 'json.knee is 1e+300, outside 0–564'],
      [{ umis: { ...json.umis, distinct_pairs: 10 ** 6 } }, 'json.umis.distinct_pairs is 1000000, outside 0–18949'],
    ]
    for (const [change, why] of cases) expect(statsProblem({ ...good, json: { ...good.json, ...change } })).toBe(why)
    expect(statsProblem({ ...good, json: { ...good.json, knee: Infinity } })).toBe('json.knee is not a finite number')
  })
})
