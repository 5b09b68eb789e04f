import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page, Worker } from '@playwright/test'
import { FIXTURES, SAMPLE, expectedOf, must, recordRow, statValue, tempDir, writeRepeatedSample } from './helpers'

/**
 * "A worker that dies is replaced and the failure is reported":
 * whether it crashes (an error event) or vanishes silently, the page says so
 * instead of waiting forever, and the next attempt gets a fresh worker.
 */
const V3 = `${FIXTURES}/rad-chromium-v3-small.rad`

function live(page: Page, closed: ReadonlySet<Worker>, name: string): Worker | undefined {
  return page.workers().find((w) => w.url().includes(name) && !closed.has(w))
}

function watchClosed(page: Page): Set<Worker> {
  const closed = new Set<Worker>()
  page.on('worker', (w) => {
    w.on('close', () => closed.add(w))
  })
  return closed
}

test('an index worker that dies without a word is reported, and opening the file again works', async ({ page }) => {
  test.setTimeout(90_000)
  const full = await expectedOf(new Uint8Array(readFileSync(V3)))
  const closed = watchClosed(page)
  await page.goto('/')
  // The page keeps one index worker ready; make it end itself: no error event, no answer ever again.
  await expect.poll(() => live(page, closed, 'index.worker') !== undefined).toBe(true)
  const spare = live(page, closed, 'index.worker')
  await spare?.evaluate(() => {
    setTimeout(() => {
      close()
    }, 0)
  })
  await expect.poll(() => spare !== undefined && closed.has(spare)).toBe(true)

  await page.getByTestId('file-input').setInputFiles(V3)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
  // Not a spinner forever: after the heartbeat's silence limit (15 s), an error.
  const banner = page.getByTestId('error-banner')
  await expect(banner).toHaveAttribute('data-code', 'WORKER_FAILED', { timeout: 30_000 })
  await expect(banner).toContainText('index worker stopped')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'incomplete')
  await expect(page.getByTestId('cancel-index')).toHaveCount(0)

  // A new worker was started: opening the file again works.
  await page.getByTestId('retry').click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'clean')
  await expect(recordRow(page, 0)).toContainText(must(full.record(0).umi))
})

test('a decode worker that crashes is replaced, the failure is reported, and records still decode', async ({
  page,
}) => {
  const full = await expectedOf(new Uint8Array(readFileSync(V3)))
  const closed = watchClosed(page)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(V3)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  // Chunk 3 is decoded by the pool (the index worker sends only the first screen).
  const first3 = must(full.scan.index.firstRecord[3])
  await page.getByTestId('goto-chunk').fill('3')
  await page.getByTestId('goto-chunk').press('Enter')
  await expect(recordRow(page, first3)).toContainText(must(full.record(first3).umi))
  const decoder = live(page, closed, 'decode.worker')
  if (!decoder) throw new Error('no decode worker')
  await decoder.evaluate(() => {
    setTimeout(() => {
      throw new Error('simulated crash')
    }, 0)
  })
  await expect(page.getByTestId('file-warnings')).toContainText('A decode worker stopped')
  await expect(page.getByTestId('file-warnings')).toContainText('it was replaced')
  await expect.poll(() => closed.has(decoder)).toBe(true)

  const first1 = must(full.scan.index.firstRecord[1])
  await page.getByTestId('goto-chunk').fill('1')
  await page.getByTestId('goto-chunk').press('Enter')
  await expect(recordRow(page, first1)).toContainText(must(full.record(first1).umi))
  expect(live(page, closed, 'decode.worker')).toBeDefined()
})

test('a decode worker that dies while decoding a chunk: the chunk is asked of its replacement and shows', async ({
  page,
}) => {
  // One decode worker, so the retry cannot land on another sabotaged one.
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 2 })
  })
  const tmp = tempDir()
  try {
    const path = join(tmp.dir, 'sample-x50.rad')
    const big = await writeRepeatedSample(path, 50)
    const sample = await expectedOf(new Uint8Array(readFileSync(SAMPLE)))
    const closed = watchClosed(page)
    await page.goto('/')
    await page.getByTestId('file-input').setInputFiles(path)
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
    expect(await statValue(page, 'chunks')).toBe(big.chunks)
    await goChunk(page, 40)
    const at40 = 10 * sample.records
    await expect(recordRow(page, at40)).toContainText(must(sample.record(0).umi))
    const decoder = live(page, closed, 'decode.worker')
    if (!decoder) throw new Error('no decode worker')
    // Its next read never ends, and the worker crashes meanwhile.
    await decoder.evaluate(() => {
      Blob.prototype.arrayBuffer = () => {
        setTimeout(() => {
          throw new Error('simulated crash while decoding')
        }, 0)
        return new Promise<ArrayBuffer>(() => undefined)
      }
    })
    await goChunk(page, 160)
    const warnings = page.getByTestId('file-warnings')
    await expect(warnings).toContainText('simulated crash while decoding')
    await expect(warnings).toContainText('it was replaced')
    expect(closed.has(decoder)).toBe(true)
    // Whichever chunk the worker died on shows its records, decoded by the new worker.
    const died = Number(
      /while decoding chunk ([\d,]+)/.exec(must(await warnings.textContent()))?.[1]?.replace(/,/g, ''),
    )
    expect(Number.isInteger(died)).toBe(true)
    const local = must(sample.scan.index.firstRecord[died % sample.chunks])
    const first = Math.floor(died / sample.chunks) * sample.records + local
    await goChunk(page, died)
    await expect(recordRow(page, first)).toContainText(must(sample.record(local).umi))
    await expect(recordRow(page, first)).toContainText(must(sample.record(local).barcodes[0]))
    const at160 = 40 * sample.records
    await goChunk(page, 160)
    await expect(recordRow(page, at160)).toContainText(must(sample.record(0).umi))
  } finally {
    tmp.remove()
  }
})

async function goChunk(page: Page, chunk: number): Promise<void> {
  await page.getByTestId('goto-chunk').fill(String(chunk))
  await page.getByTestId('goto-chunk').press('Enter')
}
