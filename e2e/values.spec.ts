/**
 * "Dark theme and readable values": placeholders, explained columns, reference labels,
 * copying a barcode, honest figures, the drop area, dropped folders and several files, non-RAD
 * files, and a cancel before the header. Expected values come from the core (src/rad/text/display.ts).
 */
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { placeholderReason, refLabel } from '../src/rad/text/display'
import { bulk } from '../test/helpers/assays'
import type { BulkRead } from '../test/helpers/assays'
import { radBytes } from '../test/helpers/radWriter'
import { SAMPLE, dropFile, dropFolder, must, recordRow, tempDir, openPath } from './helpers'

const GENCODE = 'ENST00000456328.2|ENSG00000290825.1|-|-|DDX11L2-202|DDX11L2|1657|lncRNA|'

/** A single-end read with both placeholders, then a pair with real values (docs/format.md §7.4). */
const READS: BulkRead[] = [
  { mappingType: 1, alns: [{ ref: 0, readFw: true, mateFw: false, pos: 4294967295, fragLen: 65535 }] },
  { mappingType: 4, alns: [{ ref: 1, readFw: true, mateFw: false, pos: 200, fragLen: 301 }] },
]

function placeholderFile(): Uint8Array {
  return radBytes({ ...bulk(true, READS), refs: [GENCODE, 'chr1'] })
}

let tmp: ReturnType<typeof tempDir>

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

test('"not available" values show as — with the reason; real values as numbers', async ({ page }) => {
  await openPath(page, tmp.write('bulk.rad', placeholderFile()))
  await recordRow(page, 0).click()
  const aln = page.locator('[data-testid="alignment-row"][data-record="0"]')
  const marks = aln.getByTestId('placeholder')
  await expect(marks).toHaveCount(2)
  await expect(marks.nth(0)).toHaveText('—')
  await expect(marks.nth(0)).toHaveAttribute('title', must(placeholderReason('position', 4294967295)))
  await expect(marks.nth(1)).toHaveAttribute('title', must(placeholderReason('fragmentLength', 65535)))
  await expect(aln).not.toContainText('65,535')
  await recordRow(page, 1).click()
  const pair = page.locator('[data-testid="alignment-row"][data-record="1"]')
  await expect(pair).toContainText('pos 200')
  await expect(pair).toContainText('frag len 301')
  await expect(pair.getByTestId('placeholder')).toHaveCount(0)
})

test('GENCODE names keep the gene visible, the full name on hover', async ({ page }) => {
  await openPath(page, tmp.write('bulk.rad', placeholderFile()))
  const preview = recordRow(page, 0).locator('.preview')
  await expect(preview).toContainText(refLabel(GENCODE).short)
  await expect(preview).toHaveAttribute('title', GENCODE)
  await recordRow(page, 0).click()
  const ref = page.locator('[data-testid="alignment-row"][data-record="0"] .ref')
  await expect(ref).toHaveText(/^DDX11L2 · ENST00000456328\.2$/)
  await expect(ref).toHaveAttribute('title', new RegExp(`^${GENCODE.replace(/[|.]/g, '\\$&')}`))
})

test('badges, columns and roles are explained; the help panel opens from the top bar', async ({ page }) => {
  await openPath(page, tmp.write('bulk.rad', placeholderFile()))
  await expect(recordRow(page, 0).locator('.ori')).toHaveAttribute('title', /forward strand/)
  await expect(page.getByRole('columnheader', { name: 'Aln' })).toHaveAttribute('title', /alignments/)
  const chunkHead = page.locator('.chunk-head span')
  await expect(chunkHead.filter({ hasText: 'offset' })).toHaveAttribute('title', /bytes, counted from 0/)
  await expect(chunkHead.filter({ hasText: 'nrec' })).toHaveAttribute('title', /Records/)
  await expect(chunkHead.filter({ hasText: 'first rec' })).toHaveAttribute('title', /first record/)
  const schemas = page.getByTestId('tag-schemas')
  await expect(schemas).toContainText('MappingType')
  await expect(schemas).not.toContainText('mappingType')
  await expect(schemas.locator('th', { hasText: 'Read as' }).first()).toHaveAttribute('title', /viewer reads/)
  await recordRow(page, 1).click()
  await expect(page.locator('[data-testid="alignment-row"][data-record="1"] .ori')).toHaveAttribute(
    'title',
    /read 1 forward and read 2 reverse/,
  )
  await expect(page.locator('.field-label', { hasText: 'pos' }).first()).toHaveAttribute('title', /0-based/)

  await expect(page.getByTestId('help')).toHaveCount(0)
  await page.getByTestId('help-toggle').click()
  const help = page.getByTestId('help')
  await expect(help).toBeVisible()
  await expect(help).toContainText('What am I looking at?')
  for (const term of ['fw', 'rc', 'ff', 'fr', 'rf', 'rr', 'Aln', 'nbytes', 'first rec', 'Read as']) {
    await expect(help.locator('dt', { hasText: new RegExp(`^${term}$`) })).toHaveCount(1)
  }
  await help.getByTestId('help-close').click()
  await expect(page.getByTestId('help')).toHaveCount(0)
})

test('double-clicking a barcode selects it and does not expand the row', async ({ page }) => {
  await openPath(page, SAMPLE)
  const row = recordRow(page, 0)
  const barcode = row.locator('.seq').first()
  await expect(barcode).toHaveText(/^[ACGT]{16}$/)
  await barcode.dblclick()
  // Longer than the row's wait for a second click.
  await page.waitForTimeout(600)
  await expect(row).toHaveAttribute('aria-expanded', 'false')
  expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(await barcode.textContent())
  // A single click on the barcode still expands, after the double-click wait.
  await barcode.click()
  await expect(row).toHaveAttribute('aria-expanded', 'true')
})

test('a tiny file shows no rate, and its time counts from the drop', async ({ page }) => {
  await page.goto('/')
  await dropFile(page, new Uint8Array(readFileSync(SAMPLE)), 'sample.rad')
  const status = page.getByTestId('index-status')
  await expect(status).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stat-rate')).toHaveCount(0)
  await expect(status).not.toContainText('/s')
  await expect(page.getByTestId('stat-time')).toHaveText(/^\d+\.\d s$/)
})

test('the drop area opens the file chooser, and says "tap" on touch screens', async ({ page, browser }) => {
  await page.goto('/')
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('drop-zone').click()])
  await chooser.setFiles(SAMPLE)
  await expect(recordRow(page, 0)).toBeVisible()

  const touch = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 800 } })
  const phone = await touch.newPage()
  await phone.goto('/')
  await expect(phone.getByTestId('drop-zone').locator('.pointer-coarse')).toBeVisible()
  await expect(phone.getByTestId('drop-zone').locator('.pointer-coarse')).toContainText('choose')
  await expect(phone.getByTestId('drop-zone').locator('.pointer-fine')).toBeHidden()
  await touch.close()
})

const b64 = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64')

test('a dropped folder is named a folder; its RAD file opens and its JSON sidecars show', async ({ page }) => {
  await page.goto('/')
  await dropFolder(page, 'piscem_out', [
    { path: 'map.rad', b64: b64(readFileSync(SAMPLE)) },
    { path: 'map_info.json', b64: b64('{"num_processed":1000,"num_mapped":900}') },
    { path: 'aux_info/meta_info.json', b64: b64('{"salmon_version":"1.10.0"}') },
    { path: 'unmapped_bc_count.bin', b64: b64(new Uint8Array(12)) },
  ])
  const choice = page.getByTestId('drop-choice')
  await expect(choice).toHaveAttribute('data-kind', 'folder')
  await expect(choice).toContainText('You dropped a folder, piscem_out; opened map.rad.')
  await expect(recordRow(page, 0)).toBeVisible()
  await expect(page.getByTestId('index-status')).toContainText('map.rad')
  const sidecars = choice.getByTestId('sidecar')
  await expect(sidecars).toHaveCount(2)
  await expect(sidecars.nth(0)).toHaveAttribute('data-path', 'aux_info/meta_info.json')
  await sidecars.nth(1).locator('summary').click()
  await expect(sidecars.nth(1)).toContainText('"num_mapped": 900')
  // Each file of the run is said for what it is; the unmapped barcodes are no annotation file.
  await expect(sidecars.nth(1).locator('summary')).toContainText('piscem’s run statistics')
  await expect(choice.getByTestId('run-file')).toHaveAttribute('data-path', 'unmapped_bc_count.bin')
  await expect(choice.getByTestId('run-file')).toContainText('barcodes of reads that did not map')
  await expect(page.getByTestId('summary-mapping-rate')).toHaveAttribute('data-value', '0.9', { timeout: 30_000 })
  await expect(page.getByTestId('cells-section')).toHaveCount(0)
  await expect(page.getByTestId('error-banner')).toHaveCount(0)
})

test('a folder of several RAD files offers them; one without says so', async ({ page }) => {
  await page.goto('/')
  const sample = b64(readFileSync(SAMPLE))
  await dropFolder(page, 'af_out', [
    { path: 'map.rad', b64: sample },
    { path: 'map.collated.rad', b64: sample },
  ])
  const choice = page.getByTestId('drop-choice')
  await expect(choice).toContainText('You dropped a folder, af_out: 2 RAD files, side by side below.')
  await expect(page.getByTestId('file-view')).toHaveCount(0)
  await choice.locator('[data-testid="drop-candidate"][data-path="map.rad"]').click()
  await expect(recordRow(page, 0)).toBeVisible()
  await expect(choice).toContainText('opened map.rad')

  await dropFolder(page, 'empty_out', [{ path: 'notes.txt', b64: b64('hello') }])
  await expect(choice).toContainText('You dropped a folder, empty_out. It holds no RAD file')
})

test('dropping several files, two of them RAD files: a study of the two, and each can be opened', async ({ page }) => {
  await page.goto('/')
  await page.evaluate(
    async ({ b64 }) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))
      const dt = new DataTransfer()
      dt.items.add(new File(['x'], 'readme.txt'))
      dt.items.add(new File([data], 'map.rad'))
      dt.items.add(new File([data], 'other.rad'))
      document.body.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }))
      await Promise.resolve()
    },
    { b64: b64(readFileSync(SAMPLE)) },
  )
  const choice = page.getByTestId('drop-choice')
  await expect(choice).toHaveAttribute('data-kind', 'files')
  await expect(choice).toContainText('You dropped 3 files: 2 RAD files, side by side below.')
  await expect(choice.getByTestId('drop-candidate')).toHaveCount(3)
  await expect(page.getByTestId('study-row')).toHaveCount(2)
  await choice.locator('[data-path="other.rad"]').click()
  await expect(page.getByTestId('index-status')).toContainText('other.rad')
  await expect(choice).toContainText('opened other.rad')
  await expect(page.getByTestId('study-back')).toBeVisible()
})

test('a file that is not RAD shows its diagnosis once, with no scan figures', async ({ page }) => {
  await openPath(page, tmp.write('notes.txt', new TextEncoder().encode('gene\tcount\nGeneA\t12\n')))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
  await expect(page.getByTestId('error-banner')).toBeVisible()
  await expect(page.getByTestId('index-status').locator('.status-figures')).toHaveCount(0)
  await expect(page.getByRole('progressbar')).toHaveCount(0)
  // Kept for tools and tests, off screen: the banner says it.
  await expect(page.getByTestId('integrity-issues')).toHaveClass(/visually-hidden/)
  await expect(page.getByTestId('integrity-issues')).toHaveAttribute('aria-hidden', 'true')
  await expect(page.getByTestId('integrity-panel')).toContainText('see above')
})

test('a cancel before the header is read offers to open the file again', async ({ page }) => {
  // 400,000 long reference names make the header alone ~40 MB: reading it takes long enough to cancel.
  const names = { count: 400_000, name: (i: number) => `${'R'.repeat(90)}${String(i).padStart(8, '0')}` }
  const path = tmp.write('big-header.rad', radBytes({ ...bulk(false, READS), refs: names }))
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await page.getByTestId('cancel-index').click()
  const early = page.getByTestId('cancelled-early')
  await expect(early).toBeVisible()
  await expect(page.getByTestId('index-status')).toContainText('Cancelled before the header was read')
  await early.getByTestId('open-again').click()
  await expect(recordRow(page, 0)).toBeVisible({ timeout: 30_000 })
})
