import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { BytesSource } from '../src/io/byteSource'
import { openRad } from '../src/io/openRad'
import { scanChunks } from '../src/io/scanChunks'
import { chunkSpan } from '../src/rad/decode/chunk'
import { decodeChunk } from '../src/rad/decode/decodeChunk'
import { alignmentView, recordView } from '../src/rad/text/display'
import { inferSemantics } from '../src/rad/prelude/semantics'
import { SAMPLE, recordRow } from './helpers'

/**
 * The filter bar (docs/subsets.md, "Selections") on the sample: the answers are worked out here
 * from the decoded text of every record (no filter code), then the page must
 * find the same record numbers through its decode workers.
 */
interface TextRecord {
  barcode: string
  refs: string[]
}

async function sampleRecords(): Promise<TextRecord[]> {
  const bytes = new Uint8Array(readFileSync(SAMPLE))
  const { source, prelude } = await openRad(new BytesSource(bytes, 'sample.rad'))
  const sem = inferSemantics(prelude)
  const scan = await scanChunks(source, prelude)
  const out: TextRecord[] = []
  for (let k = 0; k < scan.index.count; k++) {
    const offset = scan.index.offset[k] ?? 0
    const span = chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention)
    const cols = decodeChunk(bytes.subarray(offset, offset + span), offset, k, prelude, scan.convention)
    for (let r = 0; r < cols.recordCount; r++) {
      const view = recordView(cols, r, prelude, sem)
      const refs: string[] = []
      for (let a = 0; a < view.naln; a++) {
        refs.push(alignmentView(cols, (cols.alnStart[r] ?? 0) + a, prelude, sem).refName)
      }
      out.push({ barcode: view.barcodes[0] ?? '', refs })
    }
  }
  return out
}

async function openSample(page: Page): Promise<void> {
  await page.goto('/')
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(recordRow(page, 0)).toContainText(/[ACGT]{8}/)
  // Open on a wide screen; its toggle folds it away, and opening it again focuses its first field.
  const toggle = page.getByTestId('filter-toggle')
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await toggle.click()
  await expect(page.getByTestId('filter-panel')).toHaveCount(0)
  await toggle.click()
  await expect(toggle).toHaveAttribute('aria-expanded', 'true')
  await expect(page.getByTestId('filter-barcode')).toBeFocused()
}

test('a barcode filter finds every record of that barcode; a click jumps to the record in the table', async ({
  page,
}) => {
  const records = await sampleRecords()
  // A barcode seen late in the file too, so the jump has somewhere to go.
  const barcode = records[records.length - 1]?.barcode ?? ''
  const want = records.flatMap((r, i) => (r.barcode === barcode ? [i] : []))
  expect(want.length).toBeGreaterThan(0)
  await openSample(page)
  await page.getByTestId('filter-barcode').fill(barcode)
  await page.getByTestId('filter-barcode').press('Enter')
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('filter-count')).toHaveAttribute('data-value', String(want.length))
  const results = page.getByTestId('filter-result')
  await expect(results.first()).toHaveAttribute('data-record', String(want[0]))
  const last = want[want.length - 1] ?? 0
  await page.getByTestId('filter-results').evaluate((el) => {
    el.scrollTop = el.scrollHeight
  })
  const lastResult = page.locator(`[data-testid="filter-result"][data-record="${String(last)}"]`)
  await lastResult.click()
  await expect(recordRow(page, last)).toHaveAttribute('aria-selected', 'true')
  await expect(recordRow(page, last)).toContainText(barcode)
})

test('a reference filter and one mismatch: the same counts as the decoded text', async ({ page }) => {
  const records = await sampleRecords()
  const ref = records[0]?.refs[0] ?? ''
  const wantRef = records.filter((r) => r.refs.includes(ref)).length
  await openSample(page)
  await page.getByTestId('filter-ref').fill(ref)
  await page.getByTestId('filter-ref').press('Enter')
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('filter-count')).toHaveAttribute('data-value', String(wantRef))

  const barcode = records[0]?.barcode ?? ''
  const near = (b: string): boolean => b.split('').filter((c, i) => c !== barcode[i]).length <= 1
  const wantNear = records.filter((r) => near(r.barcode) && r.refs.includes(ref)).length
  await page.getByTestId('filter-barcode').fill(barcode)
  await page.getByTestId('filter-hamming').check()
  await page.getByTestId('filter-run').click()
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('filter-count')).toHaveAttribute('data-value', String(wantNear))
})

test('a barcode of the wrong length says why, and nothing runs', async ({ page }) => {
  await openSample(page)
  await page.getByTestId('filter-barcode').fill('ACGT')
  await page.getByTestId('filter-barcode').press('Enter')
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'error')
  await expect(page.getByTestId('filter-status')).toContainText('has 4 bases')
})
