import { mkdirSync, readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { startRadServer } from '../src/server/radServer'
import { startRangeServer } from '../test/helpers/rangeServer'
import type { RangeServer, RangeServerOptions } from '../test/helpers/rangeServer'
import { E2E_BASE as BASE } from './chromium'
import { FIXTURES, expectAccessible, expectedOf, must, recordRow, tempDir, writeRepeatedSample } from './helpers'

/**
 * A URL that fails is explained as what it is (ADR 0005, "When a read fails"): a missing file, a server without
 * CORS headers, a server that is not there, a server error, the page's own security policy, a
 * server that stops sending, a connection cut in every answer. Each shows its own words in the
 * banner, on a fresh page, and never "changed". Servers misbehave on purpose
 * (test/helpers/rangeServer.ts). Screenshots of each message: /tmp/shots-url/.
 */
const V3 = `${FIXTURES}/rad-chromium-v3-small.rad`
const bytes = new Uint8Array(readFileSync(V3))
const PATH = '/runs/map.rad'
const SHOTS = '/tmp/shots-url'
const servers: RangeServer[] = []

test.afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

async function serve(opts: RangeServerOptions = {}): Promise<RangeServer> {
  const s = await startRangeServer({ [PATH]: bytes }, opts)
  servers.push(s)
  return s
}

/** An address where nothing listens: a server's, once it is closed. */
async function deadUrl(): Promise<string> {
  const s = await startRangeServer({})
  const url = s.url(PATH)
  await s.close()
  return url
}

/** Shortens the stall and sidecar waits in this page's URL specs (UrlTimeouts, sourceSpec.ts). */
async function shortTimeouts(page: Page, timeouts: { stallMs?: number; sidecarMs?: number }): Promise<void> {
  await page.addInitScript((t) => {
    ;(globalThis as { radViewerTimeouts?: unknown }).radViewerTimeouts = t
  }, timeouts)
}

async function open(page: Page, url: string): Promise<void> {
  await page.goto(`/?url=${encodeURIComponent(url)}`)
}

/** The banner names the failure (FETCH_FAILED) with `words`; nothing on the page says "changed". */
async function expectFailure(page: Page, words: string | RegExp): Promise<void> {
  const banner = page.getByTestId('error-banner')
  await expect(banner).toHaveAttribute('data-code', 'FETCH_FAILED')
  await expect(banner.locator('.error-title')).toHaveText('The file could not be fetched')
  await expect(banner.locator('.error-message')).toContainText(words)
  await expect(banner.getByTestId('retry')).toBeVisible()
  await expect(page.getByTestId('index-status')).toContainText('Could not open the file')
  await expect(page.locator('#root')).not.toContainText(/\bchang(e|ed|es)\b/i)
  await expect(page.getByTestId('integrity-issue')).toHaveCount(0)
  await expect(page.getByTestId('integrity-panel').locator('.integrity-summary')).toHaveText(
    'No chunk could be read (see the error above), so no record was checked.',
  )
}

/** The page as it is, at 1440 and 390 px, light and dark. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true })
  for (const theme of ['light', 'dark'] as const) {
    for (const [width, height] of [
      [1440, 800],
      [390, 844],
    ] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await page.setViewportSize({ width, height })
      await page.screenshot({ path: `${SHOTS}/${name}-${theme}-${String(width)}.png` })
    }
  }
}

test('404: no such file on that server', async ({ page }) => {
  const s = await serve()
  await open(page, s.url('/runs/nope.rad'))
  await expectFailure(page, /^no such file on that server: 127\.0\.0\.1:\d+ has nothing at \/runs\/nope\.rad \(404/)
  await shoot(page, '404')
})

test('a server without CORS headers: reachable but unreadable from this page, and the headers it must send', async ({
  page,
}) => {
  const s = await serve({ cors: false })
  await open(page, s.url(PATH))
  await expectFailure(page, 'does not allow this page to read the file (CORS)')
  await expect(page.getByTestId('error-banner')).toContainText(`Access-Control-Allow-Origin: ${BASE}`)
  await shoot(page, 'cors')
  await expectAccessible(page, 'CORS failure (dark)')
})

test('an unreachable server', async ({ page }) => {
  await open(page, await deadUrl())
  await expectFailure(page, /^could not reach 127\.0\.0\.1:\d+ .*Is the server running/)
  await shoot(page, 'unreachable')
})

test('a server error (500), after the retries', async ({ page }) => {
  const s = await serve({ fault: { kind: 'status', status: 500 }, faultPath: PATH })
  await open(page, s.url(PATH))
  await expectFailure(page, /^server error: 127\.0\.0\.1:\d+ answered 500 Internal Server Error, 5 times/)
  expect(s.requests.filter((r) => r.path === PATH && r.method === 'GET')).toHaveLength(5)
})

test('access refused (403)', async ({ page }) => {
  const s = await serve({ fault: { kind: 'status', status: 403 }, faultPath: PATH })
  await open(page, s.url(PATH))
  await expectFailure(page, /^access refused: 127\.0\.0\.1:\d+ answered 403 Forbidden/)
})

test('a connection cut in the middle of every answer: a network failure, never "a bug in the viewer"', async ({
  page,
}) => {
  const s = await serve({ fault: { kind: 'cut', afterBytes: 1000 }, faultPath: PATH })
  await open(page, s.url(PATH))
  await expectFailure(
    page,
    /^network failure: the connection to 127\.0\.0\.1:\d+ broke off in the middle of an answer, 5 times/,
  )
  await expect(page.getByTestId('error-banner')).not.toContainText('bug')
})

test('a server that starts failing mid-scan: the rows read stay, the failure is named with its byte', async ({
  page,
}) => {
  const tmp = tempDir()
  try {
    const path = `${tmp.dir}/big.rad`
    const big = await writeRepeatedSample(path, 20)
    expect(big.size).toBeGreaterThan(3 << 20)
    // The opening GET (1.25 MiB) and the last block are served; every later request answers 500.
    const s = await startRangeServer(
      { [PATH]: new Uint8Array(readFileSync(path)) },
      { fault: { kind: 'status', status: 500 }, faultPath: PATH, faultAfter: 2 },
    )
    servers.push(s)
    await open(page, s.url(PATH))
    const banner = page.getByTestId('error-banner')
    await expect(banner).toHaveAttribute('data-code', 'FETCH_FAILED')
    await expect(banner).toHaveAttribute('data-offset', /^[1-9]\d*$/)
    await expect(banner.locator('.error-message')).toContainText(/^server error: 127\.0\.0\.1:\d+ answered 500/)
    await expect(banner).toContainText('What was read before is shown')
    await expect(recordRow(page, 0)).toBeVisible()
    await expect(page.locator('#root')).not.toContainText(/\bchang(e|ed|es)\b/i)
    await shoot(page, 'midscan')
  } finally {
    tmp.remove()
  }
})

test('a server that stops sending: named after the stall, with a Retry that opens the file', async ({ page }) => {
  await shortTimeouts(page, { stallMs: 1000 })
  // The first GET of the file gets its headers and 1,000 bytes, then nothing; the next is served.
  const s = await serve({ fault: { kind: 'stall', afterBytes: 1000 }, faultPath: PATH, faultTimes: 1 })
  await open(page, s.url(PATH))
  await expectFailure(page, /^the server stopped sending: nothing arrived from 127\.0\.0\.1:\d+ for 1 s/)
  await shoot(page, 'stalled')
  await page.setViewportSize({ width: 1440, height: 800 })
  await page.getByTestId('retry').click()
  const full = await expectedOf(bytes)
  await expect(recordRow(page, 0)).toContainText(must(full.record(0).umi))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('error-banner')).toHaveCount(0)
})

test('Cancel while the server sends nothing is a cancel, not an internal error', async ({ page }) => {
  const s = await serve({ fault: { kind: 'silent' }, faultPath: PATH })
  await open(page, s.url(PATH))
  await expect(page.getByTestId('index-status')).toContainText('Reading the header…')
  await page.getByTestId('cancel-index').click()
  await expect(page.getByTestId('cancelled-early')).toBeVisible()
  await expect(page.getByTestId('error-banner')).toHaveCount(0)
  await expect(page.locator('#root')).not.toContainText('Internal error')
})

test('a .rdx request that stalls never blocks opening: the file is scanned', async ({ page }) => {
  await shortTimeouts(page, { sidecarMs: 500 })
  const s = await serve({ fault: { kind: 'silent' }, faultPath: `${PATH}.rdx` })
  await open(page, s.url(PATH))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
})

test('an address the page’s own security policy refuses (rad serve sends it as a header)', async ({ page }) => {
  // rad serve gives the workers the page's Content-Security-Policy: plain http only on 127.0.0.1 and localhost.
  const served = await startRadServer({ files: [V3], dist: 'dist', host: '127.0.0.1', port: 0 })
  try {
    const url = `http://127.0.0.1:${String(served.port)}/?url=${encodeURIComponent('http://127.0.0.2:9/runs/map.rad')}`
    await page.goto(url)
    await expectFailure(
      page,
      /^this page's own security policy \(Content-Security-Policy, connect-src\) does not allow it to connect to http:\/\/127\.0\.0\.2:9/,
    )
    await shoot(page, 'csp')
  } finally {
    await served.close()
  }
})
