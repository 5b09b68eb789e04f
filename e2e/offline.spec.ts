import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { startRangeServer } from '../test/helpers/rangeServer'
import { SAMPLE, expectedOfFile, must, recordRow, serveDist } from './helpers'
import type { DistServer } from './helpers'

/**
 * Offline and installable (docs/adr/0008). A bare static server puts dist/ under a
 * base path, as a project's GitHub Pages would, so the service worker's scope must follow the
 * base. Once the worker controls the page, the browser goes offline and the server stops: a
 * reload still renders the page, and the bundled sample still opens and shows its records.
 */
const BASE = '/pages/rad-viewer/'

test.use({ serviceWorkers: 'allow' })

let dist: DistServer
let origin: string

test.beforeAll(async () => {
  dist = await serveDist(BASE)
  origin = dist.origin
})

test.afterAll(async () => {
  await dist.close()
})

test('once loaded, the viewer works offline: reload, then "Try a sample" shows records', async ({ page, context }) => {
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  await page.goto(`${origin}${BASE}`)
  const scope = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready
    return registration.scope
  })
  expect(scope).toBe(`${origin}${BASE}`)
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null)

  await context.setOffline(true)
  dist.dropConnections()
  const before = dist.served.length
  await page.reload()
  await expect(page.getByRole('button', { name: 'Try a sample' })).toBeVisible()
  const sample = await expectedOfFile(SAMPLE)
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(recordRow(page, 0)).toContainText(must(sample.record(0).umi))
  const last = sample.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, last)).toContainText(must(sample.record(last).umi))
  // Everything came from the worker's cache: the server heard nothing after going offline but,
  // at times, the browser's own update check of the worker script (not page data; a race).
  expect(dist.served.slice(before).filter((path) => !path.endsWith('/sw.js'))).toEqual([])
  expect(violations).toEqual([])
  await context.setOffline(false)
})

test('the web manifest is linked, served and parses; its icons load', async ({ page, request }) => {
  await page.goto(`${origin}${BASE}`)
  const href = must(await page.locator('link[rel="manifest"]').getAttribute('href'))
  const url = new URL(href, `${origin}${BASE}`).href
  expect(url).toBe(`${origin}${BASE}manifest.webmanifest`)
  const manifest = (await (await request.get(url)).json()) as {
    name: string
    start_url: string
    scope: string
    display: string
    icons: { src: string; sizes: string }[]
  }
  expect(manifest).toMatchObject({ name: 'RAD Viewer', start_url: './', scope: './', display: 'standalone' })
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']))
  for (const icon of manifest.icons) {
    expect((await request.get(new URL(icon.src, url).href)).status(), icon.src).toBe(200)
  }
})

test('the service worker caches the build only: a file opened by URL is not kept', async ({ page }) => {
  const files = await startRangeServer({ '/runs/map.rad': new Uint8Array(readFileSync(SAMPLE)) })
  try {
    await page.goto(`${origin}${BASE}`)
    await page.evaluate(() => navigator.serviceWorker.ready)
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null)
    await page.goto(`${origin}${BASE}?url=${encodeURIComponent(files.url('/runs/map.rad'))}`)
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  } finally {
    await files.close()
  }
  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) {
      for (const r of await (await caches.open(name)).keys()) urls.push(r.url)
    }
    return urls
  })
  expect(cached).toContain(`${origin}${BASE}`)
  expect(cached).toContain(`${origin}${BASE}sample.rad`)
  expect(cached).not.toContain(`${origin}${BASE}sw.js`)
  for (const u of cached) expect(u.startsWith(`${origin}${BASE}`), u).toBe(true)
})
