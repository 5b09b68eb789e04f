/**
 * The renderer's memory over many opened files (issue 40, "renderer memory grows with each opened
 * file"): the two salmon fixtures opened in turn 60 times in one page, the statistics done each
 * time, the JS heap after a forced GC and the renderers' RSS every 10 opens. Waits with locators,
 * never element handles: a handle Playwright keeps would hold each closed file's tree itself.
 *
 *   npx tsx bench/rendererOpens.ts            (npm run bench, part `opens`; builds nothing: npm run build first)
 */
import { join } from 'node:path'
import { launch, rendererRss, serve } from './browser'

const PORT = Number(process.env.BENCH_PORT ?? 4333)
const FIXTURES = join(import.meta.dirname, '..', 'test', 'fixtures', 'salmon')
const MiB = 1 << 20

export async function rendererOpensSection(opens = 60): Promise<string> {
  const server = await serve(PORT)
  const browser = await launch()
  const rows: string[] = []
  try {
    const page = await browser.newPage()
    await page.goto(`http://127.0.0.1:${String(PORT)}/`)
    const files = ['rad-chromium-v3-small.rad', 'rad-chromium-v2-small.rad'].map((f) => join(FIXTURES, f))
    const cdp = await page.context().newCDPSession(page)
    for (let i = 0; i < opens; i++) {
      await page.setInputFiles('[data-testid="file-input"]', files[i % 2]!)
      await page.locator('[data-testid="stats-panel"][data-state="done"]').waitFor()
      if (i % 10 !== 0 && i !== opens - 1) continue
      await page.waitForTimeout(500)
      await cdp.send('HeapProfiler.collectGarbage')
      const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }
      rows.push(`| ${String(i + 1)} | ${(heap.usedSize / MiB).toFixed(1)} | ${(rendererRss() / MiB).toFixed(0)} |`)
    }
  } finally {
    await browser.close()
    server.close()
  }
  return [
    `## The renderer over ${String(opens)} opened files (rendererOpens.ts)`,
    '',
    '| files opened | JS heap after GC, MiB | renderers’ RSS, MiB |',
    '|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1]?.endsWith('rendererOpens.ts')) process.stdout.write(await rendererOpensSection())
