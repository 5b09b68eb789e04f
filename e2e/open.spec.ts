import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FIXTURES, SAMPLE, armFirstRowTimer, dropFile, expectedOfFile, must, recordRow, report } from './helpers'
import type { Expected } from './helpers'

async function expectRecordShown(page: Page, exp: Expected, n: number): Promise<void> {
  const want = exp.record(n)
  const row = recordRow(page, n)
  for (const bc of want.barcodes) await expect(row).toContainText(bc)
  if (want.umi !== undefined) await expect(row).toContainText(want.umi)
}

test('the sample opens and its header figures show', async ({ page }) => {
  const exp = await expectedOfFile(SAMPLE)
  await page.goto('/')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'idle')
  await expect(page.getByTestId('drop-zone')).toBeVisible()
  await expect(page.getByTestId('privacy-note')).toContainText('nothing is uploaded')
  const firstRow = await armFirstRowTimer(page, true)
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stat-chunks')).toHaveAttribute('data-value', String(exp.chunks))
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))

  const p = exp.prelude
  await expect(page.getByTestId('file-name')).toHaveText('sample.rad')
  await expect(page.getByTestId('file-version')).toContainText(
    p.version[0] === 0 ? 'legacy' : `${String(p.version[0])}.`,
  )
  await expect(page.getByTestId('file-paired')).toHaveText(p.paired ? 'yes (paired-end)' : 'no')
  await expect(page.getByTestId('ref-count')).toHaveText(p.refCount.toLocaleString('en-US'))
  await expect(page.getByTestId('file-num-chunks')).toHaveText(
    `${String(p.numChunks)} stored · ${String(exp.chunks)} found`,
  )
  await expect(page.getByTestId('file-codec')).toContainText(p.codec)
  await expect(page.getByTestId('file-convention')).toContainText('includes the 8-byte chunk header')
  const schemas = page.getByTestId('tag-schemas')
  for (const tag of [...p.fileTags, ...p.readTags, ...p.alnTags]) await expect(schemas).toContainText(tag.name)
  const values = page.getByTestId('file-tag-values')
  for (const [i, tag] of p.fileTags.entries()) {
    await expect(values).toContainText(`${tag.name}${String(p.fileTagValues[i])}`)
  }

  // The reference list is searchable.
  await page.getByRole('heading', { name: /^References/ }).click()
  await page.getByTestId('ref-search').fill('GENE00104')
  const matching = p.refNames.filter((n) => n.includes('GENE00104'))
  await expect(page.getByTestId('ref-list').locator('li')).toHaveCount(matching.length)
  await expect(page.getByTestId('ref-list')).toContainText(must(matching[0]))

  await expectRecordShown(page, exp, 0)
  report('Try a sample click → first decoded row', await firstRow())
})

test('a salmon fixture opens through the file input', async ({ page }) => {
  const path = `${FIXTURES}/rad-chromium-v2-small.rad`
  const exp = await expectedOfFile(path)
  await page.goto('/')
  const firstRow = await armFirstRowTimer(page)
  await page.getByTestId('file-input').setInputFiles(path)
  await expectRecordShown(page, exp, 0)
  report('file input → first decoded row', await firstRow())
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stat-chunks')).toHaveAttribute('data-value', String(exp.chunks))
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))
  await expect(page.getByTestId('file-name')).toHaveText('rad-chromium-v2-small.rad')
  // v2 chemistry: 10-nt UMIs, read from the ulen file tag.
  await expect(page.getByTestId('file-panel')).toContainText('10 nt — file tag ulen')
  for (const n of [1, 2, 17]) await expectRecordShown(page, exp, n)
})

test('a salmon fixture opens through a drop event', async ({ page }) => {
  const path = `${FIXTURES}/sketch-chromium-v3-small.rad`
  const exp = await expectedOfFile(path)
  await page.goto('/')
  // A visible drop target appears while a file is dragged over the page.
  await page.evaluate(() => {
    const dt = new DataTransfer()
    dt.items.add(new File(['x'], 'x.rad'))
    document.body.dispatchEvent(new DragEvent('dragenter', { bubbles: true, cancelable: true, dataTransfer: dt }))
  })
  await expect(page.getByTestId('drop-overlay')).toBeVisible()
  const firstRow = await armFirstRowTimer(page)
  await dropFile(page, new Uint8Array(readFileSync(path)), 'sketch-chromium-v3-small.rad')
  await expect(page.getByTestId('drop-overlay')).toBeHidden()
  await expectRecordShown(page, exp, 0)
  report('drop → first decoded row', await firstRow())
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stat-chunks')).toHaveAttribute('data-value', String(exp.chunks))
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))
  await expect(page.getByTestId('file-name')).toHaveText('sketch-chromium-v3-small.rad')
})
