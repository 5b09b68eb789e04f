import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { FIXTURES, tempDir } from './helpers'

/**
 * Kept cells (docs/cells.md, "Kept cells"): a cells pass is kept in the page's index cache with the
 * file, under its annotation files' content keys and its cut-off, so the same file with the same
 * files shows its cells at once (cells-panel data-source=cache) and another t2g counts again; a
 * sidecar `rad index --t2g` wrote gives them the same way (data-source=sidecar).
 */
const RAD = `${FIXTURES}/rad-chromium-v3-small.rad`
const NOTES = 'test/fixtures/annotations'
const T2G = `${NOTES}/t2g.tsv`
const NAMES = `${NOTES}/gene_names.tsv`
const PERMIT = `${NOTES}/permit.txt`

/** Opens the RAD file with annotation files chosen with it (files on disk: their modification times hold). */
async function openWith(page: Page, files: string[]): Promise<void> {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles([RAD, ...files])
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
}

/** Whether an entry of the page's index cache (IndexedDB `rad-viewer`, store `indexes`) holds a cells section. */
function cellsKept(page: Page): Promise<boolean> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('rad-viewer')
      req.onsuccess = () => {
        resolve(req.result)
      }
      req.onerror = () => {
        reject(new Error('no database'))
      }
    })
    try {
      if (!db.objectStoreNames.contains('indexes')) return false
      const all = await new Promise<{ bytes: Uint8Array }[]>((resolve) => {
        const req = db.transaction('indexes').objectStore('indexes').getAll()
        req.onsuccess = () => {
          resolve(req.result as { bytes: Uint8Array }[])
        }
      })
      // The section is JSON in the entry's bytes (docs/sidecar.md, "The cells section").
      return all.some((e) => new TextDecoder().decode(e.bytes).includes('"entries":[{'))
    } finally {
      db.close()
    }
  })
}

test('the cells of a file opened again with the same t2g come from the cache; another t2g counts again', async ({
  page,
}) => {
  await openWith(page, [T2G, NAMES])
  const panel = page.getByTestId('cells-panel')
  await expect(panel).toHaveAttribute('data-source', 'pass')
  await expect(page.getByTestId('cells-kept')).toHaveCount(0)
  const cells = await page.getByTestId('stat-cells').getAttribute('data-value')
  const umis = await page.getByTestId('stat-median-umis').getAttribute('data-value')
  // The entry is written when the pass ends: wait until the page's cache holds the cells section.
  await expect.poll(() => cellsKept(page), { timeout: 30_000 }).toBe(true)

  await openWith(page, [NAMES, T2G])
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'cache')
  await expect(panel).toHaveAttribute('data-source', 'cache')
  await expect(page.getByTestId('cells-kept')).toContainText('kept in this browser')
  await expect(page.getByTestId('stat-cells')).toHaveAttribute('data-value', cells ?? '')
  await expect(page.getByTestId('stat-median-umis')).toHaveAttribute('data-value', umis ?? '')
  await expect(page.getByTestId('cells-files')).toContainText('t2g.tsv: transcript-to-gene map')

  // The same t2g with one more line: other bytes, another key, a pass.
  const dir = tempDir()
  try {
    const other = dir.write('t2g.tsv', new Uint8Array(Buffer.concat([readFileSync(T2G), Buffer.from('ENST_X\tG_X\n')])))
    await openWith(page, [other, NAMES])
    await expect(page.getByTestId('cells-panel')).toHaveAttribute('data-source', 'pass')
  } finally {
    dir.remove()
  }
})

test('"Check every record" keeps the cells kept with the file: opened again, they show at once', async ({ page }) => {
  const dir = tempDir()
  try {
    // A copy of its own: the cache holds no other test's entry for it.
    const rad = dir.write('checked.rad', new Uint8Array(readFileSync(RAD)))
    const open = async (): Promise<void> => {
      await page.goto('/')
      await page.getByTestId('file-input').setInputFiles([rad, T2G, NAMES])
      await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
      await expect(page.getByTestId('cells-panel')).toBeVisible({ timeout: 30_000 })
    }
    await open()
    await expect(page.getByTestId('cells-panel')).toHaveAttribute('data-source', 'pass')
    await expect.poll(() => cellsKept(page), { timeout: 30_000 }).toBe(true)
    await open()
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'cache')
    await page.getByTestId('check-records').click()
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
    await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
    // The scanned session kept its index anew: with the cells, not without them.
    await open()
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'cache')
    await expect(page.getByTestId('cells-panel')).toHaveAttribute('data-source', 'cache')
  } finally {
    dir.remove()
  }
})

test('cells rad index wrote into the sidecar show when the same files are given with it', async ({ page }) => {
  const dir = tempDir()
  try {
    const rad = dir.write('map.rad', new Uint8Array(readFileSync(RAD)))
    const flags = ['--t2g', T2G, '--gene-names', NAMES, '--permit-list', PERMIT]
    execFileSync(process.execPath, ['bin/rad.mjs', 'index', rad, ...flags], { encoding: 'utf8' })
    const want = JSON.parse(
      execFileSync(process.execPath, ['bin/rad.mjs', 'stats', rad, ...flags, '--json'], { encoding: 'utf8' }),
    ) as { cells: { count: number; umis: { median: number } } }
    await page.goto('/')
    await page.getByTestId('file-input').setInputFiles([rad, `${rad}.rdx`, PERMIT, T2G, NAMES])
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'sidecar')
    await expect(page.getByTestId('cells-panel')).toHaveAttribute('data-source', 'sidecar', { timeout: 30_000 })
    await expect(page.getByTestId('cells-kept')).toContainText('counted by rad index')
    await expect(page.getByTestId('stat-cells')).toHaveAttribute('data-value', String(want.cells.count))
    await expect(page.getByTestId('stat-median-umis')).toHaveAttribute('data-value', String(want.cells.umis.median))
  } finally {
    dir.remove()
  }
})
