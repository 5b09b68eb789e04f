import { execFileSync } from 'node:child_process'
import { expect, test } from '@playwright/test'
import { salmonScRna } from '../test/helpers/assays'
import type { ScRead } from '../test/helpers/assays'
import { radBytes } from '../test/helpers/radWriter'
import { dropFiles, expectAccessible, must, tempDir } from './helpers'

/**
 * The barcode rank plot by reads and by UMIs (issue 38 §1; docs/stats.md, "The knee plot"): a
 * labelled Reads | UMIs toggle redraws the curve from the distinct UMIs per barcode the statistics
 * counted, its top the most UMIs `rad stats --tsv` lists, the cut-off kept. Screenshots of the
 * figure at 1440 and 390 px, light and dark, go to SHOTS to be looked at.
 */
const SHOTS = '/tmp/shots-knee-umis'

const BASES = 'ACGT'
/** `n` as `len` bases (base 4), a barcode or UMI of its own. */
function seq(n: number, len: number): string {
  let out = ''
  for (let i = 0; i < len; i++) out += BASES.charAt(Math.floor(n / 4 ** i) % 4)
  return out
}

/**
 * A 10x-like run whose reads and UMIs differ (the salmon fixtures have about one read a UMI): 60
 * cells of ~2,000 to ~75 reads, each UMI read three times, then 400 background barcodes of 1–4
 * reads, each read a UMI of its own.
 */
function duplicatedRun(): Uint8Array {
  const reads: ScRead[] = []
  const alns = [{ ref: 0, fw: true }]
  for (let b = 1; b <= 460; b++) {
    const cell = b <= 60
    const n = cell ? Math.round(2000 / b ** 0.8) : 1 + (b % 4)
    for (let r = 0; r < n; r++) {
      reads.push({ cb: seq(b, 16), umi: seq(cell ? Math.floor(r / 3) : r, 12), alns })
    }
  }
  return radBytes(salmonScRna(reads, 1000))
}

/** The most reads and the most distinct UMIs of one barcode, from the CLI's per-barcode TSV. */
function cliTops(rad: string): { reads: number; umis: number } {
  const tsv = execFileSync(process.execPath, ['bin/rad.mjs', 'stats', rad, '--tsv'], { encoding: 'utf8' })
  const [head, ...rows] = tsv.trimEnd().split('\n')
  const cols = must(head).split('\t')
  const at = (name: string): number => cols.findIndex((c) => c.includes(name))
  const [r, u] = [at('reads'), at('umi')]
  expect(r).toBeGreaterThanOrEqual(0)
  expect(u).toBeGreaterThanOrEqual(0)
  const max = (i: number): number => Math.max(...rows.map((row) => Number(row.split('\t')[i])))
  return { reads: max(r), umis: max(u) }
}

test('the knee plot ranks barcodes by reads or by UMIs, the cut-off kept; axe clean; screenshots', async ({ page }) => {
  const bytes = duplicatedRun()
  const dir = tempDir()
  const tops = cliTops(dir.write('run.rad', bytes))
  dir.remove()
  expect(tops.umis).toBeLessThan(tops.reads)
  await page.goto('/')
  await dropFiles(page, [{ name: 'run.rad', bytes }])
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await page.getByText('Plots and top lists').click()
  const figure = page.getByTestId('knee-figure')
  const plot = page.getByTestId('knee-plot')
  await expect(plot.locator('canvas')).toBeVisible()
  await expect(figure).toHaveAttribute('data-by', 'reads')
  await expect(figure).toHaveAttribute('data-top', String(tops.reads))
  const cells = must(await page.getByTestId('stats-cutoff-summary').getAttribute('data-cells'))

  const toggle = page.getByRole('group', { name: 'Rank barcodes by' })
  await expect(toggle.getByRole('radio', { name: 'Reads' })).toBeChecked()
  await toggle.getByText('UMIs').click()
  await expect(toggle.getByRole('radio', { name: 'UMIs' })).toBeChecked()
  await expect(figure).toHaveAttribute('data-by', 'umis')
  await expect(figure).toHaveAttribute('data-top', String(tops.umis))
  await expect(plot).toHaveAttribute('aria-label', /by distinct UMIs/)
  await expect(plot.locator('canvas')).toBeVisible()
  await expect(figure.locator('figcaption')).toContainText('distinct UMIs per barcode')
  await expect(page.getByTestId('stats-cutoff-summary')).toHaveAttribute('data-cells', cells)
  await expectAccessible(page, 'the knee plot by UMIs')

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await figure.scrollIntoViewIfNeeded()
      await page.screenshot({ path: `${SHOTS}/knee-umis-${String(width)}-${scheme}.png` })
    }
  }

  // The keyboard: the radio group is one tab stop, the arrows move between its options.
  await toggle.getByRole('radio', { name: 'UMIs' }).focus()
  await page.keyboard.press('ArrowLeft')
  await expect(toggle.getByRole('radio', { name: 'Reads' })).toBeChecked()
  await expect(figure).toHaveAttribute('data-by', 'reads')
  await expect(plot).toHaveAttribute('aria-label', /by reads/)
})
