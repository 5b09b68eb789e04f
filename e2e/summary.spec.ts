import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Download, Page } from '@playwright/test'
import { FIXTURES, expectAccessible, must, tempDir } from './helpers'

/**
 * The summary an analyst reads first (docs/stats.md, "The summary"; issue 38 §1, §2): the page's
 * figures and alerts are `rad stats --json`'s `summary`, and the cut-off chosen on the knee plot
 * drives the cells (stat-cells follows stats-cutoff-summary's data-cells).
 */
const RAD = `${FIXTURES}/rad-chromium-v3-small.rad`
const NOTES = 'test/fixtures/annotations'
const T2G = `${NOTES}/t2g.tsv`
const NAMES = `${NOTES}/gene_names.tsv`
const PERMIT = `${NOTES}/permit.txt`
const SHOTS = '/tmp/shots-summary'

const FIGURES = [
  'cells',
  'mean_reads_per_cell',
  'fraction_reads_in_cells',
  'median_umis_per_cell',
  'median_genes_per_cell',
  'genes_detected',
  'valid_barcodes',
  'sequencing_saturation',
  'mapping_rate',
] as const

type Summary = Record<(typeof FIGURES)[number], number | string | null> & {
  alerts: { id: string }[]
  expected_ori: { suggested: string } | null
}

function cliSummary(files: string[]): Summary {
  const args = ['bin/rad.mjs', 'stats', RAD, ...files, '--json']
  return (JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as { summary: Summary }).summary
}

async function expectSummary(page: Page, want: Summary): Promise<void> {
  for (const key of FIGURES) {
    const value = want[key]
    await expect(page.getByTestId(`summary-${key.replaceAll('_', '-')}`), key).toHaveAttribute(
      'data-value',
      value === null ? '' : String(value),
    )
  }
  const alerts = page.getByTestId('summary-alert')
  await expect(alerts).toHaveCount(want.alerts.length)
  expect(await alerts.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual(
    want.alerts.map((a) => a.id),
  )
}

async function openWith(page: Page, files: string[]): Promise<void> {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(RAD)
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  if (files.length > 0) {
    await page.getByTestId('annotations-input').setInputFiles(files)
    await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
  }
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.getByTestId('stats-panel').scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${SHOTS}/${name}-${String(width)}-${scheme}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 720 })
}

test('without annotation files the summary is the CLI’s: the knee’s cells, their reads, saturation', async ({
  page,
}) => {
  await openWith(page, [])
  const want = cliSummary([])
  await expectSummary(page, want)
  await expect(page.getByTestId('summary-expected-ori')).toHaveAttribute(
    'data-value',
    must(want.expected_ori).suggested,
  )
})

test('with a t2g, gene names and a permit list the summary and its alert are the CLI’s', async ({ page }) => {
  const files = [T2G, NAMES, PERMIT]
  await openWith(page, files)
  await expectSummary(page, cliSummary(['--t2g', T2G, '--gene-names', NAMES, '--permit-list', PERMIT]))
  await expect(page.locator('[data-testid="summary-alert"][data-id="low-valid-barcodes"]')).toContainText('permit list')
  // MultiQC files for the open file: rad stats FILE --multiqc DIR's, byte for byte.
  const downloads: Promise<Download>[] = []
  const heard = new Promise<void>((resolve) => {
    page.on('download', (d) => {
      downloads.push(Promise.resolve(d))
      if (downloads.length === 2) resolve()
    })
  })
  await page.getByTestId('stats-save-multiqc').click()
  await heard
  const dir = tempDir()
  try {
    const args = ['bin/rad.mjs', 'stats', RAD, '--t2g', T2G, '--gene-names', NAMES, '--permit-list', PERMIT]
    execFileSync(process.execPath, [...args, '--multiqc', dir.dir], { encoding: 'utf8' })
    for (const d of await Promise.all(downloads)) {
      const name = d.suggestedFilename()
      expect(readFileSync(must(await d.path()), 'utf8'), name).toBe(readFileSync(`${dir.dir}/${name}`, 'utf8'))
    }
  } finally {
    dir.remove()
  }
  await expectAccessible(page, 'the summary with an alert')
  await shoot(page, 'summary')
})

test('a t2g that names half the references, without gene names: t2g-partial and no-mito-genes', async ({ page }) => {
  const dir = tempDir()
  try {
    const half = readFileSync(T2G, 'utf8')
      .split('\n')
      .filter((_, i) => i % 2 === 0)
      .join('\n')
    const t2g = dir.write('half.t2g.tsv', new TextEncoder().encode(half))
    await openWith(page, [t2g])
    const want = cliSummary(['--t2g', t2g])
    expect(want.alerts.map((a) => a.id)).toEqual(['t2g-partial', 'no-mito-genes'])
    await expectSummary(page, want)
    await shoot(page, 'summary-alerts')
  } finally {
    dir.remove()
  }
})

test('the cut-off drives the cells: the slider’s cells are counted, in the summary and the cell figures', async ({
  page,
}) => {
  await openWith(page, [T2G, NAMES])
  await page.getByText('Plots and top lists').click()
  const chosen = page.getByTestId('stats-cutoff-summary')
  const knee = must(await page.getByTestId('stat-knee').getAttribute('data-value'))
  await expect(page.getByTestId('stat-cells')).toHaveAttribute('data-value', knee)
  // Ten points further along the curve: more cells than the knee's.
  await page.getByTestId('stats-cutoff').focus()
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight')
  const cells = must(await chosen.getAttribute('data-cells'))
  expect(Number(cells)).toBeGreaterThan(Number(knee))
  await expect(page.getByTestId('summary-cells')).toHaveAttribute('data-value', cells)
  await expect(page.getByTestId('stat-cells')).toHaveAttribute('data-value', cells, { timeout: 30_000 })
  await expect(page.getByTestId('summary-median-umis-per-cell')).not.toHaveAttribute('data-value', '')
  await expect(page.getByTestId('summary-cells').locator('dt')).toContainText('cut-off chosen')
})

test('room for the QC at 1440 × 900: expanded, the summary, plots and cells read without an inner scroll bar', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 })
  await openWith(page, [T2G, NAMES, PERMIT])
  const panel = page.getByTestId('stats-panel')
  await page.getByText('Plots and top lists').click()
  await page.getByTestId('stats-expand').click()
  await expect(page.getByTestId('stats-expand')).toHaveAttribute('aria-pressed', 'true')
  const inner = await panel.evaluate((el) => el.scrollHeight - el.clientHeight)
  expect(inner).toBeLessThanOrEqual(1)
  // The records are still there, below: the page scrolls to them.
  await page.getByTestId('record-row').first().scrollIntoViewIfNeeded()
  await expect(page.getByTestId('record-row').first()).toBeInViewport()
  await page.getByTestId('cells-panel').scrollIntoViewIfNeeded()
  await page.screenshot({ path: `${SHOTS}/qc-expanded-1440-light.png`, fullPage: true })
  await page.getByTestId('stats-expand').click()
  expect(await panel.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true)
})
