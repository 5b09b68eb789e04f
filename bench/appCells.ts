/**
 * The cells pass as a user meets it (issue 38 §5): the statistics done, a t2g given to the
 * annotations control, until the cells panel shows; beside `rad stats FILE --t2g T` (the CLI's
 * statistics and cells) and `rad stats FILE` (its statistics alone) on the same file, in one run.
 *
 *   npx tsx bench/appCells.ts FILE T2G [runs]   (default bench/data/tenx-1024m.rad, bench/data/tenx.t2g.tsv)
 *
 * Builds nothing: run `npm run build` first. The t2g for the generated 10x file: T000000… → G00000…,
 * two transcripts a gene (made by the bench when missing).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { launchProfile, serve } from './browser'

const ROOT = join(import.meta.dirname, '..')
const PORT = Number(process.env.BENCH_PORT ?? 4331)
const BASE = `http://127.0.0.1:${String(PORT)}`

function tenxT2g(path: string): void {
  if (existsSync(path)) return
  const lines: string[] = []
  for (let i = 0; i < 20_000; i++) lines.push(`T${String(i).padStart(6, '0')}\tG${String(i >> 1).padStart(5, '0')}`)
  writeFileSync(path, `${lines.join('\n')}\n`)
}

function cli(args: string[]): { ms: number; json: { cells?: { count: number; umis: { median: number } } } } {
  const t = performance.now()
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'rad.mjs'), 'stats', ...args, '--json'], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  })
  return {
    ms: performance.now() - t,
    json: JSON.parse(r.stdout) as { cells?: { count: number; umis: { median: number } } },
  }
}

/** One drop and t2g in a fresh browser with a profile of its own (a user's window: browser.ts, launchProfile). */
async function pageCells(
  file: string,
  t2g: string,
): Promise<{ statsMs: number; cellsMs: number; count: string; median: string }> {
  const context = await launchProfile()
  try {
    const page = await context.newPage()
    await page.goto(`${BASE}/`)
    const t0 = Date.now()
    await page.setInputFiles('[data-testid="file-input"]', file)
    await page.waitForSelector('[data-testid="stats-panel"][data-state="done"]', { timeout: 1_800_000 })
    const statsMs = Date.now() - t0
    const t1 = Date.now()
    await page.setInputFiles('[data-testid="annotations-input"]', t2g)
    await page.waitForSelector('[data-testid="cells-panel"]', { timeout: 1_800_000 })
    const cellsMs = Date.now() - t1
    const count = (await page.getByTestId('stat-cells').getAttribute('data-value')) ?? ''
    const median = (await page.getByTestId('stat-median-umis').getAttribute('data-value')) ?? ''
    return { statsMs, cellsMs, count, median }
  } finally {
    await context.close()
  }
}

export async function appCellsSection(file: string, t2g: string, runs = 1): Promise<string> {
  tenxT2g(t2g)
  const both = cli([file, '--t2g', t2g])
  const stats = cli([file])
  const server = await serve(PORT)
  const rows: string[] = []
  try {
    for (let i = 0; i < runs; i++) {
      const p = await pageCells(file, t2g)
      const same = p.count === String(both.json.cells?.count) && p.median === String(both.json.cells?.umis.median)
      rows.push(
        `| ${(p.statsMs / 1000).toFixed(1)} s | ${(p.cellsMs / 1000).toFixed(1)} s | ${((p.statsMs + p.cellsMs) / both.ms).toFixed(2)}× | ${same ? 'equal' : `DIFFERS ${p.count}/${p.median}`} |`,
      )
    }
  } finally {
    server.close()
  }
  const name = file.split('/').pop() ?? file
  return [
    `## The cells pass in the app on ${name}`,
    '',
    `rad stats --t2g ${(both.ms / 1000).toFixed(1)} s (statistics alone ${(stats.ms / 1000).toFixed(1)} s: the cells pass ≈ ${((both.ms - stats.ms) / 1000).toFixed(1)} s)`,
    '',
    '| page: drop → statistics done | t2g given → cells shown | page total ÷ rad stats --t2g | cells, median UMIs vs CLI |',
    '|---:|---:|---:|---|',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1]?.endsWith('appCells.ts')) {
  const file = process.argv[2] ?? join(ROOT, 'bench', 'data', 'tenx-1024m.rad')
  const t2g = process.argv[3] ?? join(ROOT, 'bench', 'data', 'tenx.t2g.tsv')
  process.stdout.write(await appCellsSection(file, t2g, Number(process.argv[4] ?? 1)))
}
