import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FIXTURES, SAMPLE, expectedOfFile, expectAccessible, fmt, must, recordRow, tempDir } from './helpers'
import type { AxeExclusions } from './helpers'
import { startRangeServer } from '../test/helpers/rangeServer'

/**
 * axe-core finds no serious or critical violation on the landing page, on an open
 * file, and on a damaged file; the record table is a treegrid a keyboard and a screen reader
 * can follow.
 */
// Every rule counts, colour contrast included (app.css: ≥ 4.5:1 in both themes).
const EXCLUDED: AxeExclusions = {}

let tmp: ReturnType<typeof tempDir>

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

async function openSample(page: Page): Promise<void> {
  await page.goto('/')
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(recordRow(page, 0)).toContainText(/[ACGT]{8}/)
}

test('the landing page has no serious or critical axe violation', async ({ page }) => {
  await page.goto('/')
  await expect(page.getByTestId('drop-zone')).toBeVisible()
  await expectAccessible(page, 'landing page', EXCLUDED)
})

test('an open file (the sample), with a record expanded, has no serious or critical axe violation', async ({
  page,
}) => {
  await openSample(page)
  await recordRow(page, 0).click()
  await expect(page.getByTestId('alignment-row').first()).toBeVisible()
  await page.locator('.refs summary').click()
  await expectAccessible(page, 'open file', EXCLUDED)
})

test('in the dark theme, the landing page and an open file have no serious or critical axe violation', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'dark' })
  await page.goto('/')
  await expect(page.getByTestId('drop-zone')).toBeVisible()
  await expectAccessible(page, 'landing page (dark)', EXCLUDED)
  await openSample(page)
  await expectAccessible(page, 'open file (dark)', EXCLUDED)
})

test('the open-URL control, filled and after a refused URL, in both themes, has no serious or critical axe violation', async ({
  page,
}) => {
  const server = await startRangeServer({ '/map.rad': new Uint8Array(readFileSync(SAMPLE)) }, { cors: false })
  try {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme })
      await page.goto('/')
      await expect(page.getByRole('textbox', { name: /Open URL/ })).toBeVisible()
      await page.getByTestId('open-url').fill(server.url('/map.rad'))
      await expectAccessible(page, `open-URL control (${scheme})`, EXCLUDED)
      await page.getByTestId('open-url').press('Enter')
      await expect(page.getByTestId('error-banner')).toContainText('CORS')
      await expectAccessible(page, `URL refused (${scheme})`, EXCLUDED)
    }
  } finally {
    await server.close()
  }
})

test('the statistics panel, its plots and top lists open, has no serious or critical axe violation, light and dark', async ({
  page,
}) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await openSample(page)
    await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done')
    await page.getByText('Plots and top lists').click()
    await expect(page.getByTestId('knee-plot').locator('canvas')).toBeVisible()
    await expectAccessible(page, `statistics panel (${scheme})`, EXCLUDED)
  }
})

test('a damaged file has no serious or critical axe violation', async ({ page }) => {
  const source = `${FIXTURES}/rad-chromium-v3-small.rad`
  const whole = await expectedOfFile(source)
  // Cut the file 5,000 bytes into chunk 2: banner, integrity panel and two browsable chunks.
  const cutAt = (whole.scan.index.offset[2] ?? 0) + 5000
  const path = join(tmp.dir, 'truncated.rad')
  writeFileSync(path, new Uint8Array(readFileSync(source)).slice(0, cutAt))
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
  await expect(page.getByTestId('error-banner')).toBeVisible()
  await expect(recordRow(page, 0)).toContainText(/[ACGT]{8}/)
  await expectAccessible(page, 'damaged file', EXCLUDED)
})

test('the keyboard: the table follows the cursor for a screen reader, → and ← expand and collapse', async ({
  page,
}) => {
  const exp = await expectedOfFile(SAMPLE)
  await openSample(page)
  const table = page.getByRole('treegrid', { name: 'Records' })
  await expect(table).toHaveAttribute('aria-rowcount', String(exp.records + 1))
  await table.focus()
  // The first record with several alignments, among the first rows.
  let n = 0
  while (exp.record(n).alignments.length < 2) n++
  for (let i = 0; i < n; i++) await page.keyboard.press('ArrowDown')
  const row = recordRow(page, n)
  await expect(row).toHaveAttribute('aria-selected', 'true')
  await expect(table).toHaveAttribute('aria-activedescendant', must(await row.getAttribute('id'), 'the row id'))
  await expect(row).toHaveAttribute('aria-level', '1')
  await expect(row).toHaveAttribute('aria-expanded', 'false')

  const alignments = page.locator(`[data-testid="alignment-row"][data-record="${String(n)}"]`)
  await page.keyboard.press('ArrowRight')
  await expect(row).toHaveAttribute('aria-expanded', 'true')
  await expect(alignments).toHaveCount(exp.record(n).alignments.length)
  await expect(alignments.first()).toHaveAttribute('aria-level', '2')
  await expect(table).toHaveAttribute('aria-rowcount', String(exp.records + 1 + exp.record(n).alignments.length))
  // → again keeps it open; ← closes it.
  await page.keyboard.press('ArrowRight')
  await expect(alignments).toHaveCount(exp.record(n).alignments.length)
  await page.keyboard.press('ArrowLeft')
  await expect(row).toHaveAttribute('aria-expanded', 'false')
  await expect(alignments).toHaveCount(0)
})

test('the keyboard reaches the chunk list, whose arrows select a chunk and jump the table there', async ({ page }) => {
  const exp = await expectedOfFile(SAMPLE)
  expect(exp.chunks).toBeGreaterThan(2)
  await openSample(page)
  const list = page.getByRole('listbox', { name: 'Chunks' })
  await list.focus()
  await expect(list).toBeFocused()
  // The table's cursor starts at record 0, so chunk 0 is selected.
  await expect(page.locator('[data-testid="chunk-row"][data-chunk="0"]')).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('ArrowDown')
  const chunk1 = page.locator('[data-testid="chunk-row"][data-chunk="1"]')
  await expect(chunk1).toHaveAttribute('aria-selected', 'true')
  await expect(list).toHaveAttribute('aria-activedescendant', must(await chunk1.getAttribute('id'), 'the option id'))
  await expect(chunk1).toHaveAccessibleName(
    `chunk 1 offset ${fmt(must(exp.scan.index.offset[1]))} nbytes ${fmt(must(exp.scan.index.nbytes[1]))} nrec ${fmt(must(exp.scan.index.nrec[1]))} first record ${fmt(must(exp.scan.index.firstRecord[1]))}`,
  )
  await expect(recordRow(page, must(exp.scan.index.firstRecord[1]))).toHaveAttribute('aria-selected', 'true')
  await page.keyboard.press('End')
  const last = page.locator(`[data-testid="chunk-row"][data-chunk="${String(exp.chunks - 1)}"]`)
  await expect(last).toHaveAttribute('aria-selected', 'true')
})

test('indexing is announced politely and ends with "Indexed"; the file input is not a second button', async ({
  page,
}) => {
  await page.goto('/')
  await expect(page.getByRole('button', { name: /open/i })).toHaveCount(1)
  await page.getByRole('button', { name: 'Try a sample' }).click()
  const announcement = page.getByTestId('index-announcement')
  await expect(announcement).toHaveAttribute('role', 'status')
  await expect(announcement).toHaveText('Indexed')
  await expect(page.getByRole('progressbar', { name: 'Indexing sample.rad' })).toHaveAttribute('aria-valuenow', '100')
})

test('the filter bar and its results have no serious or critical axe violation, light and dark', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await openSample(page)
    await page.getByTestId('filter-ref').fill('GENE00059')
    await page.getByTestId('filter-ref').press('Enter')
    await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
    await expect(page.getByTestId('filter-result').first()).toBeVisible()
    await expectAccessible(page, `filter results (${scheme})`, EXCLUDED)
    // A filter the file cannot answer: the message is read out too.
    await page.getByTestId('filter-barcode').fill('ACGT')
    await page.getByTestId('filter-barcode').press('Enter')
    await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'error')
    await expectAccessible(page, `filter error (${scheme})`, EXCLUDED)
  }
})

test('the start page with recent files and a pending link, light and dark, has no serious or critical axe violation', async ({
  page,
}) => {
  await openSample(page)
  await expect(page.getByTestId('copy-link')).toBeVisible()
  // The address carries the file's fingerprint once it is known (written with a throttle): only
  // then does a reload leave a link pending. Under load the reload could come first.
  await expect.poll(() => new URL(page.url()).hash, { timeout: 15_000 }).toContain('fp=')
  await page.reload()
  await expect(page.getByTestId('recent-file').first()).toBeVisible()
  await expect(page.getByTestId('link-pending')).toBeVisible()
  await expectAccessible(page, 'start page with recent files', EXCLUDED)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectAccessible(page, 'start page with recent files (dark)', EXCLUDED)
})

test('the export dialog (choices, a disabled one with its reason, the summary) has no serious or critical axe violation, light and dark', async ({
  page,
}) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker
  })
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await openSample(page)
    await page.getByTestId('export-button').click()
    await expect(page.getByTestId('export-dialog')).toBeVisible()
    await expect(page.getByTestId('export-pick-filter')).toBeDisabled()
    await expectAccessible(page, `export dialog (${scheme})`, EXCLUDED)
    await page.getByTestId('export-pick-chunks').check()
    await page.getByTestId('export-format-tsv').check()
    const download = page.waitForEvent('download')
    await page.getByTestId('export-start').click()
    await download
    await expect(page.getByTestId('export-summary')).toBeVisible()
    await expectAccessible(page, `export summary (${scheme})`, EXCLUDED)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('export-dialog')).toBeHidden()
    await expect(page.getByTestId('export-button')).toBeFocused()
  }
})

test('the start page with recent files and the cached-indexes control has no serious or critical axe violation', async ({
  page,
}) => {
  await openSample(page)
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await page.goto('/')
  await expect(page.getByTestId('clear-cache')).toBeEnabled()
  await expectAccessible(page, 'start page with recent files', EXCLUDED)
  await page.emulateMedia({ colorScheme: 'dark' })
  await expectAccessible(page, 'start page with recent files (dark)', EXCLUDED)
  await page.getByTestId('clear-cache').click()
  await expect(page.getByTestId('clear-cache')).toBeDisabled()
  await expectAccessible(page, 'start page, cache cleared (dark)', EXCLUDED)
})
