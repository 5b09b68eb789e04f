import { mkdirSync, readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page, Request } from '@playwright/test'
import { startRangeServer } from '../test/helpers/rangeServer'
import type { RangeServer, RangeServerOptions } from '../test/helpers/rangeServer'
import { E2E_BASE as BASE } from './chromium'
import { FIXTURES, expectedOf, must, recordRow } from './helpers'
import type { Expected } from './helpers'

/**
 * Opening a URL (ADR 0005): the file is read by HTTP Range from a local
 * node:http server started here on a random port (test/helpers/rangeServer.ts),
 * from "Open URL…" and from `?url=`; a slow server, one without Range, one
 * without CORS headers, a file that changes while it is read. The page sends
 * GETs to that one origin and its own, nothing else, and no referrer.
 */
const V3 = `${FIXTURES}/rad-chromium-v3-small.rad`
const bytes = new Uint8Array(readFileSync(V3))
let full: Expected
const servers: RangeServer[] = []

test.beforeAll(async () => {
  full = await expectedOf(bytes)
})

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

async function serve(opts: RangeServerOptions = {}): Promise<RangeServer> {
  const s = await startRangeServer({ '/runs/map.rad': bytes }, opts)
  servers.push(s)
  return s
}

async function openByInput(page: Page, url: string): Promise<void> {
  await page.goto('/')
  await page.getByTestId('open-url').fill(url)
  await page.getByTestId('open-url').press('Enter')
}

/** The first and the last record show, decoded as the format core decodes them. */
async function expectBrowsable(page: Page): Promise<void> {
  await expect(page.getByTestId('file-name')).toHaveText('map.rad')
  await expect(recordRow(page, 0)).toContainText(must(full.record(0).umi))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
  const last = full.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, last)).toContainText(must(full.record(last).umi))
}

function recordRequests(page: Page): Request[] {
  const seen: Request[] = []
  page.context().on('request', (r) => seen.push(r))
  return seen
}

test('a URL typed in "Open URL…" opens on Enter, read by Range from that origin only', async ({ page }) => {
  const s = await serve()
  const seen = recordRequests(page)
  await openByInput(page, s.url('/runs/map.rad'))
  await expectBrowsable(page)
  // The address now carries the URL, so a reload or a shared link opens it again.
  expect(new URL(page.url()).searchParams.get('url')).toBe(s.url('/runs/map.rad'))
  // Every request went to the page's own origin or the one the user named; the file's are ranged GETs.
  for (const r of seen) expect([BASE, s.origin], r.url()).toContain(new URL(r.url()).origin)
  // Beside the file, one plain GET of its sidecar (docs/sidecar.md): none here, so a 404 and a scan.
  const sidecarRequests = s.requests.filter((r) => r.path === '/runs/map.rad.rdx')
  expect(sidecarRequests.map((r) => [r.method, r.range, r.referer])).toEqual([['GET', undefined, undefined]])
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  const fileRequests = s.requests.filter((r) => r.method !== 'OPTIONS' && !sidecarRequests.includes(r))
  expect(fileRequests.length).toBeGreaterThan(0)
  for (const r of fileRequests) {
    expect(r.method).toBe('GET')
    expect(r.path).toBe('/runs/map.rad')
    expect(r.range).toMatch(/^bytes=\d+-\d+$/)
    // The URL the user typed is sent nowhere else, not even as a referrer.
    expect(r.referer).toBeUndefined()
  }
})

test('?url= in the page address opens the file', async ({ page }) => {
  const s = await serve()
  await page.goto(`/?url=${encodeURIComponent(s.url('/runs/map.rad'))}`)
  await expectBrowsable(page)
})

test('a slow server (100 ms per answer) shows the first records after a few round trips', async ({ page }) => {
  const s = await serve({ delayMs: 100 })
  await page.goto('/')
  const t0 = Date.now()
  await page.getByTestId('open-url').fill(s.url('/runs/map.rad'))
  await page.getByTestId('open-url').press('Enter')
  await expect(recordRow(page, 0)).toContainText(must(full.record(0).umi))
  const ms = Date.now() - t0
  console.warn(`slow server: first record visible ${String(ms)} ms after Enter`)
  await expectBrowsable(page)
})

test('a server that ignores Range: a small file is read whole', async ({ page }) => {
  const s = await serve({ noRange: true })
  await openByInput(page, s.url('/runs/map.rad'))
  await expectBrowsable(page)
})

test('a server without CORS headers: the page says so, and which headers it must send', async ({ page }) => {
  const s = await serve({ cors: false })
  await openByInput(page, s.url('/runs/map.rad'))
  const banner = page.getByTestId('error-banner')
  await expect(banner).toContainText('does not allow this page to read the file (CORS)')
  await expect(banner).toContainText(`Access-Control-Allow-Origin: ${BASE}`)
  await expect(banner).toContainText('Access-Control-Expose-Headers: Content-Range')
})

test('a file that changes on the server while it is read: no verdict, no mixed versions', async ({ page }) => {
  const changed = bytes.slice()
  changed.set([1, 2, 3, 4], bytes.length - 100)
  // The opening GET (the whole 377 KB file fits in it) sees version 1; every later one version 2.
  const s = await serve({ changeAfter: 1, changedTo: changed })
  await openByInput(page, s.url('/runs/map.rad'))
  const banner = page.getByTestId('error-banner')
  await expect(banner).toContainText('changed')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'changed')
  await expect(page.getByTestId('integrity-status')).not.toHaveText('Clean')
})

test('a typo is refused in plain words, and nothing is sent anywhere', async ({ page }) => {
  const seen = recordRequests(page)
  await page.goto('/')
  const before = seen.length
  await page.getByTestId('open-url').fill('ftp://example.org/map.rad')
  await page.getByTestId('open-url').press('Enter')
  // type=url accepts ftp:, the page does not.
  await expect(page.getByRole('alert')).toContainText('only http:// and https:// addresses can be opened')
  expect(seen.slice(before).filter((r) => new URL(r.url()).origin !== BASE)).toEqual([])
})

for (const theme of ['light', 'dark'] as const) {
  for (const width of [1440, 390]) {
    test(`screenshot: the open-URL control, ${theme}, ${String(width)} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 })
      await page.emulateMedia({ colorScheme: theme })
      await page.goto('/')
      await page.getByTestId('open-url').fill('https://data.example.org/runs/map.rad')
      const dir = '/tmp/shots-http'
      mkdirSync(dir, { recursive: true })
      await page.locator('.topbar').screenshot({ path: `${dir}/open-url-${theme}-${String(width)}.png` })
      await expect(page.getByTestId('open-url')).toBeVisible()
    })
  }
}
