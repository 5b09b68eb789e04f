import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Worker } from '@playwright/test'
import {
  FIXTURES,
  SAMPLE,
  armFirstRowTimer,
  expectedOfFile,
  fmt,
  must,
  recordRow,
  report,
  statValue,
  tempDir,
  writeRepeatedSample,
} from './helpers'

/**
 * One big valid file, made in the test: the sample's chunks repeated 5,000
 * times (1.86 GB, 20,000 chunks, 94.7 million records — far more rows than a
 * browser can scroll: 94.7 M × 28 px ≈ 2.65 billion px). Indexing it takes
 * seconds, so a second file can be opened while it runs.
 */
const COPIES = 5000

let tmp: ReturnType<typeof tempDir>
let big: { path: string; chunks: number; records: number; size: number }

test.describe.configure({ mode: 'serial', timeout: 120_000 })

test.beforeAll(async () => {
  tmp = tempDir()
  const path = join(tmp.dir, 'repeated-sample.rad')
  big = { path, ...(await writeRepeatedSample(path, COPIES)) }
})

test.afterAll(() => {
  tmp.remove()
})

test('opening a second file during indexing cancels the first completely', async ({ page }) => {
  const sample = await expectedOfFile(SAMPLE)
  const secondPath = `${FIXTURES}/rad-chromium-v2-small.rad`
  const second = await expectedOfFile(secondPath)
  const firstBig = sample.record(0)
  expect(second.record(0).umi).not.toBe(firstBig.umi)

  const closed = new Set<Worker>()
  page.on('worker', (w) => {
    w.on('close', () => closed.add(w))
  })
  await page.goto('/')
  const firstRow = await armFirstRowTimer(page)
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(recordRow(page, 0)).toContainText(must(firstBig.barcodes[0]))
  report(`first decoded row of a ${(big.size / 1e9).toFixed(2)} GB file`, await firstRow())
  // The point of the test: the first file is still being indexed.
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
  const indexedBefore = await statValue(page, 'records')
  expect(indexedBefore).toBeLessThan(big.records)
  const firstFileWorkers = page.workers().filter((w) => !closed.has(w))
  expect(firstFileWorkers.length).toBeGreaterThan(0)

  await page.getByTestId('file-input').setInputFiles(secondPath)
  await expect(page.getByTestId('file-name')).toHaveText('rad-chromium-v2-small.rad')
  await expect(recordRow(page, 0)).toContainText(must(second.record(0).umi))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  // Every worker of the first file is terminated.
  await expect.poll(() => firstFileWorkers.every((w) => closed.has(w)), { timeout: 10_000 }).toBe(true)
  // Nothing from the first file ever shows again: watch the figures and rows for a while.
  for (let i = 0; i < 20; i++) {
    expect(await statValue(page, 'records')).toBe(second.records)
    expect(await statValue(page, 'chunks')).toBe(second.chunks)
    const shown = await page.getByTestId('record-row').evaluateAll((rows) => rows.map((r) => r.textContent))
    for (const text of shown) expect(text).not.toContain(must(firstBig.umi))
    await page.waitForTimeout(100)
  }
  await expect(page.getByTestId('record-row').filter({ hasText: must(second.record(1).umi) })).toHaveCount(1)
})

test('the statistics pass over the whole 1.86 GB file finishes (two reads in flight per worker never stall)', async ({
  page,
}) => {
  // Chromium stalled a second Blob byte-stream read made while one was under way: the pass stood
  // still at its second batch, for good (BlobSource.readInto now makes one at a time).
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done', { timeout: 60_000 })
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 100_000 })
  await expect(page.getByTestId('stats-progress')).not.toContainText('damaged')
})

test('the statistics, fed by the index walk, cancelled while it runs: Run again waits for the index, then counts every record', async ({
  page,
}) => {
  // ADR 0017: the pass begins beside the walk, which feeds it the chunks it has checked.
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'running')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
  await page.getByTestId('stats-cancel').click()
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'error')
  // The walk goes on without the pass.
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
  await page.getByTestId('stats-restart').click()
  // Asked again before the index is in: no pass over part of the file; it waits for the walk.
  if ((await page.getByTestId('index-status').getAttribute('data-state')) === 'indexing') {
    await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', /idle|running/)
  }
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done', { timeout: 60_000 })
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 100_000 })
  const download = page.waitForEvent('download')
  await page.getByTestId('stats-save-json').click()
  const saved = JSON.parse(readFileSync(must(await (await download).path()), 'utf8')) as { records: number }
  expect(saved.records).toBe(big.records)
  expect(await statValue(page, 'records')).toBe(big.records)
})

test('a file with tens of millions of records: every record is reachable', async ({ page }) => {
  const sample = await expectedOfFile(SAMPLE)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done', { timeout: 90_000 })
  expect(await statValue(page, 'records')).toBe(big.records)
  expect(await statValue(page, 'chunks')).toBe(big.chunks)
  // The statistics, fed by the walk, end soon after it (ADR 0017), and their panel above the table
  // grows then: a jump made in that moment can leave the row just below the view (the panel's
  // growth while at the end is the scrollbar test's subject). This test is about reaching records.
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 60_000 })

  // The last record of the big file is the sample's last record.
  const last = big.records - 1
  const want = sample.record(sample.records - 1)
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  const row = recordRow(page, last)
  await expect(row).toBeInViewport()
  await expect(row).toContainText(must(want.barcodes[0]))
  await expect(row).toContainText(must(want.umi))
  await expect(page.getByTestId('window-range')).toBeVisible()

  // Expand it: alignments decoded from chunk 19,999.
  await row.click()
  const alns = page.locator(`[data-testid="alignment-row"][data-record="${String(last)}"]`)
  await expect(alns).toHaveCount(want.alignments.length)
  await expect(alns.first()).toContainText(must(want.alignments[0]?.refName))

  // A record in the middle of the file, and the row after it by keyboard.
  const middle = sample.records * (COPIES / 2) // record 0 of copy 2,500
  await page.getByTestId('goto-record').fill(middle.toLocaleString('en-US'))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, middle)).toContainText(must(sample.record(middle % sample.records).umi))
  await page.getByTestId('record-table').focus()
  await page.keyboard.press('ArrowDown')
  await expect(recordRow(page, middle + 1)).toHaveAttribute('aria-selected', 'true')
  await expect(recordRow(page, middle + 1)).toContainText(must(sample.record((middle + 1) % sample.records).umi))

  // Scrolling past the end of the scroll window slides it on: the rows stay continuous.
  const scroller = page.getByTestId('record-table')
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  await scroller.evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  // The window may slide again while we look: read the last row's number and text together.
  await expect
    .poll(async () => {
      const [rec, text] = await page
        .getByTestId('record-row')
        .last()
        .evaluate((el): [number, string] => [Number(el.getAttribute('data-record')), el.textContent ?? ''])
      return rec > middle + 60_000 && text.includes(must(sample.record(rec % sample.records).umi))
    })
    .toBe(true)
})

test('the scrollbar stands for the whole file: its bottom shows the last record, its middle the middle one', async ({
  page,
}) => {
  const sample = await expectedOfFile(SAMPLE)
  const recordAt = (n: number) => sample.record(n % sample.records)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done', { timeout: 90_000 })
  // The statistics panel above the table grows as its pass reports, meanwhile: the view stays at
  // its end (useKeepRowInView.ts; e2e/navigate.spec.ts).
  const bar = page.getByTestId('file-scrollbar')
  const summary = page.getByTestId('view-summary')
  // Where a drag of the scrollbar's thumb ends: the scroll event is the same.
  const dragTo = (fraction: number) =>
    bar.evaluate((el, f) => {
      el.scrollTop = f * (el.scrollHeight - el.clientHeight)
    }, fraction)

  const last = big.records - 1
  await dragTo(1)
  await expect(recordRow(page, last)).toBeInViewport()
  await expect(recordRow(page, last)).toContainText(must(recordAt(last).umi))
  await expect(summary).toContainText(`–${fmt(last)}`)
  await expect(summary).toContainText(`chunk ${fmt(big.chunks - 1)}`)
  await expect(page.locator('[data-testid="chunk-row"][aria-selected="true"]')).toHaveAttribute(
    'data-chunk',
    String(big.chunks - 1),
  )

  const middle = Math.floor(big.records / 2)
  await dragTo(0.5)
  await expect(recordRow(page, middle)).toBeInViewport()
  await expect(recordRow(page, middle)).toContainText(must(recordAt(middle).umi))
  // The footer's range holds the middle record (where it starts depends on the view's height).
  await expect
    .poll(async () => {
      const [from, to] = (must(await summary.textContent()).match(/[\d,]+/g) ?? []).map((n) =>
        Number(n.replace(/,/g, '')),
      )
      return from !== undefined && to !== undefined && from <= middle && middle <= to
    })
    .toBe(true)

  await dragTo(0)
  await expect(recordRow(page, 0)).toBeInViewport()
  await expect(summary).toContainText('Record 0 · chunk 0')

  // The scrollbar follows the table: End goes to the last record and the bar to its bottom.
  await page.getByTestId('record-table').focus()
  await page.keyboard.press('End')
  await expect(recordRow(page, last)).toBeInViewport()
  await expect(summary).toContainText(`Record ${fmt(last)}`)
  await expect.poll(() => bar.evaluate((el) => el.scrollHeight - el.clientHeight - el.scrollTop)).toBeLessThanOrEqual(1)
})

test('Cancel stops indexing and keeps the chunks found browsable', async ({ page }) => {
  const sample = await expectedOfFile(SAMPLE)
  const closed = new Set<Worker>()
  page.on('worker', (w) => {
    w.on('close', () => closed.add(w))
  })
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(recordRow(page, 0)).toContainText(must(sample.record(0).umi))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
  const indexWorkers = page.workers().filter((w) => w.url().includes('index.worker') && !closed.has(w))
  expect(indexWorkers.length).toBeGreaterThan(0)
  await page.getByTestId('cancel-index').click()
  const status = page.getByTestId('index-status')
  await expect(status).toHaveAttribute('data-state', 'done')
  await expect(status).toContainText('cancelled')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'incomplete')
  await expect(page.getByTestId('cancel-index')).toHaveCount(0)
  const records = await statValue(page, 'records')
  const chunks = await statValue(page, 'chunks')
  expect(chunks).toBeGreaterThan(0)
  expect(chunks).toBeLessThan(big.chunks)
  let expected = 0
  for (let k = 0; k < chunks; k++) expected += sample.scan.index.nrec[k % sample.chunks] ?? 0
  expect(records).toBe(expected)
  // The index worker is gone, and the figures stay put.
  await expect.poll(() => indexWorkers.every((w) => closed.has(w)), { timeout: 10_000 }).toBe(true)
  await page.waitForTimeout(500)
  expect(await statValue(page, 'records')).toBe(records)
  // The last record found is browsable.
  await page.getByTestId('goto-record').fill(String(records - 1))
  await page.getByTestId('goto-record').press('Enter')
  const want = sample.record((records - 1) % sample.records)
  await expect(recordRow(page, records - 1)).toContainText(must(want.umi))
})

test('an index worker that crashes mid-scan is reported; the chunks found stay browsable', async ({ page }) => {
  const sample = await expectedOfFile(SAMPLE)
  const closed = new Set<Worker>()
  page.on('worker', (w) => {
    w.on('close', () => closed.add(w))
  })
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(recordRow(page, 0)).toContainText(must(sample.record(0).umi))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
  const worker = page.workers().find((w) => w.url().includes('index.worker') && !closed.has(w))
  if (!worker) throw new Error('no index worker')
  await worker.evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated crash')
    }, 0)
  })
  const banner = page.getByTestId('error-banner')
  await expect(banner).toHaveAttribute('data-code', 'WORKER_FAILED')
  await expect(banner).toContainText('simulated crash')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'incomplete')
  await expect.poll(() => closed.has(worker)).toBe(true)
  const records = await statValue(page, 'records')
  const chunks = await statValue(page, 'chunks')
  expect(chunks).toBeGreaterThan(0)
  expect(chunks).toBeLessThan(big.chunks)
  await page.getByTestId('goto-record').fill(String(records - 1))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, records - 1)).toContainText(must(sample.record((records - 1) % sample.records).umi))
})

test('a record checker that crashes mid-scan is reported; indexing and checking go on without it', async ({ page }) => {
  // Records are checked beside the walk only when the machine has cores to spare (indexWorkerLink.ts).
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 8 })
  })
  const closed = new Set<Worker>()
  page.on('worker', (w) => {
    w.on('close', () => closed.add(w))
  })
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(big.path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
  await expect.poll(() => page.workers().some((w) => w.url().includes('check.worker'))).toBe(true)
  const checker = page.workers().find((w) => w.url().includes('check.worker'))
  await checker?.evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated checker crash')
    }, 0)
  })
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done', { timeout: 90_000 })
  expect(await statValue(page, 'chunks')).toBe(big.chunks)
  expect(await statValue(page, 'records')).toBe(big.records)
  const panel = page.getByTestId('integrity-panel')
  // A note when the index worker checked every chunk itself; a warning when a batch was lost with the checker.
  await expect(panel).toHaveAttribute('data-status', /^(notes|warnings)$/)
  await expect(panel).toContainText('the record checker stopped')
  await expect(panel).toContainText('simulated checker crash')
})
