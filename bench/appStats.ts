/**
 * The app as a user meets it (issue 35 §4): a file given to the page's file input (the change
 * event a drop gives too) until the statistics panel is done — the index and the pass, what the
 * user waits for — with the renderer's peak resident memory above what the page held before the
 * drop; beside the raw read of the same `File` in the harness page (16 MiB blocks, 4 in flight).
 * Each run is a fresh browser with a profile of its own in a new folder (launchProfile: a user's
 * window, not an incognito context): the page's cache would otherwise restore the report. The
 * figures the page saves (Save JSON) are compared with `rad stats --json` on the same file.
 *
 *   npx tsx bench/appStats.ts FILE [runs]       (default bench/data/tenx-1024m.rad, 2 runs)
 *
 * Builds nothing: run `npm run build` and `npx vite build --config bench/vite.config.ts` first.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import {
  appReady,
  chromiumCpuSince,
  chromiumTicks,
  harness,
  launch,
  launchProfile,
  ownChromium,
  rendererRss,
  serve,
  withPeakMemory,
} from './browser'

const ROOT = join(import.meta.dirname, '..')
const PORT = Number(process.env.BENCH_PORT ?? 4329)
const BASE = `http://127.0.0.1:${String(PORT)}`
const GB = 1e9
const MiB = 1024 * 1024

interface Figures {
  knee: number | null
  barcodes: number | undefined
  pairs: number | undefined
  exact: boolean
}

interface StatsJsonLike {
  knee: number | null
  exact: boolean
  barcodes: { distinct: number } | null
  umis: { distinct_pairs: number } | null
}

const figuresOf = (j: StatsJsonLike): Figures => ({
  knee: j.knee,
  barcodes: j.barcodes?.distinct,
  pairs: j.umis?.distinct_pairs,
  exact: j.exact,
})

function cliFigures(file: string): Figures {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rad.mjs'), 'stats', file, '--json'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  })
  return figuresOf(JSON.parse(r.stdout) as StatsJsonLike)
}

function env(name: string): number | undefined {
  const n = Number(process.env[name])
  return Number.isFinite(n) && n > 0 ? n : undefined
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1] ?? NaN
const range = (xs: number[], f: (n: number) => string): string =>
  `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`

/** The best raw read of the file (GB/s) in the harness page. */
async function rawRead(browser: Browser, file: string, runs: number): Promise<number[]> {
  const size = statSync(file).size
  const page = await harness(browser, BASE, file)
  const rates: number[] = []
  for (let i = 0; i < runs; i++) {
    const ms = await page.evaluate(() =>
      (window as unknown as { radBench: { rawRead(b: number, d: number): Promise<number> } }).radBench.rawRead(
        16 << 20,
        4,
      ),
    )
    rates.push(size / GB / (ms / 1000))
  }
  await page.close()
  return rates
}

// Text, not a function: tsx's keepNames helper does not exist in the page.
const WATCH_DONE = `(() => {
  const t = (window.__bench = {})
  document.querySelector('[data-testid="file-input"]')?.addEventListener('change', () => { t.change = performance.now() }, { capture: true })
  new MutationObserver(() => {
    if (t.indexed === undefined && document.querySelector('[data-testid="index-status"][data-state="done"]') !== null) t.indexed = performance.now()
    if (t.done === undefined && document.querySelector('[data-testid="stats-panel"][data-state="done"]') !== null) t.done = performance.now()
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] })
})()`

/** The renderers' memory by kind (kB of /proc status), summed. */
function rendererMemoryKinds(): Record<string, number> {
  const sums: Record<string, number> = {}
  for (const { pid, cmd } of ownChromium()) {
    if (!cmd.includes('--type=renderer')) continue
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8')
      for (const m of status.matchAll(/^(VmRSS|RssAnon|RssFile|RssShmem):\s+(\d+)/gm)) {
        sums[m[1] ?? ''] = (sums[m[1] ?? ''] ?? 0) + Number(m[2])
      }
    } catch {
      // the process ended while we looked
    }
  }
  return sums
}

/** BENCH_TRACE: the renderers' largest memory of each 500 ms (sampled every 50) on stderr, with the page's states. */
function traceMemory(page: Page, idle: number): { stop(): void } {
  const start = Date.now()
  let top: Record<string, number> = {}
  let ticks = 0
  const timer = setInterval(() => {
    const kinds = rendererMemoryKinds()
    if ((kinds.VmRSS ?? 0) > (top.VmRSS ?? 0)) top = kinds
    if (++ticks % 10 !== 0) return
    const shown = top
    top = {}
    const mib = (kb: number | undefined): string => ((kb ?? 0) / 1024).toFixed(0)
    void page
      .evaluate(
        `[document.querySelector('[data-testid="index-status"]')?.getAttribute('data-state'), document.querySelector('[data-testid="stats-panel"]')?.getAttribute('data-state')].join('/')`,
      )
      .catch(() => '?')
      .then((states) => {
        process.stderr.write(
          `${((Date.now() - start) / 1000).toFixed(1)} s ${String(states)} above ${(((shown.VmRSS ?? 0) * 1024 - idle) / MiB).toFixed(0)} anon ${mib(shown.RssAnon)} file ${mib(shown.RssFile)}\n`,
        )
      })
  }, 50)
  return {
    stop: () => {
      clearInterval(timer)
    },
  }
}

/** One drop → done in a fresh context: ms, peak MiB above the page before the drop, the saved figures. */
async function dropToDone(file: string): Promise<{ ms: number; above: number; cpu: number; got: Figures }> {
  const context = await launchProfile()
  try {
    const page = await context.newPage()
    // BENCH_BUDGET (bytes of lists), BENCH_PENDING (keys waiting), BENCH_ROWS (barcodes kept a row):
    // the pass's memory plan (statsPass.ts), set before the page loads as the browser tests do.
    const knobs = {
      radStatsBudget: env('BENCH_BUDGET'),
      radStatsPending: env('BENCH_PENDING'),
      radStatsRows: env('BENCH_ROWS'),
    }
    await page.addInitScript((k) => {
      for (const [name, value] of Object.entries(k)) if (value !== undefined) Object.assign(window, { [name]: value })
    }, knobs)
    await appReady(page, BASE)
    await new Promise((r) => setTimeout(r, 1500))
    const idle = rendererRss()
    await page.evaluate(WATCH_DONE)
    const trace = process.env.BENCH_TRACE ? traceMemory(page, idle) : undefined
    const cpu0 = chromiumTicks()
    const [, peak] = await withPeakMemory(async () => {
      await page.setInputFiles('[data-testid="file-input"]', file)
      await page.waitForFunction(
        () => (window as unknown as { __bench: { done?: number } }).__bench.done !== undefined,
        undefined,
        {
          timeout: 1_800_000,
          polling: 100,
        },
      )
    })
    const used = chromiumCpuSince(cpu0)
    const cpu = used.total
    trace?.stop()
    const ms = await page.evaluate<number>('window.__bench.done - window.__bench.change')
    const indexedMs = await page.evaluate<number>('window.__bench.indexed - window.__bench.change')
    if (process.env.BENCH_VERBOSE) {
      process.stderr.write(
        `index done ${indexedMs.toFixed(0)} ms, stats done ${ms.toFixed(0)} ms, CPU ${cpu.toFixed(1)} s (${[...used.byKind].map(([k, s]) => `${k} ${s.toFixed(1)}`).join(', ')})\n`,
      )
    }
    const download = page.waitForEvent('download')
    await page.getByTestId('stats-save-json').click()
    const path = await (await download).path()
    const got = figuresOf(JSON.parse(readFileSync(path, 'utf8')) as StatsJsonLike)
    return { ms, above: (peak - idle) / MiB, cpu, got }
  } finally {
    await context.close()
  }
}

/** The markdown section (bench/results.md) for FILE. */
export async function appStatsSection(file: string, runs = 2): Promise<string> {
  const size = statSync(file).size
  const server = await serve(PORT)
  const browser = await launch()
  try {
    const raw = await rawRead(browser, file, 3)
    const want = cliFigures(file)
    const rates: number[] = []
    const above: number[] = []
    const cpu: number[] = []
    let got: Figures | undefined
    for (let i = 0; i < runs; i++) {
      const r = await dropToDone(file)
      rates.push(size / GB / (r.ms / 1000))
      above.push(r.above)
      cpu.push(r.cpu)
      got = r.got
    }
    const same = JSON.stringify(got) === JSON.stringify(want) ? 'equal to rad stats' : `DIFFERS ${JSON.stringify(got)}`
    const name = file.split('/').pop() ?? file
    return [
      `## The app, drop → statistics done, on ${name} (${(size / GB).toFixed(2)} GB; ${String(runs)} runs)`,
      '',
      `raw read of the same File ${range(raw, (n) => n.toFixed(2))} GB/s; rad stats: ${JSON.stringify(want)}`,
      '',
      '| drop → done GB/s | ÷ best raw read | Chromium CPU s | peak MiB above the page before the drop | figures |',
      '|---:|---:|---:|---:|---|',
      `| ${range(rates, (n) => n.toFixed(3))} | ${(median(rates) / Math.max(...raw)).toFixed(2)} | ${range(cpu, (n) => n.toFixed(1))} | ${range(above, (n) => n.toFixed(0))} | ${same} |`,
      '',
    ].join('\n')
  } finally {
    await browser.close()
    server.close()
  }
}

if (process.argv[1]?.endsWith('appStats.ts')) {
  const file = process.argv[2] ?? join(ROOT, 'bench', 'data', 'tenx-1024m.rad')
  process.stdout.write(await appStatsSection(file, Number(process.argv[3] ?? 2)))
}
