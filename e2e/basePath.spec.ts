import { expect, test } from '@playwright/test'
import { SAMPLE, expectedOfFile, must, recordRow, serveDist } from './helpers'
import type { DistServer } from './helpers'

/**
 * Static hosting (docs/links.md): the production build (vite `base: './'`) works from any base
 * path, as on a project's GitHub Pages. A bare static server puts dist/ under /pages/rad-viewer/
 * and answers 404 everywhere else, so any asset, worker or sample URL rooted at `/` would fail.
 */
const BASE = '/pages/rad-viewer/'

let dist: DistServer
let origin: string

test.beforeAll(async () => {
  dist = await serveDist(BASE)
  origin = dist.origin
})

test.afterAll(async () => {
  await dist.close()
})

test('the build works from a base path: page, styles, workers and the sample all load under it', async ({ page }) => {
  const failed: string[] = []
  const seen: string[] = []
  page.on('response', (r) => {
    seen.push(new URL(r.url()).pathname)
    if (r.status() >= 400) failed.push(`${String(r.status())} ${r.url()}`)
  })
  const sample = await expectedOfFile(SAMPLE)
  await page.goto(`${origin}${BASE}`)
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  const last = sample.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, last)).toContainText(must(sample.record(last).umi))
  const styled = await page
    .getByTestId('integrity-panel')
    .evaluate((el) => getComputedStyle(el).borderLeftStyle === 'solid')
  expect(styled).toBe(true)

  expect(failed).toEqual([])
  expect(seen.some((p) => p.startsWith(`${BASE}assets/index.worker`))).toBe(true)
  expect(seen.some((p) => p.startsWith(`${BASE}assets/decode.worker`))).toBe(true)
  expect(seen).toContain(`${BASE}sample.rad`)
  for (const p of seen) expect(p.startsWith(BASE), p).toBe(true)
})
