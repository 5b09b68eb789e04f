/**
 * The page's statistics pass on one file, in Chromium (issue 22 §3, docs/adr/0009): the raw
 * read of the same `File` (16 MiB blocks, 4 in flight), then the app's pass (statsPass.ts on
 * the app's decode workers) with 1 and 2 workers, each with the renderer's peak resident memory
 * above what it held before the pass (the file indexed, the decode workers started: "idle"). The figures are compared with
 * `rad stats --json` on the same file (exact: distinct barcodes, pairs, the knee).
 *
 *   npx tsx bench/pageStats.ts [FILE] [runs]     (default bench/data/tenx-1024m.rad, 3 runs)
 *
 * Builds nothing: run `npx vite build --config bench/vite.config.ts` first.
 */
import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import type { StatsPassFigures } from './page/main'
import { harness, launch, rendererRss, serve, withPeakMemory } from './browser'

const ROOT = join(import.meta.dirname, '..')
const PORT = Number(process.env.BENCH_PORT ?? 4327)
const GB = 1e9
const MiB = 1024 * 1024

type PassFigures = StatsPassFigures

interface WalkFigures {
  ms: number
  lastSliceMs: number
  summary: { stats?: { json?: { knee?: number | null; barcodes?: { distinct?: number } | null } } }
}

interface Bench {
  rawRead(block: number, depth: number): Promise<number>
  index(checkBeside?: boolean, countStats?: boolean): Promise<WalkFigures>
  stats(workers: number): Promise<PassFigures>
  statsWorkers(workers: number): Promise<void>
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1] ?? NaN
const range = (xs: number[], f: (n: number) => string): string =>
  `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`

function cliFigures(FILE: string): { knee: number | null; barcodes: number; pairs: number } {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rad.mjs'), 'stats', FILE, '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
  const json = JSON.parse(r.stdout) as {
    knee: number | null
    barcodes: { distinct: number }
    umis: { distinct_pairs: number }
  }
  return { knee: json.knee, barcodes: json.barcodes.distinct, pairs: json.umis.distinct_pairs }
}

/** The markdown section (bench/results.md) for FILE, RUNS runs of each. */
export async function pageStatsSection(FILE: string, RUNS = 3): Promise<string> {
  const size = statSync(FILE).size
  const server = await serve(PORT)
  const browser = await launch()
  try {
    const page = await harness(browser, `http://127.0.0.1:${String(PORT)}`, FILE)
    // BENCH_BUDGET (bytes of lists) and BENCH_PENDING (keys waiting): the pass's memory plan (statsPass.ts).
    await page.evaluate(
      ([budget, pending]) => {
        if (budget) Object.assign(window, { radStatsBudget: budget })
        if (pending) Object.assign(window, { radStatsPending: pending })
      },
      [Number(process.env.BENCH_BUDGET ?? 0), Number(process.env.BENCH_PENDING ?? 0)] as const,
    )
    const raw: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const ms = await page.evaluate(() => (window as unknown as { radBench: Bench }).radBench.rawRead(16 << 20, 4))
      raw.push(size / GB / (ms / 1000))
    }
    await page.evaluate(() => (window as unknown as { radBench: Bench }).radBench.index())
    const want = cliFigures(FILE)
    const rows: string[] = []
    for (const workers of [1, 2]) {
      const rates: number[] = []
      const above: number[] = []
      let got: PassFigures | undefined
      for (let i = 0; i < RUNS; i++) {
        // The page has its decode workers before the pass (they decode the table): idle includes
        // them. Fresh ones each run: worker 0 keeps a finished pass's totals (for the cut-offs).
        await page.evaluate((w) => (window as unknown as { radBench: Bench }).radBench.statsWorkers(w), workers)
        await new Promise((r) => setTimeout(r, 1500))
        const idle = rendererRss()
        const [r, peak] = await withPeakMemory(() =>
          page.evaluate((w) => (window as unknown as { radBench: Bench }).radBench.stats(w), workers),
        )
        got = r
        rates.push(r.bytes / GB / (r.ms / 1000))
        above.push((peak - idle) / MiB)
      }
      const exact =
        got && got.knee === want.knee && got.barcodes === want.barcodes && got.pairs === want.pairs
          ? 'exact'
          : `DIFFERS ${JSON.stringify(got)}`
      rows.push(
        `| ${String(workers)} | ${range(rates, (n) => n.toFixed(3))} | ${(median(rates) / median(raw)).toFixed(2)} | ${range(above, (n) => n.toFixed(0))} | ${exact} |`,
      )
    }
    rows.push(await walkCountRow(page, size, median(raw), want, RUNS))
    const name = FILE.split('/').pop() ?? FILE
    return [
      `## The page's statistics pass on ${name} (${(size / GB).toFixed(2)} GB; ${String(RUNS)} runs)`,
      '',
      `raw read ${range(raw, (n) => n.toFixed(2))} GB/s; rad stats: ${String(want.barcodes)} barcodes, ${String(want.pairs)} pairs, knee ${String(want.knee)}`,
      '',
      'The last row counts during the index walk, in its checker worker (as for a URL, ADR 0009 sixth',
      'round): one read; its GB/s is the file over the time to the end of the walk (index, checks and',
      'statistics), against the index walk alone then the 2-worker pass, two reads.',
      '',
      '| workers | stats pass GB/s | ÷ raw read | peak MiB above idle | figures |',
      '|---:|---:|---:|---:|---|',
      ...rows,
      '',
    ].join('\n')
  } finally {
    await browser.close()
    server.close()
  }
}

/** The walk counting the statistics (ScanRequest.countStats) on a local `File`, beside the walk alone. */
async function walkCountRow(
  page: Page,
  size: number,
  raw: number,
  want: { knee: number | null; barcodes: number },
  RUNS: number,
): Promise<string> {
  const bench = (checkBeside: boolean, countStats: boolean) =>
    page.evaluate(([c, s]) => (window as unknown as { radBench: Bench }).radBench.index(c, s), [
      checkBeside,
      countStats,
    ] as const)
  const counted: number[] = []
  const indexed: string[] = []
  let got: WalkFigures | undefined
  for (let i = 0; i < RUNS; i++) {
    const alone = await bench(true, false)
    got = await bench(true, true)
    counted.push(size / GB / (got.ms / 1000))
    indexed.push(`${(alone.lastSliceMs / 1000).toFixed(1)} → ${(got.lastSliceMs / 1000).toFixed(1)} s`)
  }
  const json = got?.summary.stats?.json
  const exact = json?.knee === want.knee && json?.barcodes?.distinct === want.barcodes ? 'exact' : 'DIFFERS'
  return `| walk (1 checker; index done ${indexed.join(', ')}) | ${range(counted, (n) => n.toFixed(3))} | ${(median(counted) / raw).toFixed(2)} | — | ${exact} |`
}

if (process.argv[1]?.endsWith('pageStats.ts')) {
  const file = process.argv[2] ?? join(ROOT, 'bench', 'data', 'tenx-1024m.rad')
  process.stdout.write(await pageStatsSection(file, Number(process.argv[3] ?? 3)))
}
