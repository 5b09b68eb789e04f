import { readFileSync, utimesSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FIXTURES, expectedOfFile, must, recordRow, tempDir, withBadReference } from './helpers'

/**
 * The cached reopen (ADR 0007): a local file's index and statistics are kept in the
 * browser (IndexedDB) under its fingerprint, so opening it again installs the index at once
 * (index-status data-source=cache) without a scan. Two salmon runs of the same size (-p 1 and -p 3)
 * differ only past their first and last 4 KiB: the fingerprint (64 KiB ends) tells them apart.
 */
const PATH = `${FIXTURES}/rad-chromium-v3-small.rad`
const SAME_SIZE = `${FIXTURES}/rad-chromium-v3-small-p3.rad`
let tmp: ReturnType<typeof tempDir>

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

async function open(page: Page, path: string): Promise<void> {
  await page.getByTestId('file-input').setInputFiles(path)
}

/** Opens the file and waits until its index and its statistics are done (and so kept). */
async function openAndKeep(page: Page, path: string): Promise<void> {
  await open(page, path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
}

/** Back to the start page, where the cache's usage shows. */
async function startPage(page: Page): Promise<void> {
  await page.goto('/')
  await expect(page.getByTestId('drop-zone')).toBeVisible()
}

test('a file opened before reopens from the cache at once, its last record reachable; another file of the same size is scanned', async ({
  page,
}) => {
  const exp = await expectedOfFile(PATH)
  await startPage(page)
  await openAndKeep(page, PATH)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')

  await startPage(page)
  await expect(page.getByTestId('recent-files')).toContainText('1 file index kept in this browser')
  await open(page, PATH)
  const status = page.getByTestId('index-status')
  await expect(status).toHaveAttribute('data-source', 'cache')
  await expect(status).toHaveAttribute('data-state', 'done')
  await expect(status).toContainText('Indexed from this browser’s cache')
  await expect(page.getByTestId('stat-bytes')).toHaveAttribute('data-value', '0')
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))
  // The statistics kept with the index show without a new pass.
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-source', 'cache')
  const last = exp.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, last)).toContainText(must(exp.record(last).umi))

  await startPage(page)
  await open(page, SAME_SIZE)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('cache-rejected')).toHaveCount(0)
})

test('a copy damaged in the middle (same size, same 64 KiB ends) is scanned and found damaged, never "Clean" from the cache', async ({
  page,
}) => {
  const original = new Uint8Array(readFileSync(PATH))
  const kept = tmp.write('kept.rad', original)
  const { bytes } = await withBadReference(original, 2)
  const damaged = tmp.write('damaged.rad', bytes)
  expect(bytes.length).toBe(original.length)
  // The same name and size, edited in place: only the modification time tells the cache.
  await startPage(page)
  await openAndKeep(page, kept)
  tmp.write('kept.rad', readFileSync(damaged))
  const later = new Date(Date.now() + 60_000)
  utimesSync(kept, later, later)
  await startPage(page)
  await open(page, kept)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'damaged')
})

test('clear cached indexes empties the cache: the next open scans again', async ({ page }) => {
  await startPage(page)
  await openAndKeep(page, PATH)
  await startPage(page)
  const clear = page.getByTestId('clear-cache')
  await expect(clear).toBeEnabled()
  await expect(page.getByTestId('recent-files')).toContainText(/kept in this browser \(\d/)
  await clear.click()
  await expect(page.getByTestId('recent-files')).toContainText('No file indexes kept in this browser.')
  await expect(clear).toBeDisabled()
  await page.reload()
  await open(page, PATH)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
})

test('a cached entry that fails to decode is dropped with a message, and the file is scanned', async ({ page }) => {
  await startPage(page)
  await openAndKeep(page, PATH)
  // Damage every kept entry in place (one byte of its chunk table): its checksum no longer matches.
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('rad-viewer')
      req.onsuccess = () => {
        resolve(req.result)
      }
      req.onerror = () => {
        reject(new Error('no database'))
      }
    })
    const tx = db.transaction('indexes', 'readwrite')
    const store = tx.objectStore('indexes')
    const all = await new Promise<{ bytes: Uint8Array }[]>((resolve) => {
      const req = store.getAll()
      req.onsuccess = () => {
        resolve(req.result as { bytes: Uint8Array }[])
      }
    })
    for (const entry of all) {
      entry.bytes[70] = (entry.bytes[70] ?? 0) ^ 1
      store.put(entry)
    }
    await new Promise((resolve) => {
      tx.oncomplete = resolve
    })
    db.close()
  })
  await startPage(page)
  await open(page, PATH)
  await expect(page.getByTestId('cache-rejected')).toContainText('The cached index was not used')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
})

test('an open file is written to the recent files once, not at every render (it looped for the whole session)', async ({
  page,
}) => {
  // Counts the puts into the recent files' store (src/ui/persist/persistStore.ts) from the page's start.
  await page.addInitScript(() => {
    const counts = { recent: 0 }
    Object.assign(window, { radRecentPuts: counts })
    const proto = IDBObjectStore.prototype
    const put: IDBObjectStore['put'] = Reflect.get(proto, 'put')
    proto.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'recent') counts.recent++
      return put.apply(this, args)
    }
  })
  await page.goto('/')
  await openAndKeep(page, PATH)
  const puts = (): Promise<number> =>
    page.evaluate(() => (window as unknown as { radRecentPuts: { recent: number } }).radRecentPuts.recent)
  await expect.poll(puts).toBe(1)
  // The page goes on (the panel, the table): still once, however long it is open.
  await page.getByTestId('record-table').hover()
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done')
  await page.waitForTimeout(1000)
  expect(await puts()).toBe(1)
})
