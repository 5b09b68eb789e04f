/**
 * Two builds of the page's whole-file passes side by side, in one run (bench/results.md,
 * "Before and after"): the harness of an earlier commit (its bench/dist copied to BEFORE_DIR,
 * under this repository) and this tree's, each timing the index, the bulk decode and the
 * statistics pass on the same File, turn about, so the load of a shared machine falls on both.
 *
 *   npx vite build --config bench/vite.config.ts            # this tree's harness, bench/dist
 *   npx tsx bench/beforeAfter.ts FILE [RUNS] [BEFORE_DIR]    # BEFORE_DIR default bench/dist-before
 */
import { statSync } from 'node:fs'
import type { Browser, Page } from '@playwright/test'
import { harness, launch, serve } from './browser'

interface RadBench {
  index(): Promise<{ ms: number }>
  decode(workers: number): Promise<{ ms: number; bytes: number; records: number }>
  stats(workers: number): Promise<{ ms: number; bytes: number; records: number; knee: number | null }>
}

type Part = 'index' | 'decode 1' | 'decode 2' | 'stats 1' | 'stats 2'
const PARTS: Part[] = ['index', 'decode 1', 'decode 2', 'stats 1', 'stats 2']
const GB = 1e9

async function measure(page: Page, part: Part, size: number): Promise<{ rate: number; check: string }> {
  const [what, n] = part.split(' ') as ['index' | 'decode' | 'stats', string | undefined]
  const workers = Number(n ?? 1)
  const r = await page.evaluate(
    ([w, k]): Promise<{ ms: number; records: number; knee: number | null }> => {
      const bench = (window as unknown as { radBench: RadBench }).radBench
      if (w === 'index') return bench.index().then((x) => ({ ms: x.ms, records: 0, knee: null }))
      if (w === 'decode') return bench.decode(k).then((x) => ({ ms: x.ms, records: x.records, knee: null }))
      return bench.stats(k)
    },
    [what, workers] as const,
  )
  return { rate: size / GB / (r.ms / 1000), check: `${String(r.records)} records, knee ${String(r.knee)}` }
}

const out = (line: string): void => {
  process.stdout.write(`${line}\n`)
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN
const f2 = (x: number): string => x.toFixed(3)

async function main(): Promise<void> {
  const [file, runsArg, beforeDir = 'bench/dist-before'] = process.argv.slice(2)
  if (!file) throw new Error('usage: tsx bench/beforeAfter.ts FILE [RUNS] [BEFORE_DIR]')
  const runs = Number(runsArg ?? 3)
  const size = statSync(file).size
  const servers = [await serve(4351, beforeDir), await serve(4352)]
  const rates: Record<Part, number[][]> = Object.fromEntries(PARTS.map((p) => [p, [[], []]])) as never
  try {
    for (let run = 0; run < runs; run++) {
      // A browser of its own for each side and run: one renderer's memory never holds the other's.
      for (const side of run % 2 === 0 ? [0, 1] : [1, 0]) {
        const browser: Browser = await launch()
        try {
          const page = await harness(browser, `http://127.0.0.1:${String(4351 + side)}`, file)
          for (const part of PARTS) {
            const { rate, check } = await measure(page, part, size)
            rates[part][side]?.push(rate)
            const name = side ? 'after' : 'before'
            console.error(`[before/after] run ${String(run + 1)} ${name} ${part}: ${f2(rate)} GB/s (${check})`)
          }
        } finally {
          await browser.close()
        }
      }
    }
    out('| pass | before GB/s | after GB/s | after/before |')
    out('| --- | ---: | ---: | ---: |')
    for (const part of PARTS) {
      const [b, a] = rates[part].map(median) as [number, number]
      const span = (xs: number[] | undefined): string => `${f2(Math.min(...(xs ?? [])))}–${f2(Math.max(...(xs ?? [])))}`
      out(`| ${part} | ${f2(b)} (${span(rates[part][0])}) | ${f2(a)} (${span(rates[part][1])}) | ${f2(a / b)} |`)
    }
  } finally {
    for (const s of servers) s.close()
  }
}

await main()
