/**
 * Nothing hidden on the page (docs/format-notes.md: every tag the format allows is decoded and shown): every read-level tag at every width, the
 * records' room under open panels, the last record's alignments when it is expanded, the help
 * panel's keys and the knee plot on a phone. Screenshots go to SHOTS_DIR when it is set.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { SC_READS, salmonScRna } from '../test/helpers/assays'
import { radBytes, tag } from '../test/helpers/radWriter'
import type { RadSpec, WValue } from '../test/helpers/radWriter'
import { startRangeServer } from '../test/helpers/rangeServer'
import {
  SAMPLE,
  expectAccessible,
  fmt,
  must,
  openPath,
  recordRow,
  statValue,
  tempDir,
  writeRepeatedSample,
} from './helpers'

/** Read tags beyond barcode and UMI, which get optional columns (tableColumns.ts). */
const EXTRA_TAGS = ['xs', 'nh', 'sample', 'ts', 'as', 'nm', 'rg']

/** salmon scRNA reads with seven more read-level tags (too many columns for 1920 px); the last read has no alignments. */
function taggedFile(): Uint8Array {
  const base = salmonScRna([...SC_READS, { cb: 'ACACACACGTGTGTGT', umi: 'GGGGCCCCAAAA', alns: [] }], 3)
  const extra = [
    tag('xs', 'u16'),
    tag('nh', 'u8'),
    tag('sample', 'string'),
    tag('ts', 'u32'),
    tag('as', 'u16'),
    tag('nm', 'u8'),
    tag('rg', 'string'),
  ]
  const spec: RadSpec = {
    ...base,
    readTags: [...(base.readTags ?? []), ...extra],
    chunks: (base.chunks ?? []).map((c, k) => ({
      ...c,
      records: (c.records ?? []).map((r, i) => ({
        ...r,
        read: {
          ...(r.read as Readonly<Record<string, WValue>>),
          xs: 100 + 3 * k + i,
          nh: i + 1,
          sample: `donor-${String(3 * k + i)}`,
          ts: 4_000_000 + i,
          as: 60 - i,
          nm: k,
          rg: 'lane-1',
        },
      })),
    })),
  }
  return radBytes(spec)
}

let tmp: ReturnType<typeof tempDir>

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

/** Saves a screenshot for a person to look at, when SHOTS_DIR is set. */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SHOTS_DIR
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` })
}

const THEMES = ['light', 'dark'] as const

/** Copies of the sample's chunks in the file indexed slowly (4 chunks, 18,949 records each). */
const COPIES = 200

for (const [width, height, tagColumns] of [
  [1440, 900, 2],
  [1920, 1080, 6],
  [390, 844, 0],
] as const) {
  test.describe(`${String(width)} px`, () => {
    test.use({ viewport: { width, height } })

    test('every read-level tag shows, in a column or in the expanded record', async ({ page }) => {
      await openPath(page, tmp.write('tagged.rad', taggedFile()))
      await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
      // The table drops one optional column at a time: as many tags as fit keep their column.
      const columns = EXTRA_TAGS.map((name) => page.getByRole('columnheader', { name, exact: true }))
      await expect(columns[0] ?? page.locator('none')).toBeVisible({ visible: tagColumns > 0 })
      expect(await Promise.all(columns.map((c) => c.isVisible()))).toEqual(EXTRA_TAGS.map((_, i) => i < tagColumns))
      for (const record of [0, 5]) {
        const row = recordRow(page, record)
        await expect(row).toContainText(record === 0 ? 'ACGTACGTACGTACGT' : 'ACACACACGTGTGTGT')
        const hidden: string[] = []
        for (const name of EXTRA_TAGS) {
          if (!(await page.getByRole('columnheader', { name, exact: true }).isVisible())) hidden.push(name)
        }
        if (hidden.length === 0) continue
        // A record without alignments expands too, to its tags.
        await expect(row).toHaveAttribute('aria-expanded', 'false')
        await row.click()
        await expect(row).toHaveAttribute('aria-expanded', 'true')
        // One row per tag without a column, each in view, name and value.
        const tags = page.locator(`[data-testid="read-tag-row"][data-record="${String(record)}"]`)
        await expect(tags).toHaveCount(hidden.length)
        for (const name of hidden) {
          const field = tags.and(page.locator(`[data-tag="${name}"]`)).locator('.field')
          await expect(field).toBeInViewport({ ratio: 1 })
          const box = must(await field.boundingBox(), 'the tag field box')
          expect(box.x + box.width, name).toBeLessThanOrEqual(width)
        }
        if (hidden.includes('sample')) {
          await expect(tags.and(page.locator('[data-tag="sample"]'))).toContainText(`sample donor-${String(record)}`)
        }
        if (hidden.includes('nh')) {
          await expect(tags.and(page.locator('[data-tag="nh"]'))).toContainText(`nh ${String(record === 0 ? 1 : 3)}`)
        }
        if (record === 0) {
          await expect(page.locator('[data-testid="alignment-row"][data-record="0"]')).toHaveCount(2)
          await expectAccessible(page, 'an expanded record with its read tags')
          for (const theme of THEMES) {
            await page.emulateMedia({ colorScheme: theme })
            await shot(page, `expanded-tags-${String(width)}-${theme}`)
          }
        }
      }
    })
  })
}

test.describe('expanding', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('the last record on screen, expanded, scrolls its alignments into view', async ({ page }) => {
    await openPath(page, SAMPLE)
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
    await expect(recordRow(page, 0)).toContainText(/[ACGT]{16}/)
    const table = page.getByTestId('record-table')
    // The last record wholly in view.
    const last = await table.evaluate((el) => {
      const bottom = el.getBoundingClientRect().bottom
      const rows = Array.from(el.querySelectorAll<HTMLElement>('[data-testid="record-row"]'))
      const shown = rows.filter((r) => r.getBoundingClientRect().bottom <= bottom + 0.5)
      return Number(shown.at(-1)?.dataset.record)
    })
    const row = recordRow(page, last)
    await row.click()
    await expect(row).toHaveAttribute('aria-expanded', 'true')
    const alignments = page.locator(`[data-testid="alignment-row"][data-record="${String(last)}"]`)
    await expect(alignments.first()).toBeInViewport({ ratio: 1 })
    await expect(alignments.last()).toBeInViewport({ ratio: 1 })
    await expect(row).toBeInViewport({ ratio: 1 })
  })
})

/** Opens the statistics' plots; the filter bar is open already on a wide screen, opened on a phone. */
async function openPlotsAndFilter(page: Page): Promise<void> {
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done')
  await page.locator('.stats-details summary').click()
  await expect(page.locator('.stats-details')).toHaveAttribute('open', '')
  if ((await page.getByTestId('filter-panel').count()) === 0) await page.getByTestId('filter-toggle').click()
  await expect(page.getByTestId('filter-panel')).toBeVisible()
}

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test.describe(`plots and filter open at ${String(width)} × ${String(height)}`, () => {
    test.use({ viewport: { width, height } })

    test('the record table keeps at least 40 % of the window, in view', async ({ page }) => {
      await openPath(page, SAMPLE)
      await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
      await openPlotsAndFilter(page)
      const table = page.getByTestId('record-table')
      const box = must(await table.boundingBox(), 'the table box')
      expect(box.height).toBeGreaterThanOrEqual(0.4 * height)
      // Scrolled to (a jump scrolls the page to it), the whole table shows at once.
      await table.evaluate((el) => {
        el.scrollIntoView({ block: 'nearest' })
      })
      const seen = must(await table.boundingBox(), 'the table box')
      expect(seen.y).toBeGreaterThanOrEqual(-1)
      expect(seen.y + seen.height).toBeLessThanOrEqual(height + 1)
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme })
        await page.evaluate(() => {
          window.scrollTo(0, 0)
        })
        await shot(page, `plots-filter-${String(width)}-${theme}`)
      }
    })
  })
}

test.describe('go to during indexing', () => {
  test.use({ viewport: { width: 1440, height: 900 } })

  test('a record not indexed yet is gone to once it is; the message clears when indexing ends', async ({ page }) => {
    test.setTimeout(120_000)
    const path = join(tmp.dir, 'repeated.rad')
    const big = await writeRepeatedSample(path, COPIES)
    // The server holds the walk in the middle of the file until the go-tos are typed: the index is
    // surely not done while they wait, however fast or loaded the machine (issue 36 §1).
    const bytes = new Uint8Array(readFileSync(path))
    const hold = { from: bytes.length >> 1, to: bytes.length - (256 << 10) }
    const server = await startRangeServer({ '/map.rad': bytes }, { hold })
    try {
      await page.goto('/')
      await page.getByTestId('open-url').fill(server.url('/map.rad'))
      await page.getByTestId('open-url').press('Enter')
      await expect(recordRow(page, 0)).toContainText(/[ACGT]{16}/)
      await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'indexing')
      const indexed = await statValue(page, 'records')
      const last = big.records - 1
      expect(indexed).toBeLessThan(last)

      const message = page.getByTestId('goto-message')
      // Not indexed yet (past the end of the file, as it happens): it waits, and is not refused against the count so far.
      await page.getByTestId('goto-chunk').fill(String(big.chunks + 3))
      await page.getByTestId('goto-chunk').press('Enter')
      await expect(message).toContainText(`Chunk ${fmt(big.chunks + 3)} is not indexed yet`)
      await expect(page.getByTestId('goto-chunk')).not.toHaveAttribute('aria-invalid', 'true')

      await page.getByTestId('goto-record').fill(String(last))
      await page.getByTestId('goto-record').press('Enter')
      await expect(message).toContainText(`Record ${fmt(last)} is not indexed yet`)
      server.release()
      await expect(recordRow(page, last)).toHaveAttribute('aria-selected', 'true', { timeout: 60_000 })
      await expect(recordRow(page, last)).toBeInViewport()
      await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done', { timeout: 60_000 })
      await expect(message).toBeEmpty()
    } finally {
      await server.close()
    }
  })
})

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test.describe(`help at ${String(width)} px`, () => {
    test.use({ viewport: { width, height } })

    test('? opens the help, which covers keys, filters, statistics and export; Escape closes it', async ({ page }) => {
      await openPath(page, SAMPLE)
      await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
      const help = page.getByTestId('help')
      // Typed in a field, ? is text.
      await page.getByTestId('goto-record').fill('')
      await page.getByTestId('goto-record').press('?')
      await expect(help).toHaveCount(0)
      await page.getByTestId('record-table').focus()
      await page.keyboard.press('?')
      await expect(help).toBeVisible()
      await expect(help).toBeFocused()
      for (const heading of ['Keys', 'Filters', 'Statistics', 'Export']) {
        await expect(help.getByRole('heading', { name: heading, exact: true })).toBeVisible()
      }
      for (const term of ['PgUp PgDn', '→ ←', 'Esc', 'Reference', 'Sequencing saturation', 'Knee plot', 'JSON Lines']) {
        await expect(help.locator('dt', { hasText: term }).first()).toBeAttached()
      }
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme })
        await shot(page, `help-${String(width)}-${theme}`)
        await expectAccessible(page, `the help panel (${theme})`)
      }
      await page.keyboard.press('Escape')
      await expect(help).toHaveCount(0)
      await expect(page.getByTestId('help-toggle')).toBeFocused()
      await page.keyboard.press('?')
      await expect(help).toBeVisible()
      await page.keyboard.press('?')
      await expect(help).toHaveCount(0)
    })
  })
}

interface LabelBox {
  label: string
  left: number
  top: number
  width: number
  height: number
}

/** The knee plot's line labels as drawn (KneePlot.tsx data-labels), relative to the plot. */
async function kneeLabels(page: Page): Promise<LabelBox[]> {
  const text = must(await page.getByTestId('knee-plot').getAttribute('data-labels'), 'the drawn labels')
  return JSON.parse(text) as LabelBox[]
}

function expectApart(boxes: readonly LabelBox[], plotWidth: number): void {
  for (const [i, a] of boxes.entries()) {
    expect(a.left, a.label).toBeGreaterThanOrEqual(0)
    expect(a.left + a.width, a.label).toBeLessThanOrEqual(plotWidth + 0.5)
    for (const b of boxes.slice(i + 1)) {
      const apart =
        a.left + a.width <= b.left ||
        b.left + b.width <= a.left ||
        a.top + a.height <= b.top ||
        b.top + b.height <= a.top
      expect(apart, `${a.label} and ${b.label}`).toBe(true)
    }
  }
}

test.describe('knee plot at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('its labels do not overlap; expect/force-cells show only once set', async ({ page }) => {
    await openPath(page, SAMPLE)
    await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done')
    await page.locator('.stats-details summary').click()
    const plot = page.getByTestId('knee-plot')
    await expect(plot.locator('canvas')).toBeVisible()
    const width = must(await plot.boundingBox(), 'the plot box').width
    await expect
      .poll(async () => (await kneeLabels(page)).map((b) => b.label.split(' ')[0]))
      .toEqual(['cut-off', 'knee'])
    expectApart(await kneeLabels(page), width)

    const figure = page.locator('.stats-knee')
    await figure.getByLabel('--expect-cells').fill('40')
    await figure.getByRole('button', { name: 'Show' }).click()
    await expect
      .poll(async () => (await kneeLabels(page)).map((b) => b.label.split(' ')[0]))
      .toEqual(['cut-off', 'knee', 'expect-cells'])
    expectApart(await kneeLabels(page), width)
    await figure.getByLabel('--force-cells').fill('60')
    await figure.getByRole('button', { name: 'Show' }).click()
    await expect
      .poll(async () => (await kneeLabels(page)).map((b) => b.label.split(' ')[0]))
      .toEqual(['cut-off', 'knee', 'expect-cells', 'force-cells'])
    expectApart(await kneeLabels(page), width)
    await figure.evaluate((el) => {
      el.scrollIntoView({ block: 'start' })
    })
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme })
      await expect.poll(async () => (await kneeLabels(page)).length).toBe(4)
      await shot(page, `knee-390-${theme}`)
    }
  })
})

test('counts are pluralised: one chunk, one record, one alignment', async ({ page }) => {
  const one = must(SC_READS[1], 'a read with one alignment')
  await openPath(page, tmp.write('one.rad', radBytes(salmonScRna([one], 1))))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  const summary = page.getByTestId('integrity-panel').locator('.integrity-summary')
  await expect(summary).toHaveText('Every chunk was checked: 1 chunk, 1 record, 1 alignment. Nothing is wrong.')
})
