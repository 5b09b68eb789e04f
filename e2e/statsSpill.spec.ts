import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { FIXTURES, expectAccessible, must } from './helpers'

/**
 * The page's pass past its memory budget (ADR 0015): each decode worker spills its exact pairs'
 * lists to a file of the origin's private file system and merges them at the end. A budget of a
 * few KB (window.radStatsBudget, set before the page loads) makes the small fixture spill many
 * times: the JSON is still the CLI's exactly, the panel says what was written, and no spill file
 * is left behind.
 */
const FILE = `${FIXTURES}/rad-chromium-v3-small.rad`

function cliStats(path: string): unknown {
  return JSON.parse(execFileSync(process.execPath, ['bin/rad.mjs', 'stats', path, '--json'], { encoding: 'utf8' }))
}

/** Names in the origin's private file system that a spill would leave. */
function spillFiles(): Promise<string[]> {
  return (async () => {
    const root = (await navigator.storage.getDirectory()) as FileSystemDirectoryHandle & {
      keys(): AsyncIterable<string>
    }
    const names: string[] = []
    for await (const name of root.keys()) if (name.startsWith('rad-spill-')) names.push(name)
    return names
  })()
}

test('spilled to the browser’s storage, the statistics are exact and the files are removed', async ({ page }) => {
  await page.addInitScript(() => {
    Object.assign(window, { radStatsBudget: 4096, radStatsPending: 3000 })
  })
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(FILE)
  const panel = page.getByTestId('stats-panel')
  await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 60_000 })
  const spilled = page.getByTestId('stats-spilled')
  await expect(spilled).toContainText('Counted exactly in parts')
  expect(Number(await spilled.getAttribute('data-value'))).toBeGreaterThan(0)
  const download = page.waitForEvent('download')
  await page.getByTestId('stats-save-json').click()
  const saved = JSON.parse(readFileSync(must(await (await download).path()), 'utf8')) as unknown
  expect(saved).toEqual(cliStats(FILE))
  await expect.poll(() => page.evaluate(spillFiles)).toEqual([])
  await expectAccessible(page, 'the statistics panel after a spilled pass')
})

test('a run of more barcodes than the page lists: exact figures from a digest, and the TSV says why it is not made', async ({
  page,
}) => {
  // Two rows kept, all workers together: the fixture's barcodes are folded at the end (ADR 0016).
  await page.addInitScript(() => {
    Object.assign(window, { radStatsBudget: 4096, radStatsPending: 3000, radStatsRows: 2 })
  })
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(FILE)
  const panel = page.getByTestId('stats-panel')
  await expect(panel).toHaveAttribute('data-state', 'done', { timeout: 60_000 })
  const download = page.waitForEvent('download')
  await page.getByTestId('stats-save-json').click()
  const saved = JSON.parse(readFileSync(must(await (await download).path()), 'utf8')) as unknown
  expect(saved).toEqual(cliStats(FILE))
  await page.getByTestId('stats-save-tsv').click()
  await expect(panel.getByRole('alert')).toContainText('more than the page keeps one by one')
  await expect(panel.getByRole('alert')).toContainText('rad stats FILE --tsv')
  await expectAccessible(page, 'the statistics panel when the TSV cannot be made')
})
