import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page, Request } from '@playwright/test'
import { salmonScRna } from '../test/helpers/assays'
import { radBytes, tag } from '../test/helpers/radWriter'
import { E2E_BASE as BASE, E2E_PORT } from './chromium'
import { FIXTURES, SAMPLE, dropFile, expectedOf, must, recordRow, tempDir, withBadReference } from './helpers'

/**
 * "Cannot be broken" (docs/integrity.md): everything from the file is text, the page
 * sends nothing anywhere (a Content-Security-Policy keeps it so), and it says
 * that nothing is uploaded.
 */
const V3 = `${FIXTURES}/rad-chromium-v3-small.rad`
const XSS = '<img src=x onerror="window.__xss=1">'
const XSS_TAG = '<b onmouseover="window.__xss=2">note</b>'
const XSS_FILE = '<img src=x onerror=window.__xss=3>.rad'

let tmp: ReturnType<typeof tempDir>

// With the offline service worker registered and precaching, as users get it (docs/adr/0008).
test.use({ serviceWorkers: 'allow' })

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

/** A small salmon-like file whose reference 0, a file tag's name and its value carry HTML. */
function hostileFile(): string {
  const spec = salmonScRna()
  const refs = [XSS, ...(Array.isArray(spec.refs) ? (spec.refs as string[]).slice(1) : [])]
  const bytes = radBytes({
    ...spec,
    refs,
    fileTags: [...(spec.fileTags ?? []), tag(XSS_TAG, 'string')],
    fileValues: { cblen: 16, ulen: 12, [XSS_TAG]: XSS },
  })
  const path = join(tmp.dir, XSS_FILE)
  writeFileSync(path, bytes)
  return path
}

async function expectLiteral(page: Page): Promise<void> {
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('file-name')).toHaveText(XSS_FILE)
  // Reference 0 is the first alignment of record 0 (assays.ts SC_READS).
  await expect(recordRow(page, 0)).toContainText(XSS)
  await page.getByRole('heading', { name: 'References' }).click()
  await expect(page.getByTestId('ref-list').locator('li').first()).toContainText(XSS)
  await expect(page.getByTestId('file-panel')).toContainText(XSS_TAG)
  await recordRow(page, 0).click()
  await expect(page.locator('[data-testid="alignment-row"][data-record="0"]').first()).toContainText(XSS)
  // Give an injected element time to load and fire.
  await page.waitForTimeout(300)
  const injected = await page.evaluate(() => ({
    xss: (window as unknown as { __xss?: number }).__xss,
    imgs: document.querySelectorAll('img').length,
    handlers: document.querySelectorAll('[onerror], [onmouseover]').length,
    bold: document.querySelectorAll('.file-panel b').length,
  }))
  expect(injected).toEqual({ xss: undefined, imgs: 0, handlers: 0, bold: 0 })
}

test('HTML in reference names, tag names, tag values and the file name shows as text', async ({ page }) => {
  const path = hostileFile()
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expectLiteral(page)
})

test('…and still as text with the Content-Security-Policy switched off', async ({ browser }) => {
  const path = hostileFile()
  const context = await browser.newContext({ bypassCSP: true, baseURL: BASE })
  try {
    const page = await context.newPage()
    await page.goto('/')
    await page.getByTestId('file-input').setInputFiles(path)
    await expectLiteral(page)
  } finally {
    await context.close()
  }
})

test('the production build works under its Content-Security-Policy, which blocks any other destination', async ({
  page,
}) => {
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  await page.goto('/')
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')
  for (const directive of [
    "default-src 'self'",
    // 'wasm-unsafe-eval' and connect-src data:: the workers' zstd decoder is wasm fetched from a data: URL (ADR 0010).
    "script-src 'self' 'wasm-unsafe-eval'",
    "connect-src 'self' data:",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ]) {
    expect(csp).toContain(directive)
  }
  await page.evaluate(() => {
    const w = window as unknown as { __violations: string[] }
    w.__violations = []
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`)
    })
  })

  // The whole app works: sample fetched, index worker, decode workers, styles.
  const sample = await expectedOf(new Uint8Array(readFileSync(SAMPLE)))
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await page.getByTestId('goto-record').fill(String(sample.records - 1))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, sample.records - 1)).toContainText(must(sample.record(sample.records - 1).umi))
  const styled = await page
    .getByTestId('integrity-panel')
    .evaluate((el) => getComputedStyle(el).borderLeftStyle === 'solid')
  expect(styled).toBe(true)
  const wasmCompiles = await page.evaluate(async () => {
    const module = await fetch('data:application/wasm;base64,AGFzbQEAAAA=') // an empty wasm module
    await WebAssembly.instantiate(await module.arrayBuffer())
    return true
  })
  expect(wasmCompiles).toBe(true)
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([])
  expect(violations).toEqual([])

  // Anything else is refused: another host, an inline script, a blob: worker.
  const blocked = await page.evaluate(async (port) => {
    const out: string[] = []
    try {
      await fetch(`http://127.0.0.2:${port}/x`, { method: 'POST', body: 'data' })
      out.push('fetch went out')
    } catch {
      out.push('fetch blocked')
    }
    const script = document.createElement('script')
    script.textContent = 'window.__inline = 1'
    document.head.append(script)
    out.push((window as unknown as { __inline?: number }).__inline === 1 ? 'inline ran' : 'inline blocked')
    try {
      new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })))
      out.push('blob worker made')
    } catch {
      out.push('blob worker blocked')
    }
    await new Promise((r) => setTimeout(r, 200))
    return out
  }, E2E_PORT)
  expect(blocked.slice(0, 2)).toEqual(['fetch blocked', 'inline blocked'])
  const seen = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)
  expect(seen.some((v) => v.startsWith('connect-src') && v.includes('127.0.0.2'))).toBe(true)
  expect(seen.some((v) => v.startsWith('script-src'))).toBe(true)
  expect(seen.some((v) => v.startsWith('worker-src'))).toBe(true)
})

test('the page says nothing is uploaded', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByTestId('privacy-note')).toBeVisible()
  await expect(page.getByTestId('privacy-note')).toContainText('nothing is uploaded')
})

interface Seen {
  url: string
  method: string
  body: string | null
  by: string
}

function record(list: Seen[], by: string) {
  return (r: Request): void => {
    list.push({ url: r.url(), method: r.method(), body: r.postData(), by })
  }
}

/**
 * The app's own static files: the page, its bundles (and their source maps), the sample, and the
 * offline service worker with the manifest and icons it precaches (docs/adr/0008).
 */
const OWN_ASSET =
  /^\/(|index\.html|sample\.rad|sw\.js|manifest\.webmanifest|icon(-\d+)?\.(svg|png)|assets\/[\w.-]+\.(js|css|map))$/

test('opening and browsing files sends no request but GETs of the app’s own files', async ({ page, context }) => {
  const seen: Seen[] = []
  const routed: string[] = []
  const sockets: string[] = []
  context.on('request', record(seen, 'context'))
  page.on('request', record(seen, 'page'))
  page.on('websocket', (ws) => sockets.push(ws.url()))
  // Every request the browser lets Playwright see — the workers' included — passes here.
  await context.route('**/*', async (route) => {
    routed.push(`${route.request().method()} ${route.request().url()}`)
    await route.continue()
  })

  await page.goto('/')
  // Open, browse and expand a file; drop another; salvage a damaged one; the sample.
  const full = await expectedOf(new Uint8Array(readFileSync(V3)))
  await page.getByTestId('file-input').setInputFiles(V3)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await page.getByTestId('goto-chunk').fill('3')
  await page.getByTestId('goto-chunk').press('Enter')
  const first3 = must(full.scan.index.firstRecord[3])
  await expect(recordRow(page, first3)).toContainText(must(full.record(first3).umi))
  await recordRow(page, first3).click()
  await page.getByTestId('record-table').focus()
  await page.keyboard.press('End')
  await expect(recordRow(page, full.records - 1)).toContainText(must(full.record(full.records - 1).umi))
  await page.getByRole('heading', { name: 'References' }).click()
  await page.getByTestId('ref-search').fill('GENE0001')

  const damaged = await withBadReference(new Uint8Array(readFileSync(V3)), 2)
  await dropFile(page, damaged.bytes, 'damaged.rad')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'damaged')
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('salvage').click()])
  await download.saveAs(join(tmp.dir, 'seen.salvaged.rad'))

  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('file-name')).toHaveText('sample.rad')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await page.waitForTimeout(500)

  // The listeners see the workers' scripts load (so they would see the workers' requests).
  expect(seen.some((s) => s.url.includes('/assets/index.worker'))).toBe(true)
  expect(seen.some((s) => s.url.includes('/assets/decode.worker'))).toBe(true)
  expect(seen.some((s) => s.url.endsWith('/sample.rad'))).toBe(true)
  expect(sockets).toEqual([])
  for (const s of seen) {
    const url = new URL(s.url)
    expect(url.origin, `${s.by}: ${s.url}`).toBe(BASE)
    expect(s.method, s.url).toBe('GET')
    expect(s.body, s.url).toBeNull()
    expect(url.search, s.url).toBe('')
    expect(url.pathname, s.url).toMatch(OWN_ASSET)
  }
  for (const r of routed) expect(r).toMatch(new RegExp(`^GET ${BASE.replace(/\./g, '\\.')}/`))

  // A request made inside a worker is seen too (the control for the listeners above).
  const before = seen.length
  // The spare index worker, started when the sample finished indexing.
  const worker = page.workers().find((w) => w.url().includes('index.worker'))
  if (!worker) throw new Error('no index worker')
  await worker.evaluate(() => fetch('/sample.rad').then((r) => r.status))
  await expect.poll(() => seen.slice(before).some((s) => s.url.endsWith('/sample.rad'))).toBe(true)
})
