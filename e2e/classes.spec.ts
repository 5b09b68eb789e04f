import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { integrityCases } from '../test/helpers/integrityCases'
import { loadZstd } from '../test/helpers/radWriter'
import { expectPanel, integrityOf, recordRow, statValue, tempDir } from './helpers'

/**
 * Every integrity class (docs/integrity.md), as the hand-made files the core's own
 * tests use (test/helpers/integrityCases.ts), opened in the page: the banner
 * and the integrity panel say what the core says of the same bytes, and
 * everything the core indexed before a fault is browsable.
 */
let tmp: ReturnType<typeof tempDir>

test.beforeAll(async () => {
  tmp = tempDir()
  await loadZstd()
})

test.afterAll(() => {
  tmp.remove()
})

for (const beside of [false, true]) {
  const how = beside ? 'records checked beside the walk (8 cores)' : 'records checked as the machine decides'
  test(`each class: the page reports what the core reports, and shows every chunk before the fault (${how})`, async ({
    page,
  }) => {
    if (beside) {
      await page.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 8 })
      })
    }
    await everyClass(page)
  })
}

async function everyClass(page: Page): Promise<void> {
  const cases = integrityCases()
  test.setTimeout(20_000 + cases.length * 5_000)
  for (const [i, c] of cases.entries()) {
    await test.step(c.name, async () => {
      const want = await integrityOf(c.bytes, c.name)
      expect(want.status, 'the core agrees with the case').toBe(c.integrity)
      const path = join(tmp.dir, `case-${String(i)}.rad`)
      writeFileSync(path, c.bytes)
      await page.goto('/')
      await page.getByTestId('file-input').setInputFiles(path)
      await expectPanel(page, want)
      const banner = page.getByTestId('error-banner')
      if (want.error) await expect(banner).toHaveAttribute('data-code', want.error.code)
      else await expect(banner).toHaveCount(0)
      if (want.status === 'unreadable') {
        await expect(page.getByTestId('record-row')).toHaveCount(0)
        return
      }
      expect(await statValue(page, 'chunks')).toBe(want.chunks)
      expect(await statValue(page, 'records')).toBe(want.records)
      if (want.records === 0) return
      // The last record indexed shows (decoded, unless its own chunk is the damaged one).
      const last = want.records - 1
      await page.getByTestId('goto-record').fill(String(last))
      await page.getByTestId('goto-record').press('Enter')
      const row = recordRow(page, last)
      await expect(row).toBeVisible()
      const lastChunk = want.chunks - 1
      const undecodable = want.issues.some((issue) => issue.kind === 'unknown-codec')
      if (undecodable) await expect(row).toContainText('could not be decoded')
      else if (!want.issues.some((issue) => issue.chunk === lastChunk && issue.part === 'chunk-records')) {
        await expect(row).not.toHaveClass(/pending/)
        await expect(row).not.toContainText('could not be decoded')
      }
    })
  }
}
