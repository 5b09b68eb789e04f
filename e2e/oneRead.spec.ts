import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import type { StatsJson } from '../src/rad/stats/statsTypes'
import { startRangeServer } from '../test/helpers/rangeServer'
import type { RangeServer, RequestLog } from '../test/helpers/rangeServer'
import { must, openPath, tempDir, writeRepeatedSample } from './helpers'

/**
 * One read for a URL (issue 22 §4, docs/stats.md "One read for a URL"): a file opened by URL
 * without a `.rdx` sidecar is downloaded once — the index walk, the record checks and the
 * whole-file statistics from the same bytes — and its statistics panel ends done, with the same
 * JSON (knee, distinct barcodes, pairs) as the page's own pass over the same file opened from disk.
 */

/** The sample's chunks 100 times (37.7 MB): big enough that the page's few fixed reads are < 10 %. */
const COPIES = 100
const PATH = '/runs/big.rad'

let tmp: ReturnType<typeof tempDir>
let file: string
let bytes: Uint8Array
let server: RangeServer

test.beforeAll(async () => {
  tmp = tempDir()
  file = join(tmp.dir, 'big.rad')
  await writeRepeatedSample(file, COPIES)
  bytes = new Uint8Array(readFileSync(file))
  server = await startRangeServer({ [PATH]: bytes })
})

test.afterAll(async () => {
  await server.close()
  tmp.remove()
})

/** Bytes the server sent for `path`: each answer's range (a GET without one: the whole file). */
function sentBytes(requests: readonly RequestLog[], path: string, size: number): number {
  let sent = 0
  for (const r of requests) {
    if (r.path !== path || r.method !== 'GET') continue
    const m = /^bytes=(\d*)-(\d*)$/.exec(r.range ?? '')
    if (!m) {
      sent += size
      continue
    }
    const start = m[1] === '' ? Math.max(0, size - Number(m[2])) : Number(m[1])
    const end = m[1] === '' || m[2] === '' ? size : Math.min(size, Number(m[2]) + 1)
    sent += Math.max(0, end - start)
  }
  return sent
}

/** The panel done, from `source`; the JSON Save JSON writes (the report shown, figure for figure). */
async function doneStats(page: Page, source: 'walk' | 'pass'): Promise<StatsJson> {
  const panel = page.getByTestId('stats-panel')
  await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 120_000 })
  await expect(panel).toHaveAttribute('data-source', source)
  const download = page.waitForEvent('download')
  await page.getByTestId('stats-save-json').click()
  const saved = must(await (await download).path(), 'the downloaded JSON')
  return JSON.parse(readFileSync(saved, 'utf8')) as StatsJson
}

async function figures(page: Page): Promise<string[]> {
  const ids = ['stat-knee', 'stat-distinct-barcodes', 'stat-umi-pairs']
  return Promise.all(ids.map(async (id) => must(await page.getByTestId(id).getAttribute('data-value'), id)))
}

test('a URL without a sidecar is read once: statistics counted during the index walk, equal to the local pass', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const size = bytes.length
  const t0 = Date.now()
  await page.goto(`/?url=${encodeURIComponent(server.url(PATH))}`)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  const fromWalk = await doneStats(page, 'walk')
  const doneMs = Date.now() - t0
  await expect(page.getByTestId('stats-progress')).toContainText('counted during the index walk')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
  const urlFigures = await figures(page)
  // Nothing more is asked of the server once the panel is done (no pass behind it).
  await page.waitForTimeout(1000)
  const sent = sentBytes(server.requests, PATH, size)
  const ratio = sent / size
  console.warn(
    `one read: ${String(sent)} bytes sent for a ${String(size)}-byte file (${ratio.toFixed(4)}×) in ` +
      `${String(server.requests.filter((r) => r.path === PATH).length)} requests; statistics done ${String(doneMs)} ms after goto`,
  )
  expect(ratio).toBeLessThanOrEqual(1.1)
  expect(fromWalk.knee).toBeGreaterThan(0)
  expect(fromWalk.barcodes?.distinct).toBeGreaterThan(0)

  // The same file from disk: the decode workers' pass, as before; the same JSON to the last figure.
  await openPath(page, file)
  const fromPass = await doneStats(page, 'pass')
  expect(fromWalk).toEqual(fromPass)
  expect(await figures(page)).toEqual(urlFigures)
})
