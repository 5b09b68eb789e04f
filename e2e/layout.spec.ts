import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { SAMPLE, expectedOfFile, fmt, must, recordRow } from './helpers'
import type { Expected } from './helpers'

/** Opens the bundled sample with "Try a sample", as a new user would, and waits for the index. */
async function openSample(page: Page): Promise<Expected> {
  const exp = await expectedOfFile(SAMPLE)
  await page.goto('/')
  await page.getByRole('button', { name: 'Try a sample' }).click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  return exp
}

/** WCAG relative luminance of the page background (0 black … 1 white). */
async function backgroundLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const rgb = (getComputedStyle(document.documentElement).backgroundColor.match(/[\d.]+/g) ?? []).map(Number)
    const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4)
    const [r = 0, g = 0, b = 0] = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
  })
}

/** Left edges of the header cells and of record `n`'s cells, the hidden (display: none) ones left out. */
async function columnEdges(page: Page, n: number): Promise<{ head: number[]; row: number[] }> {
  const lefts = (selector: string) =>
    page
      .locator(selector)
      .evaluateAll((els) =>
        els.filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.getBoundingClientRect().left),
      )
  return {
    head: await lefts('.table-head > *'),
    row: await lefts(`[data-testid="record-row"][data-record="${String(n)}"] > *`),
  }
}

async function expectColumnsAligned(page: Page, exp: Expected): Promise<void> {
  await expect(recordRow(page, 0)).toContainText(must(exp.record(0).barcodes[0], 'record 0 barcode'))
  const { head, row } = await columnEdges(page, 0)
  expect(row.length).toBe(head.length)
  head.forEach((left, i) => {
    expect(Math.abs(left - (row[i] ?? Number.NaN)), `column ${String(i)}`).toBeLessThanOrEqual(1)
  })
}

test.describe('phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('the sample opens and its records are readable; the sidebar starts collapsed and toggles', async ({ page }) => {
    const exp = await openSample(page)
    // The layout settles with the verdict: the checking sentence is a line longer than "Clean"'s.
    await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
    const want = exp.record(0)
    const row = recordRow(page, 0)
    await expect(row).toBeInViewport()
    await expect(row).toContainText(must(want.barcodes[0], 'record 0 barcode'))
    const table = must(await page.getByTestId('record-table').boundingBox(), 'the table box')
    expect(table.width).toBeGreaterThan(300)
    // Below the top bar and the status, integrity and statistics panels, the table keeps ten rows' room.
    expect(table.height).toBeGreaterThan(280)
    expect(table.y + table.height).toBeLessThanOrEqual(844 + 1)
    // Nothing but the table scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    const toggle = page.getByTestId('sidebar-toggle')
    const sidebar = page.locator('aside.sidebar')
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(sidebar).toBeHidden()
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'true')
    await expect(sidebar).toBeVisible()
    await expect(page.getByTestId('chunk-list')).toBeVisible()
    await toggle.click()
    await expect(toggle).toHaveAttribute('aria-expanded', 'false')
    await expect(sidebar).toBeHidden()
    await expect(row).toBeInViewport()
  })

  test('the essential columns stay and line up with their headers', async ({ page }) => {
    const exp = await openSample(page)
    await expect(page.getByRole('columnheader', { name: 'Chunk' })).toBeHidden()
    for (const name of ['Record', 'Aln', 'Barcode']) {
      await expect(page.getByRole('columnheader', { name })).toBeVisible()
    }
    await expectColumnsAligned(page, exp)
  })
})

test.describe('laptop (1280 × 720)', () => {
  test.use({ viewport: { width: 1280, height: 720 } })

  test('with the statistics and the integrity verdict shown, the records keep most of the window', async ({ page }) => {
    await openSample(page)
    await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done')
    // The filter bar is open on a wide screen, on one line, and the page does not scroll.
    await expect(page.getByTestId('filter-panel')).toBeVisible()
    const bar = must(await page.locator('.filter-bar').boundingBox(), 'the filter bar box')
    expect(bar.height).toBeLessThan(48)
    const table = must(await page.getByTestId('record-table').boundingBox(), 'the table box')
    expect(table.height).toBeGreaterThan(0.55 * 720)
    expect(table.y + table.height).toBeLessThanOrEqual(720 + 1)
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(720)
    // Folded away, it gives the records its height.
    await page.getByTestId('filter-toggle').click()
    await expect(page.getByTestId('filter-panel')).toHaveCount(0)
    const taller = must(await page.getByTestId('record-table').boundingBox(), 'the table box')
    expect(taller.height).toBeGreaterThan(table.height)
  })
})

test.describe('wide (1440 px)', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('every column header lines up with its values (±1 px), the sidebar open', async ({ page }) => {
    const exp = await openSample(page)
    await expect(page.getByTestId('sidebar-toggle')).toHaveAttribute('aria-expanded', 'true')
    await expect(page.getByRole('columnheader', { name: 'Chunk' })).toBeVisible()
    await expect(page.getByRole('columnheader', { name: 'First alignment' })).toBeInViewport()
    await expectColumnsAligned(page, exp)
  })
})

test.describe('go to', () => {
  test.use({ viewport: { width: 800, height: 700 } })

  test('the Go button jumps; invalid input says why, tied to its field', async ({ page }) => {
    const exp = await openSample(page)
    // The bar fits an 800 px window.
    const bar = page.locator('.records-bar')
    expect(await bar.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true)

    const input = page.getByTestId('goto-record')
    const last = exp.records - 1
    await input.fill(String(last))
    await page.getByTestId('goto-record-button').click()
    await expect(recordRow(page, last)).toBeInViewport()
    await expect(recordRow(page, last)).toHaveAttribute('aria-selected', 'true')

    const message = page.getByTestId('goto-message')
    await input.fill('abc')
    await page.getByTestId('goto-record-button').click()
    await expect(message).toContainText('“abc” is not a record number')
    await expect(message).toContainText(`0 to ${fmt(last)}`)
    await expect(input).toHaveAttribute('aria-invalid', 'true')
    const described = must(await input.getAttribute('aria-describedby'), 'aria-describedby')
    expect(described).toBe(await message.getAttribute('id'))

    const chunk = page.getByTestId('goto-chunk')
    await chunk.fill(String(exp.chunks))
    await chunk.press('Enter')
    await expect(message).toContainText(`There are ${fmt(exp.chunks)} chunks indexed`)
    await expect(chunk).toHaveAttribute('aria-invalid', 'true')
    await expect(input).not.toHaveAttribute('aria-invalid', 'true')
    // Typing again clears the complaint.
    await chunk.fill('0')
    await expect(message).toBeEmpty()
  })
})

test.describe('theme', () => {
  test('dark when the system prefers dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.goto('/')
    expect(await backgroundLuminance(page)).toBeLessThan(0.05)
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-theme-choice', 'system')
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.8)
  })

  test('the toggle cycles system → light → dark and is remembered across a reload', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto('/')
    const toggle = page.getByTestId('theme-toggle')
    await expect(toggle).toHaveAttribute('data-theme-choice', 'system')
    await toggle.click()
    await expect(toggle).toHaveAttribute('data-theme-choice', 'light')
    await toggle.click()
    await expect(toggle).toHaveAttribute('data-theme-choice', 'dark')
    expect(await backgroundLuminance(page)).toBeLessThan(0.05)
    await page.reload()
    await expect(toggle).toHaveAttribute('data-theme-choice', 'dark')
    expect(await backgroundLuminance(page)).toBeLessThan(0.05)
    // Light, chosen, wins over a dark system.
    await page.emulateMedia({ colorScheme: 'dark' })
    await toggle.click()
    await toggle.click()
    await expect(toggle).toHaveAttribute('data-theme-choice', 'light')
    await page.reload()
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.8)
  })
})
