import { execFileSync, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { BytesSource } from '../src/io/byteSource'
import { openRad } from '../src/io/openRad'
import { scanChunks } from '../src/io/scanChunks'
import { chunkSpan } from '../src/rad/decode/chunk'
import { decodeChunk } from '../src/rad/decode/decodeChunk'
import { recordView } from '../src/rad/text/display'
import { inferSemantics } from '../src/rad/prelude/semantics'
import { SAMPLE, must, tempDir } from './helpers'

/**
 * The page's export (docs/subsets.md, ADR 0006): the selection is streamed by an export
 * worker to a file the user picked (File System Access API, here an OPFS
 * file) or to a capped Blob that is downloaded. The answers are the CLI's:
 * `rad subset` bytes, `view` lines, `dump` lines, `stats --tsv`.
 */
const sample = new Uint8Array(readFileSync(SAMPLE))

function cli(...args: string[]): Buffer {
  return execFileSync(process.execPath, ['bin/rad.mjs', ...args], { maxBuffer: 256 << 20 })
}

/** The sample's records: their barcodes, and each chunk's first record number. */
async function sampleRecords(): Promise<{ barcodes: string[]; firstRecord: number[] }> {
  const { source, prelude } = await openRad(new BytesSource(sample, 'sample.rad'))
  const sem = inferSemantics(prelude)
  const scan = await scanChunks(source, prelude)
  const barcodes: string[] = []
  const firstRecord: number[] = []
  for (let k = 0; k < scan.index.count; k++) {
    const offset = scan.index.offset[k] ?? 0
    const span = chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention)
    const cols = decodeChunk(sample.subarray(offset, offset + span), offset, k, prelude, scan.convention)
    firstRecord.push(barcodes.length)
    for (let r = 0; r < cols.recordCount; r++) barcodes.push(recordView(cols, r, prelude, sem).barcodes[0] ?? '')
  }
  firstRecord.push(barcodes.length)
  return { barcodes, firstRecord }
}

/** Barcodes of every record of a RAD file, read with our reader (it must read clean). */
async function barcodesOf(bytes: Uint8Array): Promise<string[]> {
  const { source, prelude } = await openRad(new BytesSource(bytes, 'subset.rad'))
  const sem = inferSemantics(prelude)
  const scan = await scanChunks(source, prelude)
  expect(scan.error).toBeUndefined()
  const out: string[] = []
  for (let k = 0; k < scan.index.count; k++) {
    const offset = scan.index.offset[k] ?? 0
    const span = chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention)
    const cols = decodeChunk(bytes.subarray(offset, offset + span), offset, k, prelude, scan.convention)
    for (let r = 0; r < cols.recordCount; r++) out.push(recordView(cols, r, prelude, sem).barcodes[0] ?? '')
  }
  return out
}

async function openSample(page: Page): Promise<void> {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(SAMPLE)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
}

async function filterBarcode(page: Page, barcode: string, matches: number): Promise<void> {
  await page.getByTestId('filter-barcode').fill(barcode)
  await page.getByTestId('filter-barcode').press('Enter')
  await expect(page.getByTestId('filter-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('filter-count')).toHaveAttribute('data-value', String(matches))
}

/** Starts the export chosen in the open dialog and returns the downloaded bytes (the Blob path). */
async function exportDownload(page: Page): Promise<{ bytes: Uint8Array; name: string }> {
  const download = page.waitForEvent('download')
  await page.getByTestId('export-start').click()
  const d = await download
  const path = must(await d.path(), 'the downloaded export')
  await expect(page.getByTestId('export-summary')).toBeVisible()
  return { bytes: new Uint8Array(readFileSync(path)), name: d.suggestedFilename() }
}

/** Removes the File System Access API: the page falls back to the capped Blob. */
async function noFilePicker(page: Page): Promise<void> {
  await page.addInitScript(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker
  })
}

test('a barcode filter exported as RAD through a Blob: a valid file holding exactly the matching records', async ({
  page,
}) => {
  await noFilePicker(page)
  const { barcodes } = await sampleRecords()
  const barcode = must(barcodes.at(-1))
  const want = barcodes.filter((b) => b === barcode).length
  await openSample(page)
  await filterBarcode(page, barcode, want)
  await page.getByTestId('export-button').click()
  await expect(page.getByTestId('export-dialog')).toBeVisible()
  await expect(page.getByTestId('export-pick-filter')).toBeChecked()
  await expect(page.getByTestId('export-format-rad')).toBeChecked()
  await expect(page.getByTestId('export-dialog')).toContainText('up to 1 GiB')
  const { bytes, name } = await exportDownload(page)
  expect(name).toBe('sample.subset.rad')
  await expect(page.getByTestId('export-summary')).toHaveAttribute('data-records', String(want))
  await expect(page.getByTestId('export-summary')).toHaveAttribute('data-bytes', String(bytes.length))

  expect(await barcodesOf(bytes)).toEqual(Array.from({ length: want }, () => barcode))
  const { dir, remove } = tempDir()
  try {
    const out = join(dir, 'page.rad')
    writeFileSync(out, bytes)
    expect(spawnSync(process.execPath, ['bin/rad.mjs', 'validate', out]).status).toBe(0)
    const cliOut = join(dir, 'cli.rad')
    cli('subset', SAMPLE, cliOut, '--barcode', barcode)
    expect(Buffer.from(bytes).equals(readFileSync(cliOut))).toBe(true)
  } finally {
    remove()
  }
  // Escape closes the dialog.
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('export-dialog')).toBeHidden()
})

test('a chunk range as TSV and JSON Lines: the lines rad view and rad dump print for those chunks', async ({
  page,
}) => {
  await noFilePicker(page)
  const { firstRecord } = await sampleRecords()
  const [from, to] = [1, 2]
  const first = must(firstRecord[from])
  const end = must(firstRecord[to + 1])
  await openSample(page)
  await page.getByTestId('export-button').click()
  // No filter has run: that choice is shown disabled, with the reason.
  await expect(page.getByTestId('export-pick-filter')).toBeDisabled()
  await expect(page.getByTestId('export-dialog')).toContainText('run a filter first')
  await page.getByTestId('export-pick-chunks').check()
  await page.getByTestId('export-from').fill(String(from))
  await page.getByTestId('export-to').fill(String(to))

  await page.getByTestId('export-format-tsv').check()
  const tsv = new TextDecoder().decode((await exportDownload(page)).bytes)
  const viewLines = cli('view', SAMPLE)
    .toString('utf8')
    .split('\n')
    .filter((line) => {
      const id = Number(/^ID:(\d+)\t/.exec(line)?.[1] ?? -1)
      return id >= first && id < end
    })
  expect(tsv).toBe(`${viewLines.join('\n')}\n`)
  await expect(page.getByTestId('export-summary')).toHaveAttribute('data-records', String(end - first))

  await page.getByTestId('export-format-jsonl').check()
  const jsonl = new TextDecoder().decode((await exportDownload(page)).bytes)
  const dumped = [from, to].map((k) => cli('dump', SAMPLE, '--chunk', String(k)).toString('utf8')).join('')
  expect(jsonl).toBe(dumped)
})

test('the streamed path (a picked file, here in OPFS) writes the same bytes as the Blob path', async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { showSaveFilePicker: (o: { suggestedName: string }) => Promise<unknown> }
    w.showSaveFilePicker = async ({ suggestedName }) => {
      const root = await navigator.storage.getDirectory()
      return root.getFileHandle(`picked-${suggestedName}`, { create: true })
    }
  })
  const { barcodes } = await sampleRecords()
  const barcode = must(barcodes[0])
  await openSample(page)
  await filterBarcode(page, barcode, barcodes.filter((b) => b === barcode).length)
  await page.getByTestId('export-button').click()
  await expect(page.getByTestId('export-dialog')).toContainText('written as the records are read')
  await page.getByTestId('export-start').click()
  await expect(page.getByTestId('export-summary')).toBeVisible()
  const streamed = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory()
    const file = await (await root.getFileHandle('picked-sample.subset.rad')).getFile()
    return Array.from(new Uint8Array(await file.arrayBuffer()))
  })
  // The same export again through the Blob path (the picker taken away).
  await page.getByTestId('export-close').click()
  await page.evaluate(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker
  })
  await page.getByTestId('export-button').click()
  const { bytes } = await exportDownload(page)
  expect(streamed.length).toBeGreaterThan(0)
  expect(Buffer.from(streamed).equals(Buffer.from(bytes))).toBe(true)
})

test('the cells above the knee, and the statistics TSV: the same bytes as rad stats --tsv', async ({ page }) => {
  await noFilePicker(page)
  await openSample(page)
  const tsvDownload = page.waitForEvent('download')
  await page.getByTestId('stats-save-tsv').click()
  const tsvPath = must(await (await tsvDownload).path())
  const tsv = readFileSync(tsvPath)
  expect(tsv.equals(cli('stats', SAMPLE, '--tsv'))).toBe(true)
  // The cut-off starts at the knee: the cells are the TSV's above-knee barcodes.
  const rows = tsv
    .toString('utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
  const cells = rows.filter((r) => r[3] === '1')
  const reads = cells.reduce((n, r) => n + Number(r[1]), 0)
  await page.getByTestId('export-button').click()
  await page.getByTestId('export-pick-cells').check()
  const { bytes } = await exportDownload(page)
  await expect(page.getByTestId('export-summary')).toHaveAttribute('data-records', String(reads))
  const kept = new Set(cells.map((r) => r[0]))
  const got = await barcodesOf(bytes)
  expect(got.length).toBe(reads)
  expect(got.every((b) => kept.has(b))).toBe(true)
})

test('Cancel stops the export: it does not start again, and the picked file is dropped, not kept', async ({ page }) => {
  // A picked file whose writes wait for the test: the export is surely running when Cancel is pressed.
  await page.addInitScript(() => {
    const log = { writes: 0, closed: 0, aborted: 0, picked: 0 }
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    Object.assign(window, {
      exportLog: log,
      releaseWrites: () => {
        release()
      },
    })
    const w = window as unknown as { showSaveFilePicker: () => Promise<unknown> }
    w.showSaveFilePicker = () => {
      log.picked++
      return Promise.resolve({
        createWritable: () =>
          Promise.resolve({
            write: async () => {
              log.writes++
              await held
            },
            close: () => {
              log.closed++
              return Promise.resolve()
            },
            abort: () => {
              log.aborted++
              return Promise.resolve()
            },
          }),
      })
    }
  })
  await openSample(page)
  await page.getByTestId('export-button').click()
  await page.getByTestId('export-pick-chunks').check()
  await page.getByTestId('export-start').click()
  type Log = { writes: number; closed: number; aborted: number; picked: number }
  const log = (): Promise<Log> => page.evaluate(() => (window as unknown as { exportLog: Log }).exportLog)
  await expect.poll(async () => (await log()).writes).toBeGreaterThan(0)
  await page.getByTestId('export-cancel').click()
  await expect(page.getByTestId('export-start')).toBeVisible()
  await page.evaluate(() => {
    ;(window as unknown as { releaseWrites: () => void }).releaseWrites()
  })
  await expect.poll(async () => (await log()).aborted).toBe(1)
  const after = await log()
  // One pick, one run: Cancel did not submit the form again.
  expect(after).toMatchObject({ picked: 1, closed: 0, aborted: 1 })
  await expect(page.getByTestId('export-summary')).toHaveCount(0)
})
