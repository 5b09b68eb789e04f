import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { buildRad, tag } from '../test/helpers/radWriter'
import { FIXTURES, expectedOf, expectedOfFile, fmt, must, recordRow, statValue, tempDir } from './helpers'

let tmp: ReturnType<typeof tempDir>

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

test('a truncated file shows the error banner with the byte offset; the valid chunks stay browsable', async ({
  page,
}) => {
  const whole = await expectedOfFile(`${FIXTURES}/rad-chromium-v3-small.rad`)
  // Cut the file 5,000 bytes into chunk 2.
  const cutAt = (whole.scan.index.offset[2] ?? 0) + 5000
  const bytes = new Uint8Array(readFileSync(`${FIXTURES}/rad-chromium-v3-small.rad`)).slice(0, cutAt)
  const path = join(tmp.dir, 'truncated.rad')
  writeFileSync(path, bytes)
  const exp = await expectedOf(bytes, path)
  const error = exp.scan.error
  expect(error?.code).toBe('TRUNCATED')
  const offset = error?.offset ?? -1
  expect(exp.chunks).toBe(2)

  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
  const banner = page.getByTestId('error-banner')
  await expect(banner).toBeVisible()
  await expect(banner).toHaveAttribute('data-code', 'TRUNCATED')
  await expect(banner).toHaveAttribute('data-offset', String(offset))
  await expect(banner).toContainText(`at byte ${fmt(offset)}`)
  await expect(banner).toContainText('2 intact chunks')

  // Everything before the cut is browsable.
  expect(await statValue(page, 'chunks')).toBe(2)
  expect(await statValue(page, 'records')).toBe(exp.records)
  const last = exp.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, last)).toContainText(must(whole.record(last).umi))
  await page.getByTestId('goto-chunk').fill('1')
  await page.getByTestId('goto-chunk').press('Enter')
  const first1 = must(exp.scan.index.firstRecord[1])
  await expect(recordRow(page, first1)).toContainText(must(whole.record(first1).barcodes[0]))
  await recordRow(page, first1).click()
  await expect(page.locator(`[data-testid="alignment-row"][data-record="${String(first1)}"]`)).toHaveCount(
    whole.record(first1).alignments.length,
  )
})

test('a file that is not RAD at all is named as such', async ({ page }) => {
  const path = join(tmp.dir, 'reads.fastq.gz')
  writeFileSync(path, Uint8Array.of(0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0, 0xff, 1, 2, 3, 4, 5, 6, 7, 8, 9))
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
  const banner = page.getByTestId('error-banner')
  await expect(banner).toHaveAttribute('data-code', 'NOT_RAD')
  await expect(banner).toContainText('gzip')
  await expect(banner).toContainText('at byte 0')
  await expect(page.getByTestId('record-row')).toHaveCount(0)
})

test('an empty file says so', async ({ page }) => {
  const path = join(tmp.dir, 'empty.rad')
  writeFileSync(path, new Uint8Array(0))
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
  await expect(page.getByTestId('error-banner')).toContainText('empty')
})

test('a newer chunk codec: the header and every chunk are shown, each chunk says it cannot be decoded', async ({
  page,
}) => {
  const { bytes } = buildRad({
    fileTags: [tag('chunk_codec', 'u8')],
    fileValues: [9],
    readTags: [tag('b', 'u32')],
    alnTags: [],
    chunks: [0, 1, 2, 3].map((k) => ({
      records: [
        { read: [k], alns: [] },
        { read: [k + 10], alns: [] },
      ],
    })),
  })
  const path = join(tmp.dir, 'newer-codec.rad')
  writeFileSync(path, bytes)

  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('file-codec')).toContainText('unknown')
  expect(await statValue(page, 'chunks')).toBe(4)
  expect(await statValue(page, 'records')).toBe(8)
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'damaged')
  await expect(page.locator('[data-testid="integrity-issue"][data-kind="unknown-codec"]')).toContainText(
    'chunk_codec" is 9',
  )
  await expect(recordRow(page, 0)).toContainText('chunk 0 could not be decoded')
  await expect(recordRow(page, 0)).toContainText('codec this reader does not know')
})
