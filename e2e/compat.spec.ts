/**
 * Compatibility (docs/integrity.md): the file panel names the producer and the compatibility
 * panel says which consumer versions read the file. Expected verdicts come from
 * the core run in Node on the same bytes (never hand-copied).
 */
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { BytesSource } from '../src/io/byteSource'
import { openRad } from '../src/io/openRad'
import { assessCompatibility } from '../src/rad/prelude/compatibility'
import type { CompatibilityReport } from '../src/rad/prelude/compatibility'
import { piscemScRnaV2 } from '../test/helpers/assays'
import { radBytes } from '../test/helpers/radWriter'
import { SAMPLE, dropFile } from './helpers'

async function reportOf(bytes: Uint8Array): Promise<CompatibilityReport> {
  const { prelude, container } = await openRad(new BytesSource(bytes, 'file.rad'))
  return assessCompatibility(prelude, container)
}

async function expectPanelShows(page: Page, want: CompatibilityReport): Promise<void> {
  await expect(page.getByTestId('file-producer')).toContainText(want.producer.name)
  const panel = page.getByTestId('compat-panel')
  await expect(panel.getByTestId('compat-producer')).toHaveAttribute('data-producer', want.producer.name)
  for (const e of want.producer.evidence) await expect(panel).toContainText(e)
  const rows = panel.getByTestId('compat-row')
  await expect(rows).toHaveCount(want.consumers.length)
  for (const [i, c] of want.consumers.entries()) {
    const row = rows.nth(i)
    await expect(row).toHaveAttribute('data-tool', c.tool)
    await expect(row).toHaveAttribute('data-versions', c.versions)
    await expect(row).toHaveAttribute('data-verdict', c.verdict)
    for (const reason of c.reasons) await expect(row).toContainText(reason)
  }
}

test('the sample: salmon, and every alevin-fry version reads it', async ({ page }) => {
  const want = await reportOf(new Uint8Array(readFileSync(SAMPLE)))
  expect(want.producer.name).toBe('salmon')
  await page.goto('/')
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('file-producer')).toHaveText('salmon (possible)')
  await expectPanelShows(page, want)
  const alevinFry = page.locator('[data-testid="compat-row"][data-tool="alevin-fry"]')
  await expect(alevinFry).toHaveCount(4)
  for (const row of await alevinFry.all()) await expect(row).toHaveAttribute('data-verdict', 'reads')
})

test('a piscem-rs v2 file: alevin-fry before 0.19 stops at the magic', async ({ page }) => {
  const bytes = radBytes(piscemScRnaV2(true))
  const want = await reportOf(bytes)
  await page.goto('/')
  await dropFile(page, bytes, 'map.rad')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('file-producer')).toHaveText('piscem-rs (likely)')
  await expectPanelShows(page, want)
  const old = page.locator('[data-testid="compat-row"][data-tool="alevin-fry"][data-versions="0.18.x"]')
  await expect(old).toHaveAttribute('data-verdict', 'fails')
  await expect(old).toContainText('RAD_FILE magic')
})
