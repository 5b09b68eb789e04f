import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { radBytes } from '../test/helpers/radWriter'
import { bulk } from '../test/helpers/assays'
import { FIXTURES, dropFiles, expectAccessible, must, tempDir } from './helpers'

/**
 * Cells and genes in the page (docs/cells.md): annotation files given with the
 * annotations control or dropped with the RAD file (sorted by content, not by
 * name) give the CLI's figures; the plot draws; a cell opens a filter for its reads.
 */
const RAD = `${FIXTURES}/rad-chromium-v3-small.rad`
const NOTES = 'test/fixtures/annotations'
const T2G = `${NOTES}/t2g.tsv`
const NAMES = `${NOTES}/gene_names.tsv`
const PERMIT = `${NOTES}/permit.txt`

interface CellsJson {
  cells: { count: number; genes: { median: number }; mito_fraction: { median: number }; umis: { median: number } }
  genes: { detected: number }
  permit: { exact: number; corrected: number; ambiguous: number; absent: number }
}

function cliJson(): CellsJson & Record<string, unknown> {
  const args = ['bin/rad.mjs', 'stats', RAD, '--t2g', T2G, '--gene-names', NAMES, '--permit-list', PERMIT, '--json']
  return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as CellsJson & Record<string, unknown>
}

async function openStatsDone(page: Page): Promise<void> {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(RAD)
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
}

async function expectFigures(page: Page, want: CellsJson): Promise<void> {
  const p = want.permit
  const valid = (p.exact + p.corrected) / (p.exact + p.corrected + p.ambiguous + p.absent)
  await expect(page.getByTestId('stat-cells')).toHaveAttribute('data-value', String(want.cells.count))
  await expect(page.getByTestId('stat-median-genes')).toHaveAttribute('data-value', String(want.cells.genes.median))
  await expect(page.getByTestId('stat-median-mito')).toHaveAttribute(
    'data-value',
    String(want.cells.mito_fraction.median),
  )
  await expect(page.getByTestId('stat-valid-barcodes')).toHaveAttribute('data-value', String(valid))
  await expect(page.getByTestId('stat-median-umis')).toHaveAttribute('data-value', String(want.cells.umis.median))
  await expect(page.getByTestId('stat-genes-detected')).toHaveAttribute('data-value', String(want.genes.detected))
}

test('the annotations control gives the CLI figures, the plot and the JSON with the cells keys', async ({ page }) => {
  const want = cliJson()
  await openStatsDone(page)
  await expect(page.getByTestId('cells-section')).toHaveCount(0)
  await page.getByTestId('annotations-input').setInputFiles([T2G, NAMES, PERMIT])
  await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
  await expectFigures(page, want)
  await expect(page.getByTestId('cells-plot').locator('canvas').first()).toBeVisible()
  await expect(page.getByTestId('cells-umi-duplication').locator('canvas').first()).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByTestId('stats-save-json').click()
  const saved = JSON.parse(readFileSync(must(await (await download).path()), 'utf8')) as unknown
  expect(saved).toEqual(want)
  const tsv = page.waitForEvent('download')
  await page.getByTestId('cells-save-tsv').click()
  const cellsTsv = readFileSync(must(await (await tsv).path()), 'utf8')
  const args = ['bin/rad.mjs', 'stats', RAD, '--t2g', T2G, '--gene-names', NAMES, '--permit-list', PERMIT]
  expect(cellsTsv).toBe(execFileSync(process.execPath, [...args, '--cells-tsv'], { encoding: 'utf8' }))
  await expectAccessible(page, 'the statistics panel with cells and genes')
})

test('annotation files dropped with the RAD file are recognised by content, whatever their names', async ({ page }) => {
  const want = cliJson()
  await page.goto('/')
  await dropFiles(page, [
    { name: 'run.rad', bytes: new Uint8Array(readFileSync(RAD)) },
    { name: 'second.txt', bytes: new Uint8Array(readFileSync(NAMES)) },
    { name: 'first.txt', bytes: new Uint8Array(readFileSync(T2G)) },
    { name: 'barcodes', bytes: new Uint8Array(gzipSync(readFileSync(PERMIT))) },
  ])
  await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
  await expectFigures(page, want)
  const files = page.getByTestId('cells-files')
  await expect(files).toContainText('first.txt: transcript-to-gene map')
  await expect(files).toContainText('second.txt: gene names')
  await expect(files).toContainText('barcodes: permit list')
})

test('a cell in the table opens a filter for its reads', async ({ page }) => {
  await openStatsDone(page)
  await page.getByTestId('annotations-input').setInputFiles([T2G])
  const first = page.getByTestId('cell-barcode').first()
  await expect(first).toBeVisible({ timeout: 30_000 })
  const seq = must(await first.textContent()).trim()
  const reads = must(await first.locator('xpath=ancestor::tr').locator('td').nth(1).textContent()).replace(/\D/g, '')
  await first.click()
  await expect(page.getByTestId('filter-barcode')).toHaveValue(seq)
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('filter-count')).toHaveAttribute('data-value', reads)
})

test('a t2g that names none of the references is refused with the reason; bulk files say why there are no cells', async ({
  page,
}) => {
  // The error is the panel's to say: it used to escape as an uncaught error of the page too.
  const uncaught: string[] = []
  page.on('pageerror', (e) => uncaught.push(e.message))
  await openStatsDone(page)
  await page.getByTestId('annotations-input').setInputFiles({
    name: 'other.tsv',
    mimeType: 'text/plain',
    buffer: Buffer.from('ENST_NOT_HERE\tGENE1\nENST_NOR_HERE\tGENE2\n'),
  })
  await expect(page.getByTestId('cells-error')).toContainText('other.tsv')
  expect(uncaught).toEqual([])

  await page.goto('/')
  await dropFiles(page, [
    { name: 'bulk.rad', bytes: radBytes(bulk(true)) },
    { name: 't2g.tsv', bytes: new Uint8Array(readFileSync(T2G)) },
  ])
  await expect(page.getByTestId('cells-not-applicable')).toContainText('need one barcode and a UMI')
})

test('a permit list with a junk line is named with its line, as the CLI names it; a Cell Ranger -1 list works', async ({
  page,
}) => {
  await openStatsDone(page)
  const barcodes = readFileSync(PERMIT, 'utf8').trimEnd().split('\n')
  const junk = [barcodes[0], barcodes[1], 'hello world', ...barcodes.slice(2)].join('\n')
  await page
    .getByTestId('annotations-input')
    .setInputFiles([asFile(T2G), { name: 'permit-junk.txt', mimeType: 'text/plain', buffer: Buffer.from(`${junk}\n`) }])
  await expect(page.getByTestId('cells-error')).toContainText(
    'permit-junk.txt line 3: "h" at column 1; a permit list has one barcode (A, C, G, T) per line',
  )
  const want = cliJson()
  await openStatsDone(page)
  const suffixed = barcodes.map((b) => `${b}-1`).join('\n')
  await page
    .getByTestId('annotations-input')
    .setInputFiles([
      asFile(T2G),
      asFile(NAMES),
      { name: 'barcodes.tsv', mimeType: 'text/plain', buffer: Buffer.from(`${suffixed}\n`) },
    ])
  await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
  await expectFigures(page, want)
})

/** A fixture as a buffer (Playwright does not mix paths and buffers in one setInputFiles). */
function asFile(path: string): { name: string; mimeType: string; buffer: Buffer } {
  return { name: path.split('/').pop() ?? path, mimeType: 'text/plain', buffer: readFileSync(path) }
}

test('a t2g with S and U statuses: the unspliced fraction, the scatter coloured by it, the TSV’s columns', async ({
  page,
}) => {
  const dir = tempDir()
  try {
    // A transcript's second isoform unspliced, the others spliced (as test/cli/splicing.test.ts).
    const text = readFileSync(T2G, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => {
        const [tx, g] = l.split('\t')
        return `${tx!}\t${g!}\t${tx!.split('|')[0]!.endsWith('-2') ? 'U' : 'S'}`
      })
      .join('\n')
    const t2g = dir.write('t2g_3col.tsv', new TextEncoder().encode(`${text}\n`))
    const args = ['bin/rad.mjs', 'stats', RAD, '--t2g', t2g]
    const want = JSON.parse(execFileSync(process.execPath, [...args, '--json'], { encoding: 'utf8' })) as {
      cells: { unspliced_fraction: { median: number } }
    }
    await openStatsDone(page)
    await page.getByTestId('annotations-input').setInputFiles([t2g])
    await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
    await expect(page.getByTestId('stat-unspliced-fraction')).toHaveAttribute(
      'data-value',
      String(want.cells.unspliced_fraction.median),
    )
    await expect(page.getByTestId('cells-plot')).toHaveAttribute('aria-label', /coloured by unspliced fraction/)
    const tsv = page.waitForEvent('download')
    await page.getByTestId('cells-save-tsv').click()
    const saved = readFileSync(must(await (await tsv).path()), 'utf8')
    expect(saved).toBe(execFileSync(process.execPath, [...args, '--cells-tsv'], { encoding: 'utf8' }))
    expect(saved.split('\n')[0]).toContain('unspliced_fraction')
  } finally {
    dir.remove()
  }
})

test('another mito pattern counts the cells again: none matching raises the alert; a wrong one is said, nothing counted', async ({
  page,
}) => {
  const args = ['bin/rad.mjs', 'stats', RAD, '--t2g', T2G, '--gene-names', NAMES, '--mito', '^NOSUCHGENE', '--json']
  const none = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as CellsJson
  await openStatsDone(page)
  await page.getByTestId('annotations-input').setInputFiles([T2G, NAMES])
  await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
  const alert = page.locator('[data-testid="summary-alert"][data-id="no-mito-genes"]')
  await expect(alert).toHaveCount(0)
  const input = page.getByTestId('cells-mito-input')
  await expect(input).toHaveValue('^(MT|mt)-')
  await input.fill('(')
  await page.getByTestId('cells-mito-apply').click()
  await expect(page.getByTestId('cells-mito-error')).toContainText('Not a regular expression')
  await expect(page.getByTestId('cells-panel')).toBeVisible()
  await input.fill('^NOSUCHGENE')
  await input.press('Enter')
  await expect(alert).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('cells-mito-error')).toHaveCount(0)
  await expect(page.getByTestId('stat-median-mito')).toHaveAttribute(
    'data-value',
    String(none.cells.mito_fraction.median),
  )
  await expectAccessible(page, 'the cells with another mito pattern')
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.getByTestId('cells-mito').scrollIntoViewIfNeeded()
      await page.screenshot({ path: `/tmp/shots-cells/mito-${String(width)}-${scheme}.png` })
    }
  }
})
