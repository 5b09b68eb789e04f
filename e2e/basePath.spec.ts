import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { SAMPLE, expectedOfFile, must, recordRow } from './helpers'

/**
 * Static hosting (issue 13 §4): the production build (vite `base: './'`) works from any base
 * path, as on a project's GitHub Pages. A bare static server puts dist/ under /pages/rad-viewer/
 * and answers 404 everywhere else, so any asset, worker or sample URL rooted at `/` would fail.
 */
const BASE = '/pages/rad-viewer/'
const TYPES: Record<string, string> = { html: 'text/html', js: 'text/javascript', css: 'text/css' }

let server: Server
let origin: string

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? ''
    const rel = path === BASE ? 'index.html' : path.startsWith(BASE) ? path.slice(BASE.length) : ''
    if (rel === '' || rel.includes('..')) {
      res.writeHead(404).end()
      return
    }
    try {
      const body = readFileSync(join('dist', rel))
      const type = TYPES[rel.split('.').pop() ?? ''] ?? 'application/octet-stream'
      res.writeHead(200, { 'Content-Type': type }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
})

test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
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
