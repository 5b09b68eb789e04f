/**
 * The browser half of the benchmark: a static server for the app (dist/) and
 * the harness page (bench/dist/), Debian's Chromium driven by Playwright, and
 * the renderer's memory read from /proc while a file is indexed.
 */
import { createReadStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import { extname, join, normalize } from 'node:path'
import { chromium } from '@playwright/test'
import type { Browser, BrowserContext, CDPSession, Page } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium'

const ROOT = join(import.meta.dirname, '..')
const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.map': 'application/json',
  '.rad': 'application/octet-stream',
  '.svg': 'image/svg+xml',
}

/** Serves dist/ (or BENCH_DIST: a build to compare) at / and bench/dist/ (or `benchDir`) at /bench/. */
export function serve(port: number, benchDir = 'bench/dist'): Promise<Server> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const [base, rel] = url.pathname.startsWith('/bench/')
      ? [benchDir, url.pathname.slice(7)]
      : [process.env.BENCH_DIST ?? 'dist', url.pathname.slice(1)]
    let path = normalize(join(ROOT, base, rel || 'index.html'))
    if (existsSync(path) && statSync(path).isDirectory()) path = join(path, 'index.html')
    if (!path.startsWith(join(ROOT, base)) || !existsSync(path)) {
      res.writeHead(404).end()
      return
    }
    res.writeHead(200, { 'content-type': MIME[extname(path)] ?? 'application/octet-stream' })
    createReadStream(path).pipe(res)
  })
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => {
      resolve(server)
    }),
  )
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: process.env.BENCH_JS_FLAGS ? [...CHROMIUM_ARGS, `--js-flags=${process.env.BENCH_JS_FLAGS}`] : CHROMIUM_ARGS,
  })
}

/**
 * A browser with a profile of its own, in a fresh temporary folder, as a user's window is (not an
 * incognito context: there the origin's private file system is held in memory, and the statistics
 * pass spills to it through the browser process; bench/results.md, issue 35), removed at exit.
 */
export async function launchProfile(): Promise<BrowserContext> {
  const dir = mkdtempSync(join(tmpdir(), 'rad-bench-profile-'))
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
  })
  // The browser may still write its profile as it ends: the folder goes when the bench exits.
  process.on('exit', () => {
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 })
  })
  return context
}

/**
 * The Chromium processes this bench started: the descendants of this Node process (Playwright
 * spawns the browser, which forks its zygotes, renderers and utilities), not another program's
 * browsers (browser tests running beside a bench took its figures for its own).
 */
export function ownChromium(): { pid: string; cmd: string }[] {
  const children = new Map<string, string[]>()
  const pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d))
  for (const pid of pids) {
    try {
      const ppid = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] ?? ''
      children.set(ppid, [...(children.get(ppid) ?? []), pid])
    } catch {
      // the process ended while we looked
    }
  }
  const own: { pid: string; cmd: string }[] = []
  const queue = [...(children.get(String(process.pid)) ?? [])]
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    queue.push(...(children.get(pid) ?? []))
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      if (cmd.includes('chromium')) own.push({ pid, cmd })
    } catch {
      // the process ended while we looked
    }
  }
  return own
}

/** Resident memory (bytes) of this bench's Chromium renderer processes (pages and their workers live there). */
export function rendererRss(): number {
  let total = 0
  for (const { pid, cmd } of ownChromium()) {
    if (!cmd.includes('--type=renderer')) continue
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
      total += Number(kb ?? 0) * 1024
    } catch {
      // the process ended while we looked
    }
  }
  return total
}

/** CPU ticks (user and system, 1/100 s) each of this bench's Chromium processes has used so far, by pid, with its kind. */
export function chromiumTicks(): Map<string, { ticks: number; kind: string }> {
  const ticks = new Map<string, { ticks: number; kind: string }>()
  for (const { pid, cmd } of ownChromium()) {
    try {
      // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
      const kind = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser'
      ticks.set(pid, { ticks: Number(fields[11] ?? 0) + Number(fields[12] ?? 0), kind })
    } catch {
      // the process ended while we looked
    }
  }
  return ticks
}

/**
 * CPU seconds this bench's Chromium processes used since `before` (chromiumTicks), those started
 * since included: in all, and by kind of process (the renderer, the browser, the GPU, utilities).
 */
export function chromiumCpuSince(before: Map<string, { ticks: number }>): {
  total: number
  byKind: Map<string, number>
} {
  const byKind = new Map<string, number>()
  let total = 0
  for (const [pid, now] of chromiumTicks()) {
    const used = (now.ticks - (before.get(pid)?.ticks ?? 0)) / 100
    total += used
    byKind.set(now.kind, (byKind.get(now.kind) ?? 0) + used)
  }
  return { total, byKind }
}

/** Loads the app at `base` and waits until it takes a file. */
export async function appReady(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/`)
  await page.waitForSelector('[data-testid="file-input"]', { state: 'attached' })
}

/** Gives the app `file` (as a drop does) and waits for the statistics panel to be done. */
export async function dropAndCount(page: Page, file: string): Promise<void> {
  await page.setInputFiles('[data-testid="file-input"]', file)
  await page.locator('[data-testid="stats-panel"][data-state="done"]').waitFor({ timeout: 1_800_000 })
}

/** Samples rendererRss every 50 ms while `work` runs; returns [result, peak bytes]. */
export async function withPeakMemory<T>(work: () => Promise<T>): Promise<[T, number]> {
  let peak = rendererRss()
  const timer = setInterval(() => {
    peak = Math.max(peak, rendererRss())
  }, 50)
  try {
    const result = await work()
    return [result, Math.max(peak, rendererRss())]
  } finally {
    clearInterval(timer)
  }
}

export async function harness(browser: Browser, base: string, file: string): Promise<Page> {
  const page = await browser.newPage()
  await page.goto(`${base}/bench/`)
  await page.waitForFunction(() => (window as unknown as { radBench?: { ready: boolean } }).radBench?.ready === true)
  await page.setInputFiles('#file', file)
  return page
}

// Code run in the page is passed as text: tsx compiles this file with esbuild's
// keepNames, whose `__name` helper does not exist in the page.
const WATCH_FIRST_ROW = `(() => {
  const t = (window.__bench = {})
  document.querySelector('[data-testid="file-input"]')?.addEventListener('change', () => { t.change = performance.now() }, { capture: true })
  new MutationObserver(() => {
    if (t.row === undefined && document.querySelector('[data-testid="record-row"]') !== null) t.row = performance.now()
  }).observe(document.body, { subtree: true, childList: true })
})()`

/** Opens `file` in the app; ms from the input's change event to the first record row. */
export async function openInApp(page: Page, file: string): Promise<number> {
  await page.evaluate(WATCH_FIRST_ROW)
  await page.setInputFiles('[data-testid="file-input"]', file)
  // A function, not text: the app's CSP forbids the eval a text predicate needs.
  await page.waitForFunction(
    () => (window as unknown as { __bench: { row?: number } }).__bench.row !== undefined,
    undefined,
    {
      timeout: 60_000,
    },
  )
  return page.evaluate<number>('window.__bench.row - window.__bench.change')
}

export async function waitIndexed(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="index-status"][data-state="done"]', { timeout: 600_000 })
}

/** Scrolls the record table for `ms`, one step per frame; returns every frame interval. */
export function scrollFrames(page: Page, ms: number, step: number): Promise<number[]> {
  return page.evaluate<number[]>(`new Promise((resolve) => {
    const el = document.querySelector('[data-testid="record-table"]')
    const frames = []
    let last = performance.now()
    const end = last + ${String(ms)}
    const tick = (now) => {
      frames.push(now - last)
      last = now
      if (el) el.scrollTop += ${String(step)}
      if (now < end) requestAnimationFrame(tick)
      else resolve(frames.slice(1))
    }
    requestAnimationFrame(tick)
  })`)
}

/**
 * A trace of the whole browser (every process) through a CDP session's Tracing domain, while
 * `run` runs: `start` is Tracing.start's parameters less the transfer mode (a stream, read here).
 */
export async function traced<E>(
  cdp: CDPSession,
  start: object,
  run: () => Promise<void>,
  keep?: (line: string) => boolean,
): Promise<E[]> {
  await cdp.send('Tracing.start', { ...start, transferMode: 'ReturnAsStream' })
  await run()
  const complete = new Promise<string>((resolve) => {
    cdp.on('Tracing.tracingComplete', (e: { stream?: string }) => {
      resolve(e.stream ?? '')
    })
  })
  await cdp.send('Tracing.end')
  const handle = await complete
  // Chromium writes one event a line: with `keep`, only the lines kept are parsed (a long trace
  // is more than one string can hold), else the whole text.
  const kept: E[] = []
  let text = ''
  for (;;) {
    const piece = await cdp.send('IO.read', { handle, size: 1 << 24 })
    text += piece.base64Encoded ? Buffer.from(piece.data, 'base64').toString('utf8') : piece.data
    if (keep) {
      const lines = text.split('\n')
      text = piece.eof ? '' : (lines.pop() ?? '')
      for (const line of lines.filter(keep)) {
        try {
          kept.push(JSON.parse(line.replace(/,\s*$/, '')) as E)
        } catch {
          // the array's first or last line, not an event
        }
      }
    }
    if (piece.eof) break
  }
  await cdp.send('IO.close', { handle })
  if (keep) return kept
  const parsed = JSON.parse(text) as E[] | { traceEvents: E[] }
  return Array.isArray(parsed) ? parsed : parsed.traceEvents
}
