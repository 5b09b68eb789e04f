/**
 * `npm run bench` (bench/results.md): generates its inputs, then measures, in one run
 * and side by side, the browser's raw read limit, index throughput and the
 * index/raw ratio, time to first records, decode scaling over 1–3 workers,
 * memory, scrolling frame times and the CLI's validate speed. Writes
 * bench/results.md; the README quotes its table.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { basename, join } from 'node:path'
import type { Page } from '@playwright/test'
import { harness, launch, openInApp, rendererRss, scrollFrames, serve, waitIndexed, withPeakMemory } from './browser'
import { bustoolsBigSection, bustoolsSection } from './bustools'
import { appStatsSection } from './appStats'
import { pageStatsSection } from './pageStats'
import { permitListSection } from './permitList'
import { appCellsSection } from './appCells'
import { rendererOpensSection } from './rendererOpens'
import { DATA, generateInputs } from './generate'

const ROOT = join(import.meta.dirname, '..')
const RUNS = Number(process.env.BENCH_RUNS ?? 3)
/**
 * BENCH_ONLY=index,decode,stats,app,cells,opens,memory,scroll,cli,bustools,permit runs only those parts (the raw
 * read grid runs with `index`) and prints them without touching results.md; BENCH_FILES
 * picks the files of the index part by substring (e.g. `collated-1m`).
 */
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean)
const FILES = process.env.BENCH_FILES?.split(',').filter(Boolean)
const wanted = (part: string): boolean => ONLY === undefined || ONLY.includes(part)
const PORT = 4319
const GB = 1e9

interface Stat {
  min: number
  median: number
  max: number
}

function stat(values: number[]): Stat {
  const s = [...values].sort((a, b) => a - b)
  return { min: s[0] ?? NaN, median: s[Math.floor((s.length - 1) / 2)] ?? NaN, max: s[s.length - 1] ?? NaN }
}

const f1 = (n: number): string => n.toFixed(1)
const f2 = (n: number): string => n.toFixed(2)
const fmt = (s: Stat, f: (n: number) => string = f2): string => `${f(s.median)} (${f(s.min)}–${f(s.max)})`

async function repeat<T>(n: number, work: () => Promise<T>): Promise<T[]> {
  const out: T[] = []
  for (let i = 0; i < n; i++) out.push(await work())
  return out
}

function log(message: string): void {
  console.error(`[bench] ${message}`)
}

/** Raw read GB/s for each block size × reads in flight; returns the best setting. */
async function rawGrid(page: Page, size: number): Promise<{ rows: string[]; best: [number, number] }> {
  const rows: string[] = []
  let best: [number, number] = [16 << 20, 1]
  let bestRate = 0
  for (const block of [4 << 20, 16 << 20, 64 << 20]) {
    for (const depth of [1, 2, 4]) {
      const ms = await page.evaluate(([b, d]) => window.radBench.rawRead(b, d), [block, depth] as const)
      const rate = size / GB / (ms / 1000)
      rows.push(`| ${String(block >> 20)} MiB | ${String(depth)} | ${f2(rate)} |`)
      if (rate > bestRate) {
        bestRate = rate
        best = [block, depth]
      }
    }
  }
  return { rows, best }
}

interface FileResult {
  name: string
  bytes: number
  chunks: number
  raw: Stat
  index: Stat
  ratio: Stat
  firstRows: Stat
  /** Share of the index worker's walk spent computing (not waiting for reads or yielded). */
  computeShare: Stat
  /** Compressed files (ADR 0003): GB/s until every chunk was indexed, and of the records' checks pass after. */
  twoPass: { mapped: Stat; mappedRatio: Stat; checks: Stat } | undefined
}

async function measureFile(base: string, path: string, best: [number, number]): Promise<FileResult> {
  const browser = await launch()
  try {
    const bytes = statSync(path).size
    const page = await harness(browser, base, path)
    const raw: number[] = []
    const index: number[] = []
    const compute: number[] = []
    const mapped: number[] = []
    const checks: number[] = []
    let chunks = 0
    for (let i = 0; i < RUNS; i++) {
      const ms = await page.evaluate(([b, d]) => window.radBench.rawRead(b, d), best)
      raw.push(bytes / GB / (ms / 1000))
      const r = await page.evaluate(() => window.radBench.index())
      index.push(bytes / GB / (r.ms / 1000))
      chunks = r.summary.chunks
      const t = r.summary.timing
      if (t) compute.push((t.walkMs - t.readWaitMs - t.yieldMs) / r.ms)
      const m = r.summary.mappedMs
      if (m !== undefined) {
        mapped.push(bytes / GB / (m / 1000))
        checks.push(bytes / GB / ((r.summary.elapsedMs - m) / 1000))
      }
    }
    const firstRows = await repeat(RUNS, async () => {
      const app = await browser.newPage()
      try {
        await app.goto(`${base}/`)
        return await openInApp(app, path)
      } finally {
        await app.close()
      }
    })
    const ratios = raw.map((r, i) => (index[i] ?? 0) / r)
    return {
      name: basename(path),
      bytes,
      chunks,
      raw: stat(raw),
      index: stat(index),
      ratio: stat(ratios),
      firstRows: stat(firstRows),
      computeShare: stat(compute),
      twoPass:
        mapped.length > 0
          ? { mapped: stat(mapped), mappedRatio: stat(mapped.map((m, i) => m / (raw[i] ?? NaN))), checks: stat(checks) }
          : undefined,
    }
  } finally {
    await browser.close()
  }
}

async function decodeScaling(base: string, path: string): Promise<string[]> {
  const browser = await launch()
  try {
    const page = await harness(browser, base, path)
    await page.evaluate(() => window.radBench.index())
    const rows: string[] = []
    let one = 0
    for (const n of [1, 2, 3]) {
      const runs = await repeat(RUNS, () => page.evaluate((w) => window.radBench.decode(w), n))
      const mbs = stat(runs.map((r) => r.bytes / 1e6 / (r.ms / 1000)))
      const recs = stat(runs.map((r) => r.records / 1e6 / (r.ms / 1000)))
      if (n === 1) one = mbs.median
      rows.push(
        `| ${String(n)} | ${fmt(recs, f1)} | ${fmt(mbs, (x) => x.toFixed(0))} | ${f2(mbs.median / n / 1000)} | ${f2(mbs.median / one)}× |`,
      )
    }
    // Where one worker's time goes: decoding alone vs the whole (the rest is its reads).
    const split = await page.evaluate(() => window.radBench.decode(1, true))
    const decodeShare = split.spent / split.ms
    rows.push('')
    rows.push(
      `One worker, timed apart (same batches, counts returned): decoding in place ${f2(split.bytes / 1e9 / (split.spent / 1000))} GB/s, ` +
        `${(decodeShare * 100).toFixed(0)}% of its time; the rest is its reads ` +
        `(${f2(split.bytes / 1e9 / ((split.ms - split.spent) / 1000))} GB/s), spent on or waiting for them.`,
    )
    return rows
  } finally {
    await browser.close()
  }
}

/** Renderer peak (bytes) while the app indexes the 5 GiB file, and the idle app's. */
async function appMemory(base: string, big: string): Promise<{ idle: number; peak: number }> {
  const browser = await launch()
  try {
    const page = await browser.newPage()
    await page.goto(`${base}/`)
    await page.waitForTimeout(1000)
    const idle = rendererRss()
    const [, peak] = await withPeakMemory(async () => {
      await openInApp(page, big)
      await waitIndexed(page)
    })
    return { idle, peak }
  } finally {
    await browser.close()
  }
}

/** Frame times (p50 as min, p95 as median, max) while scrolling right after opening `path`. */
async function appScroll(base: string, path: string): Promise<Stat[]> {
  const browser = await launch()
  try {
    const frames: Stat[] = []
    for (let i = 0; i < RUNS; i++) {
      const app = await browser.newPage()
      await app.goto(`${base}/`)
      await openInApp(app, path)
      const f = await scrollFrames(app, 3000, 900)
      const s = [...f].sort((a, b) => a - b)
      frames.push({
        min: s[Math.floor(s.length * 0.5)] ?? 0,
        median: s[Math.floor(s.length * 0.95)] ?? 0,
        max: s[s.length - 1] ?? 0,
      })
      await app.close()
    }
    return frames
  } finally {
    await browser.close()
  }
}

/**
 * The statistics pass (docs/stats.md) side by side with the raw read and the
 * bulk decode on the same file and workers, and the index walk with and
 * without its record checks (docs/adr/0004: where the checks run).
 */
async function statsSideBySide(base: string, path: string, best: [number, number]): Promise<string[]> {
  const browser = await launch()
  try {
    const bytes = statSync(path).size
    const page = await harness(browser, base, path)
    const raw = await repeat(RUNS, async () => {
      const ms = await page.evaluate(([b, d]) => window.radBench.rawRead(b, d), best)
      return bytes / GB / (ms / 1000)
    })
    const index = await repeat(RUNS, async () => {
      const r = await page.evaluate(() => window.radBench.index())
      return bytes / GB / (r.ms / 1000)
    })
    const walk = async (check: boolean): Promise<Stat> =>
      stat(
        await repeat(RUNS, async () => {
          const r = await page.evaluate((c) => window.radBench.walk(c), check)
          return bytes / GB / (r.ms / 1000)
        }),
      )
    const walkChecked = await walk(true)
    const walkBare = await walk(false)
    const rows = [
      `raw read ${fmt(stat(raw))} GB/s; app index (walk + checks, messages) ${fmt(stat(index))} GB/s;`,
      `walk alone with checks ${fmt(walkChecked)} GB/s, without ${fmt(walkBare)} GB/s`,
      '',
      '| workers | bulk decode GB/s | stats pass GB/s | stats/decode |',
      '|---:|---:|---:|---:|',
    ]
    for (const n of [1, 2]) {
      const decode = stat(
        await repeat(RUNS, async () => {
          const r = await page.evaluate((w) => window.radBench.decode(w), n)
          return r.bytes / GB / (r.ms / 1000)
        }),
      )
      const pass = stat(
        await repeat(RUNS, async () => {
          const r = await page.evaluate((w) => window.radBench.stats(w), n)
          return r.bytes / GB / (r.ms / 1000)
        }),
      )
      rows.push(`| ${String(n)} | ${fmt(decode)} | ${fmt(pass)} | ${f2(pass.median / decode.median)} |`)
    }
    return rows
  } finally {
    await browser.close()
  }
}

function cliValidate(path: string): Stat {
  const size = statSync(path).size
  spawnSync(process.execPath, [join(ROOT, 'bin', 'rad.mjs'), 'validate', path]) // warm the page cache
  const rates = Array.from({ length: RUNS }, () => {
    const t = performance.now()
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rad.mjs'), 'validate', path])
    if (r.status !== 0) throw new Error(`validate failed: ${r.stderr.toString()}`)
    return size / GB / ((performance.now() - t) / 1000)
  })
  return stat(rates)
}

function machine(chromiumVersion: string): string {
  const cpu = cpus()
  return [
    `- CPU: ${cpu[0]?.model ?? '?'} × ${String(cpu.length)}`,
    `- Memory: ${f1(totalmem() / 2 ** 30)} GiB`,
    `- Node ${process.version}; Chromium ${chromiumVersion} (Debian, headless)`,
    `- Runs per figure: ${String(RUNS)} (median, then min–max); files read from the page cache`,
  ].join('\n')
}

declare global {
  interface Window {
    radBench: {
      rawRead(block: number, depth: number): Promise<number>
      index(): Promise<{
        ms: number
        firstMs: number
        summary: {
          chunks: number
          records: number
          elapsedMs: number
          mappedMs?: number
          timing?: { walkMs: number; readWaitMs: number; yieldMs: number }
        }
      }>
      decode(
        workers: number,
        countOnly?: boolean,
      ): Promise<{ ms: number; records: number; bytes: number; spent: number }>
      walk(check: boolean): Promise<{ ms: number }>
      stats(workers: number): Promise<{ ms: number; records: number; bytes: number; knee: number | null }>
    }
  }
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'ensure-chromium.mjs')], { stdio: 'inherit' })
  log('building the app and the harness…')
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' })
  execFileSync('npx', ['vite', 'build', '--config', 'bench/vite.config.ts'], { cwd: ROOT, stdio: 'inherit' })
  // bin/rad.mjs falls back to tsx (slower start) when its bundle is older than src/.
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-cli.mjs')], { cwd: ROOT, stdio: 'inherit' })
  const inputs = await generateInputs()
  const server = await serve(PORT)
  const base = `http://127.0.0.1:${String(PORT)}`
  try {
    const probe = await launch()
    const version = probe.version()
    const page = await harness(probe, base, inputs.salmon1g)
    log('raw read grid on the 1 GiB file…')
    const grid = wanted('index')
      ? await rawGrid(page, statSync(inputs.salmon1g).size)
      : { rows: [], best: [64 << 20, 4] as [number, number] }
    await probe.close()
    const files: FileResult[] = []
    for (const path of [inputs.salmon1g, inputs.salmon5g, inputs.collated, inputs.collatedZstd]) {
      if (!wanted('index') || (FILES && !FILES.some((f) => basename(path).includes(f)))) continue
      log(`index and first rows: ${basename(path)}…`)
      files.push(await measureFile(base, path, grid.best))
    }
    log('decode scaling…')
    const decode = wanted('decode') ? await decodeScaling(base, inputs.salmon1g) : []
    log('statistics pass…')
    const stats = wanted('stats') ? await statsSideBySide(base, inputs.salmon1g, grid.best) : []
    log('statistics pass on the 1 GiB 10x-shaped file…')
    const tenxStats = wanted('stats') ? await pageStatsSection(inputs.tenx1g.rad, RUNS) : ''
    log('the app from the drop to the statistics done…')
    const appStats = wanted('app') ? await appSections(inputs.tenx1g.rad) : ''
    log('memory while indexing 5 GiB…')
    const memory = wanted('memory') ? await appMemory(base, inputs.salmon5g) : { idle: NaN, peak: NaN }
    log('scrolling…')
    const frames = wanted('scroll') ? await appScroll(base, inputs.salmon1g) : []
    log('CLI validate…')
    const cli = wanted('cli') ? cliValidate(inputs.salmon1g) : stat([])
    log('rad stats beside bustools…')
    const bustools = wanted('bustools') ? bustoolsSection() + bustoolsBigSection() : ''
    log('permit lists at 10x sizes…')
    const permitLists = wanted('permit') ? await permitListSection(RUNS) : ''
    const opens = wanted('opens') ? await rendererOpensSection() : ''
    const appCells = wanted('cells') ? await appCellsSection(inputs.tenx1g.rad, join(DATA, 'tenx.t2g.tsv'), 2) : ''
    const app = { ...memory, frames }
    writeResults({
      version,
      grid,
      files,
      decode,
      stats,
      tenxStats,
      appStats,
      app,
      cli,
      bustools,
      permitLists,
      appCells,
      opens,
      source: inputs.salmonSourceKind,
    })
  } finally {
    server.close()
  }
}

interface Results {
  version: string
  grid: { rows: string[]; best: [number, number] }
  files: FileResult[]
  decode: string[]
  stats: string[]
  app: { idle: number; peak: number; frames: Stat[] }
  cli: Stat
  /** Markdown (bustools.ts), or a note that bustools is missing. */
  bustools: string
  /** Markdown (permitList.ts). */
  permitLists: string
  /** Markdown (appCells.ts): the cells pass in the app beside rad stats --t2g. */
  appCells: string
  /** Markdown (rendererOpens.ts): the renderer's memory over many opened files. */
  opens: string
  tenxStats: string
  /** Markdown (appStats.ts): the app from the drop to the statistics done. */
  appStats: string
  source: string
}

/**
 * The app, drop → done (appStats.ts), on the 1 GiB 10x run, and on the 4 GiB run and the
 * every-barcode-distinct file when bench/data has them (issue 35: `writeTenx(4096)` in tenx.ts,
 * `statsSpeed.ts distinct 1024`; minutes each, so not generated here).
 */
async function appSections(tenx1g: string): Promise<string> {
  const big = ['tenx-4096m.rad', 'stats-distinct-1024m.rad'].map((f) => join(ROOT, 'bench', 'data', f))
  const sections = [await appStatsSection(tenx1g, 2)]
  for (const file of big.filter((f) => existsSync(f))) sections.push(await appStatsSection(file, 1))
  return sections.join('\n')
}

function writeResults(r: Results): void {
  const mb = (n: number): string => (n / 2 ** 20).toFixed(0)
  const p50 = stat(r.app.frames.map((f) => f.min))
  const p95 = stat(r.app.frames.map((f) => f.median))
  const text = `# Benchmark results

Made by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Salmon-like files repeat the chunks of a
${r.source}.

${machine(r.version)}

## Index against the browser's raw read limit

Raw = the same \`File\` read front to back with \`Blob.slice\` in one worker, at the best setting of
the grid below (${String(r.grid.best[0] >> 20)} MiB blocks, ${String(r.grid.best[1])} in flight). Index = the app's index worker
(prelude, first chunks, every chunk walked and every record checked, docs/integrity.md). First rows = from the file input's change
event to the first record row in the DOM, in the app. Computing = the share of the index time the
worker spent walking and checking chunks, not waiting for reads (the rest: reading, start-up, messages).
GB/s are 10^9 bytes per second.

| file | size | chunks | raw GB/s | index GB/s | index/raw | computing | first rows (ms) |
|---|---:|---:|---:|---:|---:|---:|---:|
${r.files.map((f) => `| ${f.name} | ${f2(f.bytes / GB)} GB | ${String(f.chunks)} | ${fmt(f.raw)} | ${fmt(f.index)} | ${fmt(f.ratio)} | ${fmt(f.computeShare, (x) => `${(x * 100).toFixed(0)}%`)} | ${fmt(f.firstRows, (x) => x.toFixed(0))} |`).join('\n')}

## Compressed files: the index, then the records' checks pass (docs/adr/0003)

Chunk headers are never compressed (docs/format.md §6): the index worker indexes every chunk from
its headers alone (mapped), then reads the file again and decompresses and checks every chunk; the
integrity verdict comes when that pass ends. Both in the one index worker; GB/s of the file as stored.

| file | mapped GB/s | mapped/raw | checks pass GB/s (one worker) |
|---|---:|---:|---:|
${r.files.flatMap((f) => (f.twoPass ? [`| ${f.name} | ${fmt(f.twoPass.mapped)} | ${fmt(f.twoPass.mappedRatio)} | ${fmt(f.twoPass.checks, (x) => x.toFixed(3))} |`] : [])).join('\n')}

## Full decode (salmon-1g.rad, the app's decode workers, the one pass runner, bench/page/bulkDecode.ts)

A whole-file pass as the app would make one: ~32 MiB batches, 2 calls in flight per worker, each batch
read into a buffer a consumed batch gave back and decoded in place (the columns are views on it).

| workers | M records/s | MB/s | GB/s per worker | scaling |
|---:|---:|---:|---:|---:|
${r.decode.join('\n')}

## Statistics pass (salmon-1g.rad, docs/stats.md)

The app's statistics pass (src/workers/statsPass.ts: the same batches and calls in flight as the bulk
decode, every chunk added to an accumulator in its worker, partial reports merged every ≥ 0.75 s),
beside the raw read and the bulk decode of the same file with the same workers.

${r.stats.join('\n')}

## Memory and scrolling

- Index: 24 bytes per chunk (Float64 offset, Uint32 nbytes, Uint32 nrec, Float64 first record).
- Renderer peak while the app indexes salmon-5g.rad: ${mb(r.app.peak)} MiB, ${mb(r.app.peak - r.app.idle)} MiB above the idle app (${mb(r.app.idle)} MiB).
- Scrolling the record table 900 px per frame for 3 s right after opening salmon-1g.rad
  (indexing and decoding still streaming): frame time p50 ${fmt(p50, f1)} ms, p95 ${fmt(p95, f1)} ms.

## CLI

\`node bin/rad.mjs validate salmon-1g.rad\` (whole command, Node start-up included; warm page cache):
${fmt(r.cli)} GB/s.

${r.tenxStats}
${r.appStats}
${r.bustools}
${r.permitLists}

${r.appCells}

${r.opens}
## Raw read grid (salmon-1g.rad, one worker)

| block | in flight | GB/s |
|---:|---:|---:|
${r.grid.rows.join('\n')}
`
  if (ONLY === undefined) writeFileSync(join(import.meta.dirname, 'results.md'), text)
  process.stdout.write(text)
}

await main()
