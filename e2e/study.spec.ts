import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { startRangeServer } from '../test/helpers/rangeServer'
import { FIXTURES, dropFolder, expectAccessible, must } from './helpers'

/**
 * Several runs side by side (docs/study.md; issue 39 §1): files chosen or dropped together open a
 * study view whose rows carry the CLI's records and knee cells, with the knee curves overlaid; a
 * row opens its sample and Back returns to the study, still counted.
 */
const FILES = ['rad-chromium-v3-small.rad', 'rad-chromium-v2-small.rad', 'sketch-chromium-v3-small.rad'].map(
  (f) => `${FIXTURES}/${f}`,
)
const SHOTS = '/tmp/shots-study'

interface CliSample {
  sample: string
  records: number
  summary: { cells: number | null }
}

function cliSamples(files: readonly string[]): CliSample[] {
  const out = execFileSync(process.execPath, ['bin/rad.mjs', 'stats', ...files, '--json'], { encoding: 'utf8' })
  return (JSON.parse(out) as { samples: CliSample[] }).samples
}

async function expectRows(page: Page, want: readonly CliSample[], names: readonly string[]): Promise<void> {
  await expect(page.getByTestId('study-table')).toHaveAttribute('data-state', 'done', { timeout: 60_000 })
  const rows = page.getByTestId('study-row')
  await expect(rows).toHaveCount(want.length)
  for (const [i, w] of want.entries()) {
    const row = rows.nth(i)
    await expect(row).toHaveAttribute('data-sample', names[i]!)
    await expect(row).toHaveAttribute('data-records', String(w.records))
    await expect(row).toHaveAttribute('data-cells', String(w.summary.cells))
  }
}

test('three files chosen together: a study with the CLI’s records and knee cells, curves overlaid', async ({
  page,
}) => {
  const want = cliSamples(FILES)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(FILES)
  await expectRows(
    page,
    want,
    want.map((w) => w.sample),
  )
  await expect(page.getByTestId('study-knee-plot').locator('canvas')).toBeVisible()
  const download = page.waitForEvent('download')
  await page.getByTestId('study-save-tsv').click()
  const tsv = readFileSync(must(await (await download).path()), 'utf8')
  const cli = execFileSync(process.execPath, ['bin/rad.mjs', 'stats', ...FILES, '--tsv'], { encoding: 'utf8' })
  // The same table but for the file column (the page knows a file's name, not its path).
  const withoutFile = (text: string): string[] =>
    text.split('\n').map((l) =>
      l
        .split('\t')
        .filter((_, col) => col !== 1)
        .join('\t'),
    )
  expect(withoutFile(tsv)).toEqual(withoutFile(cli))
  await expectAccessible(page, 'the study view')
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: `${SHOTS}/study-${String(width)}-${scheme}.png`, fullPage: true })
    }
  }
})

test('a folder of af_map runs: samples named by their run folders; a row opens, Back returns', async ({ page }) => {
  const b64 = (path: string): string => readFileSync(path).toString('base64')
  const want = cliSamples(FILES.slice(0, 2))
  await page.goto('/')
  await dropFolder(page, 'study', [
    { path: 'pbmc_a/af_map/map.rad', b64: b64(FILES[0]!) },
    { path: 'pbmc_a/af_map/map_info.json', b64: Buffer.from('{"num_processed":10,"num_mapped":9}').toString('base64') },
    { path: 'pbmc_b/af_map/map.rad', b64: b64(FILES[1]!) },
  ])
  await expect(page.getByTestId('drop-choice')).toContainText('2 RAD files, side by side below')
  await expectRows(page, want, ['pbmc_a', 'pbmc_b'])
  await page.getByTestId('study-row').nth(1).getByRole('button').click()
  await expect(page.getByTestId('index-status')).toContainText('map.rad')
  await expect(page.getByTestId('study-view')).toHaveCount(0)
  await page.getByTestId('study-back').click()
  await expect(page.getByTestId('file-view')).toHaveCount(0)
  await expect(page.getByTestId('study-table')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('study-row').nth(1)).toHaveAttribute('data-cells', String(want[1]!.summary.cells))
})

test('a study of URLs from the address (?study=…): counted over HTTP, a sample opens and Back returns', async ({
  page,
}) => {
  const server = await startRangeServer({
    '/runs/pbmc_a/af_map/map.rad': new Uint8Array(readFileSync(FILES[0]!)),
    '/runs/pbmc_b/af_map/map.rad': new Uint8Array(readFileSync(FILES[1]!)),
  })
  try {
    const urls = ['/runs/pbmc_a/af_map/map.rad', '/runs/pbmc_b/af_map/map.rad'].map((p) => server.url(p))
    const want = cliSamples(FILES.slice(0, 2))
    await page.goto(`/?${urls.map((u) => `study=${encodeURIComponent(u)}`).join('&')}`)
    await expectRows(page, want, ['pbmc_a', 'pbmc_b'])
    await page.getByTestId('study-row').nth(0).getByRole('button').click()
    await expect(page.getByTestId('file-name')).toHaveText('map.rad')
    expect(new URL(page.url()).searchParams.get('url')).toBe(urls[0])
    expect(new URL(page.url()).searchParams.getAll('study')).toEqual(urls)
    await page.getByTestId('study-back').click()
    await expect(page.getByTestId('study-table')).toHaveAttribute('data-state', 'done')
    expect(new URL(page.url()).searchParams.get('url')).toBeNull()
  } finally {
    await server.close()
  }
})
