import { readFileSync, rmSync, truncateSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { startRangeServer } from '../test/helpers/rangeServer'
import { SAMPLE, expectedOfFile, must, recordRow, tempDir, withBadReference, writeRepeatedSample } from './helpers'

/**
 * A file that changes on disk after it was indexed is never called clean
 * (docs/integrity.md). The page holds a real File from the file input; the test
 * changes the file behind it with node's fs, then scrolls to rows not yet
 * decoded: Chromium fails their reads, and the whole view must say so.
 */
const COPIES = 40

let tmp: ReturnType<typeof tempDir>

test.describe.configure({ timeout: 60_000 })

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

const CHANGES: Record<string, (path: string, size: number) => void> = {
  'overwritten (4 KiB in the middle)': (path, size) => {
    const fd = openSync(path, 'r+')
    try {
      writeSync(fd, new Uint8Array(4096).fill(0x5a), 0, 4096, Math.floor(size / 2))
    } finally {
      closeSync(fd)
    }
  },
  truncated: (path, size) => {
    truncateSync(path, Math.floor(size / 3))
  },
  deleted: (path) => {
    rmSync(path)
  },
  'replaced by another file': (path) => {
    writeFileSync(path, readFileSync(SAMPLE))
  },
}

async function expectChangedView(page: Page): Promise<void> {
  const banner = page.getByTestId('error-banner')
  await expect(banner).toBeVisible()
  await expect(banner).toHaveAttribute('data-code', 'FILE_CHANGED')
  await expect(banner).toContainText('The file changed on disk after it was opened')
  await expect(banner.getByTestId('reopen')).toBeVisible()
  const panel = page.getByTestId('integrity-panel')
  await expect(panel).toHaveAttribute('data-status', 'changed')
  await expect(page.getByTestId('integrity-status')).not.toHaveText('Clean')
  await expect(panel).not.toContainText('Nothing is wrong')
  await expect(panel).not.toContainText('nothing to save')
  await expect(page.getByTestId('integrity-issue')).toHaveCount(0)
  await expect(page.getByTestId('index-status')).toContainText('changed on disk')
  await expect(banner).not.toContainText('intact chunks are shown')
}

for (const [name, change] of Object.entries(CHANGES)) {
  test(`${name} after indexing: one clear state, never "Clean"; Reopen opens the file as it is now`, async ({
    page,
  }) => {
    const path = join(tmp.dir, `${name.split(' ')[0] ?? 'f'}.rad`)
    const big = await writeRepeatedSample(path, COPIES)
    await page.goto('/')
    await page.getByTestId('file-input').setInputFiles(path)
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
    await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
    await expect(page.getByTestId('error-banner')).toHaveCount(0)

    change(path, big.size)
    // Rows far from the first screen: not decoded yet, so the page must read the file.
    const last = big.records - 1
    await page.getByTestId('goto-record').fill(String(last))
    await page.getByTestId('goto-record').press('Enter')
    await expectChangedView(page)
    // No row shows old bytes as if current.
    await expect(recordRow(page, last)).not.toContainText(/[ACGT]{16}/)

    if (name === 'deleted') return
    // Reopen: the file chosen again, as it is now.
    await page.getByTestId('reopen-input').setInputFiles(path)
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', /done|error/)
    await expect(page.getByTestId('integrity-panel')).not.toHaveAttribute('data-status', 'changed')
  })
}

test('"Save the valid part" on a file changed since it was indexed fails with a message, not a broken download', async ({
  page,
}) => {
  const sample = await expectedOfFile(SAMPLE)
  const damaged = await withBadReference(new Uint8Array(readFileSync(SAMPLE)), 1)
  const path = join(tmp.dir, 'damaged.rad')
  writeFileSync(path, damaged.bytes)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'damaged')
  await expect(recordRow(page, 0)).toContainText(must(sample.record(0).barcodes[0]))
  await expect(page.getByTestId('salvage')).toBeVisible()

  writeFileSync(path, damaged.bytes.subarray(0, 1000))
  let downloads = 0
  page.on('download', () => downloads++)
  // The page may notice the change by itself first (a read in the background fails): the button
  // is then gone before the click, and the view must say the same.
  const salvage = page.getByTestId('salvage')
  await salvage.click({ timeout: 10_000 }).catch(async (e: unknown) => {
    if ((await salvage.count()) > 0) throw e
  })
  await expectChangedView(page)
  await expect(page.getByTestId('salvage-unavailable')).toContainText('cannot be saved')
  await expect(page.getByTestId('salvage')).toHaveCount(0)
  expect(downloads).toBe(0)
})

test('a URL whose bytes are swapped under the same ETag: a chunk that no longer agrees withdraws "Clean"', async ({
  page,
}) => {
  const path = join(tmp.dir, 'served.rad')
  const big = await writeRepeatedSample(path, COPIES)
  const bytes = new Uint8Array(readFileSync(path))
  const { scan } = await expectedOfFile(path)
  const server = await startRangeServer({ '/map.rad': bytes })
  try {
    await page.goto(`/?url=${encodeURIComponent(server.url('/map.rad'))}`)
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
    await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
    // A chunk in the middle (away from the ends the fingerprint reads) has its record count (its
    // header's bytes 4–7, docs/format.md §4.1) changed; same size, same ETag.
    const swapped = bytes.slice()
    const middle = scan.index.count >> 1
    const view = new DataView(swapped.buffer)
    const at = scan.index.offset[middle]! + 4
    view.setUint32(at, view.getUint32(at, true) - 1, true)
    server.setFile('/map.rad', swapped, { sameEtag: true })
    expect(big.records).toBeGreaterThan(scan.index.firstRecord[middle]!)
    await page.getByTestId('goto-record').fill(String(scan.index.firstRecord[middle]! + 1))
    await page.getByTestId('goto-record').press('Enter')
    await expect(page.getByTestId('error-banner')).toHaveAttribute('data-code', 'FILE_CHANGED')
    await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'changed')
    await expect(page.getByTestId('integrity-status')).not.toHaveText('Clean')
  } finally {
    await server.close()
  }
})
