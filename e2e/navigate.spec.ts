import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FIXTURES, expectedOfFile, must, recordRow } from './helpers'
import type { Expected } from './helpers'

// Multi-threaded salmon output: chunk sizes differ and records are not in read order.
const PATH = `${FIXTURES}/rad-chromium-v3-small-p3.rad`

async function open(page: Page): Promise<Expected> {
  const exp = await expectedOfFile(PATH)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(PATH)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  return exp
}

async function expectDecoded(page: Page, exp: Expected, n: number): Promise<void> {
  const want = exp.record(n)
  const row = recordRow(page, n)
  await expect(row).toBeInViewport()
  for (const bc of want.barcodes) await expect(row).toContainText(bc)
  if (want.umi !== undefined) await expect(row).toContainText(want.umi)
}

test('go to record: the last record shows its decoded barcode and UMI', async ({ page }) => {
  const exp = await open(page)
  const last = exp.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expectDecoded(page, exp, last)
  await expect(recordRow(page, last)).toHaveAttribute('aria-selected', 'true')
  // Out of range: a message, no jump.
  await page.getByTestId('goto-record').fill(String(exp.records))
  await page.getByTestId('goto-record').press('Enter')
  await expect(page.getByTestId('goto-message')).toContainText(exp.records.toLocaleString('en-US'))
})

test('keyboard: End, Home, arrows and page keys move through the records', async ({ page }) => {
  const exp = await open(page)
  const table = page.getByTestId('record-table')
  await table.focus()
  await page.keyboard.press('End')
  await expectDecoded(page, exp, exp.records - 1)
  await page.keyboard.press('Home')
  await expectDecoded(page, exp, 0)
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expect(recordRow(page, 2)).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('PageDown')
  const selected = Number(
    await page.locator('[data-testid="record-row"][aria-selected="true"]').getAttribute('data-record'),
  )
  expect(selected).toBeGreaterThan(10)
  await expectDecoded(page, exp, selected)
  await page.keyboard.press('PageUp')
  await expect(recordRow(page, 2)).toHaveAttribute('aria-selected', 'true')
})

test('End keeps the last record in view when a panel above the table grows', async ({ page }) => {
  const exp = await open(page)
  const last = exp.records - 1
  await page.getByTestId('record-table').focus()
  await page.keyboard.press('End')
  await expectDecoded(page, exp, last)
  // The table's view gets 60 px shorter, as when a banner or a panel above it grows.
  await page.getByTestId('stats-panel').evaluate((el) => {
    ;(el as HTMLElement).style.paddingBottom = '60px'
  })
  await expect(recordRow(page, last)).toBeInViewport({ ratio: 1 })
  await expect(recordRow(page, last)).toHaveAttribute('aria-selected', 'true')
})

test('a table scrolled to its end, no record selected, keeps the last one in view when a panel above it grows', async ({
  page,
}) => {
  const exp = await open(page)
  const last = exp.records - 1
  // As a drag of the scrollbar to its end (e2e/bigfile.spec.ts: the file's own scrollbar); the
  // table's height gains its last row once that is drawn, so the drag is repeated until it shows.
  await expect(async () => {
    await page.getByTestId('record-table').evaluate((el) => {
      el.scrollTop = el.scrollHeight - el.clientHeight
      el.scrollIntoView({ block: 'end' })
    })
    await expect(recordRow(page, last)).toBeInViewport({ ratio: 1, timeout: 1000 })
  }).toPass()
  await expectDecoded(page, exp, last)
  await expect(page.locator('[data-testid="record-row"][aria-selected="true"]')).toHaveCount(0)
  await page.getByTestId('stats-panel').evaluate((el) => {
    ;(el as HTMLElement).style.paddingBottom = '60px'
  })
  await expect(recordRow(page, last)).toBeInViewport({ ratio: 1 })
})

test('expanding a read shows its alignments with reference names and orientation', async ({ page }) => {
  const exp = await open(page)
  // A read with several alignments, some way into the file.
  let n = 3000
  while (exp.record(n).alignments.length < 3) n++
  const want = exp.record(n)
  await page.getByTestId('goto-record').fill(String(n))
  await page.getByTestId('goto-record').press('Enter')
  await expectDecoded(page, exp, n)
  await recordRow(page, n).click()
  const rows = page.locator(`[data-testid="alignment-row"][data-record="${String(n)}"]`)
  await expect(rows).toHaveCount(want.alignments.length)
  for (const [a, aln] of want.alignments.entries()) {
    const row = rows.nth(a)
    await expect(row).toContainText(aln.refName)
    await expect(row).toContainText(must(aln.ori))
  }
  await expect(recordRow(page, n)).toHaveAttribute('aria-expanded', 'true')
  // Enter on the selected read collapses it again.
  await page.keyboard.press('Enter')
  await expect(rows).toHaveCount(0)
  await page.keyboard.press('Enter')
  await expect(rows).toHaveCount(want.alignments.length)
  // The rows below an expanded read are still the right records.
  await expectDecoded(page, exp, n + 1)
})

test('go to chunk and the chunk list jump to a chunk’s first record', async ({ page }) => {
  const exp = await open(page)
  const first = (k: number): number => must(exp.scan.index.firstRecord[k])
  await page.getByTestId('goto-chunk').fill('2')
  await page.getByTestId('goto-chunk').press('Enter')
  await expectDecoded(page, exp, first(2))
  await expect(page.locator('[data-testid="chunk-row"][data-chunk="2"]')).toHaveAttribute('aria-selected', 'true')
  const row2 = recordRow(page, first(2))
  await expect(row2).toHaveAttribute('aria-selected', 'true')
  await expect(row2.locator('.cell').nth(1)).toHaveText('2')

  await page.locator('[data-testid="chunk-row"][data-chunk="3"]').click()
  await expectDecoded(page, exp, first(3))
  // The chunk list shows each chunk's offset, nbytes, nrec and first record.
  const chunk3 = page.locator('[data-testid="chunk-row"][data-chunk="3"]')
  for (const v of [exp.scan.index.offset[3], exp.scan.index.nbytes[3], exp.scan.index.nrec[3], first(3)]) {
    await expect(chunk3).toContainText(must(v).toLocaleString('en-US'))
  }
})
