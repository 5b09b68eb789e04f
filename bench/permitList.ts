/**
 * Permit lists at the size 10x ships them (issue 40 §2): 737,280 barcodes (v2) and 3.7M (v3), one
 * barcode a line and no second column, in the CLI (`rad stats --t2g … --permit-list …`, whole
 * command) and in the page (the annotations control of the app, from setting the files to the
 * cells panel shown). The small salmon fixture is the RAD file: what is timed is the list.
 *
 *   npx tsx bench/permitList.ts [runs]     (builds nothing: run `npx vite build` first)
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { launch, serve } from './browser'

const ROOT = join(import.meta.dirname, '..')
const DATA = join(ROOT, 'bench', 'data')
const RAD = join(ROOT, 'test', 'fixtures', 'salmon', 'rad-chromium-v3-small.rad')
const T2G = join(ROOT, 'test', 'fixtures', 'salmon', 'transcripts-small.t2g.tsv')
const PORT = Number(process.env.BENCH_PORT ?? 4329)
const SIZES = [737_280, 3_700_000]

/** A list of `n` random 16-base barcodes (xorshift, fixed seed), one a line; made once. */
function permitListOf(n: number): string {
  const path = join(DATA, `permit-${String(n)}.txt`)
  if (existsSync(path)) return path
  mkdirSync(DATA, { recursive: true })
  const out = Buffer.alloc(n * 17)
  let x = 0x9e3779b9
  for (let line = 0; line < n; line++) {
    for (let k = 0; k < 16; k++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      out[line * 17 + k] = 'ACGT'.charCodeAt((x >>> 7) & 3)
    }
    out[line * 17 + 16] = 10
  }
  writeFileSync(path, out)
  return path
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1] ?? NaN
const seconds = (xs: number[]): string =>
  `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`

function cliSeconds(list: string | undefined): number {
  const args = [join(ROOT, 'bin', 'rad.mjs'), 'stats', RAD, '--t2g', T2G, '--json']
  if (list !== undefined) args.push('--permit-list', list)
  const started = performance.now()
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20 })
  if (r.status !== 0) throw new Error(`rad stats failed: ${r.stderr}`)
  return (performance.now() - started) / 1000
}

/** Seconds from giving the app the t2g and the list to its cells panel, the RAD file open and counted. */
async function pageSeconds(list: string, runs: number): Promise<number[]> {
  const server = await serve(PORT)
  const browser = await launch()
  try {
    const out: number[] = []
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage()
      await page.goto(`http://127.0.0.1:${String(PORT)}/`)
      await page.getByTestId('file-input').setInputFiles(RAD)
      await page.waitForSelector('[data-testid="stats-panel"][data-state="done"]', { timeout: 120_000 })
      const started = performance.now()
      await page.getByTestId('annotations-input').setInputFiles([T2G, list])
      await page.waitForSelector('[data-testid="stat-valid-barcodes"]', { timeout: 600_000 })
      out.push((performance.now() - started) / 1000)
      await page.close()
    }
    return out
  } finally {
    await browser.close()
    server.close()
  }
}

/** The markdown section (bench/results.md). */
export async function permitListSection(runs = 3): Promise<string> {
  const base = Array.from({ length: runs }, () => cliSeconds(undefined))
  const rows: string[] = []
  for (const n of SIZES) {
    const list = permitListOf(n)
    const cli = Array.from({ length: runs }, () => cliSeconds(list))
    const page = await pageSeconds(list, runs)
    rows.push(`| ${n.toLocaleString('en-US')} | ${seconds(cli)} | ${seconds(page)} |`)
  }
  return [
    `## Permit lists at 10x's sizes (${String(runs)} runs)`,
    '',
    'One 16-base barcode a line, no second column (as 10x ships them). CLI: `rad stats` on the small',
    `salmon fixture with its t2g and the list, whole command (${seconds(base)} s without the list). Page:`,
    'from giving the annotations control the t2g and the list to the cells panel, the file open.',
    '',
    '| barcodes | CLI s | page s |',
    '|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1]?.endsWith('permitList.ts')) {
  process.stdout.write(await permitListSection(Number(process.argv[2] ?? 3)))
}
