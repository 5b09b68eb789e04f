import { spawn } from 'node:child_process'
import type { ChildProcessWithoutNullStreams } from 'node:child_process'
import { expect, test } from '@playwright/test'
import { FIXTURES, expectedOfFile, must, recordRow } from './helpers'

/**
 * The cluster-to-laptop path (issue 13 §2): `rad serve` on a random port, and Chromium opening
 * the link it prints. The page comes from the server (the production build in dist/) and reads
 * the file through it by HTTP Range; nothing else is asked of anyone.
 */
const V3 = `${FIXTURES}/rad-chromium-v3-small.rad`

let child: ChildProcessWithoutNullStreams
let link: string
let exited: Promise<number | null>

test.beforeAll(async () => {
  child = spawn(process.execPath, ['bin/rad.mjs', 'serve', V3, '--port', '0'])
  exited = new Promise((resolve) => child.on('exit', resolve))
  let stderr = ''
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  link = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString()
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?url=\S+/.exec(out)
      if (m && out.includes('ssh -L')) resolve(m[0])
    })
    void exited.then((code) => {
      reject(new Error(`rad serve exited (${String(code)}): ${stderr}`))
    })
  })
})

test.afterAll(async () => {
  child.kill('SIGINT')
  expect(await exited).toBe(0)
})

test('the printed link opens the file in the viewer, read by Range from rad serve alone', async ({ page }) => {
  const origin = new URL(link).origin
  const seen: { url: string; method: string; status: number }[] = []
  page.on('response', (r) => seen.push({ url: r.url(), method: r.request().method(), status: r.status() }))
  const violations: string[] = []
  page.on('console', (m) => {
    // Blocked loads only (the page's CSP is also sent as a header, so workers run under it too).
    if (/Refused to .*Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  const exp = await expectedOfFile(V3)

  await page.goto(link)
  for (const n of [0, 1, 2]) {
    const want = exp.record(n)
    for (const bc of want.barcodes) await expect(recordRow(page, n)).toContainText(bc)
    await expect(recordRow(page, n)).toContainText(must(want.umi))
  }
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))

  const filePath = must(new URL(link).searchParams.get('url'))
  const fileReads = seen.filter((s) => new URL(s.url).pathname === filePath)
  expect(fileReads.length).toBeGreaterThan(0)
  for (const s of fileReads) expect(s.status, s.url).toBe(206)
  for (const s of seen) {
    expect(new URL(s.url).origin, s.url).toBe(origin)
    expect(s.method, s.url).toBe('GET')
    expect(s.status, s.url).toBeLessThan(400)
  }
  expect(violations).toEqual([])
})

test('the server answers nothing but the viewer and the file', async ({ request }) => {
  const origin = new URL(link).origin
  for (const path of ['/package.json', '/test/fixtures/salmon/rad-chromium-v3-small.rad', '/assets/', '/f/']) {
    expect((await request.get(`${origin}${path}`)).status(), path).toBe(404)
  }
})
