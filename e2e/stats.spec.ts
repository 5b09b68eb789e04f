import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FIXTURES, SAMPLE, must } from './helpers'

/**
 * The statistics panel (docs/stats.md): the page's JSON, computed in the decode
 * workers, is the CLI's `stats --json` exactly; the figures carry its values;
 * the knee plot, its cut-off and the click-through work.
 */
const FILES = [SAMPLE, `${FIXTURES}/rad-chromium-v3-small.rad`, `${FIXTURES}/rad-chromium-v2-small.rad`]

function cliStats(path: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ['bin/rad.mjs', 'stats', path, '--json'], { encoding: 'utf8' }))
}

async function openDone(page: Page, path: string): Promise<void> {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
}

async function pageJson(page: Page): Promise<Record<string, unknown>> {
  const download = page.waitForEvent('download')
  await page.getByTestId('stats-save-json').click()
  const path = must(await (await download).path(), 'the downloaded JSON')
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
}

for (const file of FILES) {
  test(`the page and the CLI give identical statistics JSON: ${file}`, async ({ page }) => {
    await openDone(page, file)
    const json = await pageJson(page)
    expect(json).toEqual(cliStats(file))
    const umis = json.umis as { distinct_pairs: number; sequencing_saturation: number } | null
    const barcodes = json.barcodes as { distinct: number } | null
    await expect(page.getByTestId('stat-knee')).toHaveAttribute(
      'data-value',
      String((json.knee as number | null) ?? ''),
    )
    await expect(page.getByTestId('stat-distinct-barcodes')).toHaveAttribute(
      'data-value',
      String(barcodes?.distinct ?? ''),
    )
    await expect(page.getByTestId('stat-umi-pairs')).toHaveAttribute('data-value', String(umis?.distinct_pairs ?? ''))
    await expect(page.getByTestId('stat-saturation')).toHaveAttribute(
      'data-value',
      String(umis?.sequencing_saturation ?? ''),
    )
  })
}

test('the knee plot draws, its cut-off moves, and a top barcode opens a filter for its reads', async ({ page }) => {
  await openDone(page, SAMPLE)
  await page.getByText('Plots and top lists').click()
  const plot = page.getByTestId('knee-plot')
  await expect(plot.locator('canvas')).toBeVisible()
  const summary = page.getByTestId('stats-cutoff-summary')
  const knee = must(await page.getByTestId('stat-knee').getAttribute('data-value'))
  await expect(summary).toHaveAttribute('data-cells', knee)
  // Drag on the plot: far left keeps the top barcode only (the panel scrolls: the plot in view first).
  await plot.scrollIntoViewIfNeeded()
  const box = must(await plot.locator('.u-over').boundingBox())
  await page.mouse.move(box.x + 1, box.y + box.height / 2)
  await page.mouse.down()
  await page.mouse.up()
  await expect(summary).toHaveAttribute('data-cells', '1')
  // The keyboard: the slider's End is every barcode.
  await page.getByTestId('stats-cutoff').focus()
  await page.keyboard.press('End')
  const distinct = must(await page.getByTestId('stat-distinct-barcodes').getAttribute('data-value'))
  await expect(summary).toHaveAttribute('data-cells', distinct)

  const top = page.getByTestId('stats-top-barcodes').locator('li').first()
  const seq = must(await top.getAttribute('data-key'))
  const reads = Number(must(await top.getAttribute('data-value')))
  // A top barcode opens a filter for it: its reads are the matches, and the first one opens in the table.
  await top.getByRole('button').click()
  await expect(page.getByTestId('filter-barcode')).toHaveValue(seq)
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('filter-count')).toHaveAttribute('data-value', String(reads))
  await page.getByTestId('filter-result').first().click()
  const selected = page.locator('[data-testid="record-row"][aria-selected="true"]')
  await expect(selected).toContainText(seq)
})
