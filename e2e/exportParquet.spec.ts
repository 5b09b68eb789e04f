import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { parquetMetadata, readParquet } from '../test/helpers/duck'
import { SAMPLE, must, tempDir } from './helpers'

/**
 * The page's Export… offers Parquet (docs/engines.md, ADR 0012): the export
 * worker writes it with the same core as `rad export`, and DuckDB reads the
 * page's file equal to the CLI's, row for row, metadata included.
 */
function cli(...args: string[]): Buffer {
  return execFileSync(process.execPath, ['bin/rad.mjs', ...args], { maxBuffer: 256 << 20 })
}

test('a barcode filter exported as Parquet: DuckDB reads it equal to rad export’s', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker
  })
  const barcode = 'CTACGACAGACCAAGT'
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(SAMPLE)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await page.getByTestId('filter-barcode').fill(barcode)
  await page.getByTestId('filter-barcode').press('Enter')
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
  await page.getByTestId('export-button').click()
  await expect(page.getByTestId('export-pick-filter')).toBeChecked()
  await page.getByTestId('export-format-parquet').check()
  const download = page.waitForEvent('download')
  await page.getByTestId('export-start').click()
  const d = await download
  expect(d.suggestedFilename()).toBe('sample.subset.parquet')
  const bytes = readFileSync(must(await d.path(), 'the downloaded export'))
  await expect(page.getByTestId('export-summary')).toHaveAttribute('data-bytes', String(bytes.length))

  const { dir, remove } = tempDir()
  try {
    const pageOut = join(dir, 'page.parquet')
    writeFileSync(pageOut, bytes)
    const cliOut = join(dir, 'cli.parquet')
    cli('export', SAMPLE, cliOut, '--barcode', barcode)
    const [pageRows, cliRows] = [await readParquet(pageOut), await readParquet(cliOut)]
    expect(pageRows.length).toBeGreaterThan(0)
    expect(pageRows).toEqual(cliRows)
    expect(pageRows.every((r) => r.barcode === barcode)).toBe(true)
    expect(await parquetMetadata(pageOut)).toEqual(await parquetMetadata(cliOut))
    await expect(page.getByTestId('export-summary')).toHaveAttribute(
      'data-records',
      String(new Set(cliRows.map((r) => r.record)).size),
    )
  } finally {
    remove()
  }
})

test('a chunk range exported as Parquet: equal to rad export --chunks', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker
  })
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(SAMPLE)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await page.getByTestId('export-button').click()
  await page.getByTestId('export-pick-chunks').check()
  await page.getByTestId('export-from').fill('1')
  await page.getByTestId('export-to').fill('2')
  await page.getByTestId('export-format-parquet').check()
  const download = page.waitForEvent('download')
  await page.getByTestId('export-start').click()
  const bytes = readFileSync(must(await (await download).path(), 'the downloaded export'))
  const { dir, remove } = tempDir()
  try {
    const pageOut = join(dir, 'page.parquet')
    writeFileSync(pageOut, bytes)
    const cliOut = join(dir, 'cli.parquet')
    cli('export', SAMPLE, cliOut, '--chunks', '1-2')
    const [pageRows, cliRows] = [await readParquet(pageOut), await readParquet(cliOut)]
    expect(pageRows.length).toBeGreaterThan(0)
    expect(pageRows).toEqual(cliRows)
    expect(new Set(pageRows.map((r) => r.chunk))).toEqual(new Set([1, 2]))
  } finally {
    remove()
  }
})
