import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FIXTURES, dropFiles, expectedOfFile, must, recordRow, tempDir } from './helpers'

/**
 * A `.rdx` sidecar index dropped with its RAD file (docs/sidecar.md): the index is installed
 * without a scan (index-status data-source=sidecar); one written for another file is refused
 * with a message, and the file is scanned.
 */
const MULTI = `${FIXTURES}/rad-chromium-v3-small-p3.rad`
const OTHER = `${FIXTURES}/rad-chromium-v3-small.rad`
const SHOTS = '/tmp/shots-sidecar'

let tmp: ReturnType<typeof tempDir>

/** Copies `from` into the temp folder as `name` and writes its sidecar with the CLI: the sidecar's bytes. */
function indexWithCli(from: string, name: string): Uint8Array {
  const path = join(tmp.dir, name)
  copyFileSync(from, path)
  execFileSync(process.execPath, ['bin/rad.mjs', 'index', path])
  return new Uint8Array(readFileSync(`${path}.rdx`))
}

test.beforeAll(() => {
  tmp = tempDir()
  mkdirSync(SHOTS, { recursive: true })
})

test.afterAll(() => {
  tmp.remove()
})

async function goToLast(page: Page, last: number): Promise<void> {
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
}

test('a matching .rdx dropped with its file: indexed at once from the sidecar, the last record reachable', async ({
  page,
}) => {
  const exp = await expectedOfFile(MULTI)
  const rdx = indexWithCli(MULTI, 'map.rad')
  await page.goto('/')
  await dropFiles(page, [
    { name: 'map.rad.rdx', bytes: rdx },
    { name: 'map.rad', bytes: new Uint8Array(readFileSync(MULTI)) },
  ])
  const status = page.getByTestId('index-status')
  await expect(status).toHaveAttribute('data-source', 'sidecar')
  await expect(status).toHaveAttribute('data-state', 'done')
  await expect(status).toContainText('Indexed from its sidecar index')
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))
  await expect(page.getByTestId('stat-chunks')).toHaveAttribute('data-value', String(exp.chunks))
  await expect(page.getByTestId('sidecar-rejected')).toHaveCount(0)
  // The .rdx is not offered as a file to open.
  await expect(page.getByTestId('drop-candidate')).toHaveCount(0)
  const last = exp.records - 1
  await goToLast(page, last)
  const row = recordRow(page, last)
  await expect(row).toBeInViewport()
  await expect(row).toContainText(must(exp.record(last).barcodes[0]))
  // The verdict recorded in the sidecar is a claim: not "Clean" until this page checks the records (docs/sidecar.md, "A sidecar is a claim").
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'unchecked')
  await expect(page.getByTestId('integrity-panel')).toContainText('The sidecar index (.rdx) records this file as clean')
  await expect(page.getByTestId('check-records')).toBeVisible()
})

test('a .rdx of another file is refused with a message naming what differs, and the file is scanned', async ({
  page,
}) => {
  const exp = await expectedOfFile(MULTI)
  const wrong = indexWithCli(OTHER, 'other.rad')
  await page.goto('/')
  await dropFiles(page, [
    { name: 'map.rad', bytes: new Uint8Array(readFileSync(MULTI)) },
    { name: 'map.rad.rdx', bytes: wrong },
  ])
  const status = page.getByTestId('index-status')
  await expect(status).toHaveAttribute('data-state', 'done')
  await expect(status).toHaveAttribute('data-source', 'scan')
  const message = page.getByTestId('sidecar-rejected')
  await expect(message).toBeVisible()
  await expect(message).toContainText('The sidecar index was not used: the sidecar index was written for another file')
  await expect(message).toContainText('its content: the first 64 KiB differ')
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))
  const last = exp.records - 1
  await goToLast(page, last)
  await expect(recordRow(page, last)).toContainText(must(exp.record(last).barcodes[0]))
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: `${SHOTS}/rejected-${String(width)}-${scheme}.png` })
    }
  }
})

test('a damaged .rdx is refused (checksum) and the file is scanned', async ({ page }) => {
  const rdx = indexWithCli(MULTI, 'map.rad')
  rdx[rdx.length - 1]! ^= 1
  await page.goto('/')
  await dropFiles(page, [
    { name: 'map.rad', bytes: new Uint8Array(readFileSync(MULTI)) },
    { name: 'map.rad.rdx', bytes: rdx },
  ])
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('sidecar-rejected')).toContainText('its checksum does not match its contents')
})

test('a file dropped alone is scanned: data-source=scan, no message', async ({ page }) => {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(MULTI)
  const status = page.getByTestId('index-status')
  await expect(status).toHaveAttribute('data-state', 'done')
  await expect(status).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('sidecar-rejected')).toHaveCount(0)
})
