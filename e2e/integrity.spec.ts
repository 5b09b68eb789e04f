import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { snappyFrame } from '../test/helpers/radWriter'
import { snappyDataFrameAt } from '../test/helpers/integrityCases'
import {
  FIXTURES,
  expectedOf,
  expectPanel,
  fmt,
  integrityOf,
  must,
  recordRow,
  salvagedBytes,
  statValue,
  tempDir,
  openPath,
  withBadReference,
} from './helpers'

/**
 * The integrity report (docs/integrity.md) in the browser: whatever is opened, the page says what it is and
 * what is wrong with it (error banner, integrity panel with chunk and byte
 * offset), keeps everything valid browsable, and saves the valid part of a
 * damaged file. Every expected value is the core's verdict on the same bytes.
 */
const V3 = `${FIXTURES}/rad-chromium-v3-small.rad`
const V2 = `${FIXTURES}/rad-chromium-v2-small.rad`

let tmp: ReturnType<typeof tempDir>

test.beforeAll(() => {
  tmp = tempDir()
})

test.afterAll(() => {
  tmp.remove()
})

/** Clicks "Save the valid part" and returns the downloaded file's path and bytes. */
async function salvage(page: Page, name: string): Promise<{ path: string; bytes: Uint8Array; suggested: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('salvage').click()])
  const path = join(tmp.dir, name)
  await download.saveAs(path)
  return { path, bytes: new Uint8Array(readFileSync(path)), suggested: download.suggestedFilename() }
}

/** The CLI's verdict on a file: exit code and output of `rad validate`. */
function validate(path: string): { code: number; out: string } {
  try {
    return { code: 0, out: execFileSync('node', ['bin/rad.mjs', 'validate', path], { encoding: 'utf8' }) }
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string }
    return { code: err.status, out: `${err.stdout}${err.stderr}` }
  }
}

test('a clean file: the panel says every chunk was checked', async ({ page }) => {
  const bytes = new Uint8Array(readFileSync(V3))
  const want = await integrityOf(bytes)
  expect(want.status).toBe('clean')
  const exp = await expectedOf(bytes)
  await openPath(page, V3)
  await expectPanel(page, want)
  await expect(page.getByTestId('integrity-panel')).toContainText(`${fmt(exp.scan.alignments ?? -1)} alignments`)
  await expect(page.getByTestId('salvage')).toHaveCount(0)
  await expect(page.getByTestId('error-banner')).toHaveCount(0)
})

test('truncated: banner and panel name chunk 2 and the byte; the link shows the last intact records; the salvaged file is clean', async ({
  page,
}) => {
  const whole = new Uint8Array(readFileSync(V3))
  const full = await expectedOf(whole)
  const cut = whole.slice(0, (full.scan.index.offset[2] ?? 0) + 5000)
  const path = tmp.write('truncated.rad', cut)
  const want = await integrityOf(cut)
  const exp = await expectedOf(cut)
  expect(want.status).toBe('damaged')
  expect(want.error?.code).toBe('TRUNCATED')
  expect(want.issues.map((i) => [i.kind, i.chunk])).toEqual([['truncated', 2]])

  await openPath(page, path)
  const banner = page.getByTestId('error-banner')
  await expect(banner).toHaveAttribute('data-code', 'TRUNCATED')
  await expect(banner).toHaveAttribute('data-offset', String(want.error?.offset))
  await expectPanel(page, want)

  // The link goes to the last record before the cut (chunk 2 was never indexed).
  const last = exp.records - 1
  await page.getByTestId('issue-goto').click()
  await expect(recordRow(page, last)).toContainText(must(full.record(last).umi))
  await expect(page.locator('[data-testid="chunk-row"][data-chunk="1"]')).toHaveAttribute('aria-selected', 'true')

  // Save the valid part: exactly the core's plan, and a clean file for the app and the CLI.
  const plan = want.salvage
  if (!plan) throw new Error('the core offers no salvage plan')
  await expect(page.getByTestId('salvage-what')).toContainText(`${fmt(plan.keptRecords)} records`)
  const saved = await salvage(page, 'truncated.salvaged.rad')
  expect(saved.suggested).toBe('truncated.salvaged.rad')
  expect(Buffer.from(saved.bytes).equals(Buffer.from(salvagedBytes(cut, plan)))).toBe(true)
  const after = await integrityOf(saved.bytes)
  expect(after.status).toBe('clean')
  const verdict = validate(saved.path)
  expect(verdict.code).toBe(0)
  expect(verdict.out).toContain(`ok: 2 chunks, ${String(exp.records)} records`)

  await page.getByTestId('file-input').setInputFiles(saved.path)
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'clean')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  expect(await statValue(page, 'chunks')).toBe(2)
  expect(await statValue(page, 'records')).toBe(exp.records)
})

test('a corrupt chunk in the middle is listed, linked and marked; the chunks after it stay browsable; salvage drops it', async ({
  page,
}) => {
  const original = new Uint8Array(readFileSync(V3))
  const full = await expectedOf(original)
  const { bytes, record } = await withBadReference(original, 1)
  const path = tmp.write('bad-ref.rad', bytes)
  const want = await integrityOf(bytes)
  expect(want.status).toBe('damaged')
  expect(want.error).toBeUndefined()
  expect(want.issues.map((i) => [i.kind, i.chunk, i.offset])).toEqual([['corrupt-chunk', 1, record]])

  await openPath(page, path)
  await expectPanel(page, want)
  // Not a stopping fault: no banner, and every chunk is indexed.
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('error-banner')).toHaveCount(0)
  expect(await statValue(page, 'chunks')).toBe(full.chunks)
  expect(await statValue(page, 'records')).toBe(full.records)
  await expect(page.locator('[data-testid="chunk-row"][data-chunk="1"]')).toHaveAttribute('data-damaged', 'true')
  await expect(page.locator('[data-testid="chunk-row"][data-chunk="0"]')).not.toHaveAttribute('data-damaged')

  // The link jumps the table to chunk 1.
  const first1 = must(full.scan.index.firstRecord[1])
  await page.getByTestId('issue-goto').click()
  await expect(page.locator('[data-testid="chunk-row"][data-chunk="1"]')).toHaveAttribute('aria-selected', 'true')
  await expect(recordRow(page, first1)).toBeVisible()

  // Chunks after it read as before.
  const first2 = must(full.scan.index.firstRecord[2])
  await page.getByTestId('goto-chunk').fill('2')
  await page.getByTestId('goto-chunk').press('Enter')
  await expect(recordRow(page, first2)).toContainText(must(full.record(first2).barcodes[0]))
  await expect(recordRow(page, first2)).toContainText(must(full.record(first2).umi))
  const last = full.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, last)).toContainText(must(full.record(last).umi))

  const plan = want.salvage
  if (!plan) throw new Error('the core offers no salvage plan')
  expect(plan.droppedChunks).toEqual([1])
  const saved = await salvage(page, 'bad-ref.salvaged.rad')
  expect(saved.suggested).toBe('bad-ref.salvaged.rad')
  expect(Buffer.from(saved.bytes).equals(Buffer.from(salvagedBytes(bytes, plan)))).toBe(true)
  const after = await expectedOf(saved.bytes)
  expect(after.scan.issues).toEqual([])
  expect(after.chunks).toBe(full.chunks - 1)
  expect(after.records).toBe(full.records - (full.scan.index.nrec[1] ?? 0))
  expect(validate(saved.path).code).toBe(0)

  await page.getByTestId('file-input').setInputFiles(saved.path)
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'clean')
  expect(await statValue(page, 'chunks')).toBe(full.chunks - 1)
  await expect(recordRow(page, 0)).toContainText(must(full.record(0).umi))
})

test('two concatenated files: the second prelude is named at its byte; the first file is fully browsable', async ({
  page,
}) => {
  const a = new Uint8Array(readFileSync(V3))
  const b = new Uint8Array(readFileSync(V2))
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  const path = tmp.write('joined.rad', joined)
  const want = await integrityOf(joined)
  const first = await expectedOf(a)
  expect(want.status).toBe('warnings')
  const joinedIssue = want.issues.find((i) => i.kind === 'concatenated')
  expect(joinedIssue?.offset).toBe(a.length)
  // The hint's command cuts out the second file exactly.
  expect((await integrityOf(joined.slice(a.length))).status).toBe('clean')

  await openPath(page, path)
  await expectPanel(page, want)
  await expect(page.locator('[data-kind="concatenated"]')).toContainText(`tail -c +${String(a.length + 1)} FILE`)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('error-banner')).toHaveCount(0)
  await expect(page.getByTestId('salvage')).toHaveCount(0)
  expect(await statValue(page, 'chunks')).toBe(first.chunks)
  expect(await statValue(page, 'records')).toBe(first.records)
  const last = first.records - 1
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
  await expect(recordRow(page, last)).toContainText(must(first.record(last).umi))
})

/** Files that are not RAD, each named with the core's message (which carries the hint). */
const FOREIGN: [string, string, () => Uint8Array][] = [
  ['gzip', 'reads.fastq.gz', () => new Uint8Array(gzipSync(readFileSync(V3)))],
  ['zstd', 'map.rad.zst', () => Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x10, 0x81, 0, 0, 1, 2, 3, 4, 5, 6, 7)],
  ['BAM', 'aln.bam', () => new Uint8Array([...Buffer.from('BAM\x01'), 10, 0, 0, 0, ...Buffer.from('@HD\tVN:1.6')])],
  ['SAM', 'aln.sam', () => new Uint8Array(Buffer.from('@HD\tVN:1.6\tSO:unsorted\n@SQ\tSN:chr1\tLN:100\n'))],
  ['text', 'notes.txt', () => new Uint8Array(Buffer.from('hello, this is not a RAD file\n'))],
  ['empty', 'empty.rad', () => new Uint8Array(0)],
  ['Snappy', 'cut.rad.sz', () => snappyFrame(new Uint8Array(readFileSync(V3))).slice(0, 5000)],
]

for (const [what, name, make] of FOREIGN) {
  test(`not RAD (${what}): the banner and the panel name it, with the hint`, async ({ page }) => {
    const bytes = make()
    const path = tmp.write(name, bytes)
    const want = await integrityOf(bytes, name)
    expect(want.status).toBe('unreadable')
    const error = want.error
    if (!error) throw new Error('the core found no error')

    await openPath(page, path)
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'error')
    const banner = page.getByTestId('error-banner')
    await expect(banner).toHaveAttribute('data-code', error.code)
    await expect(banner.locator('.error-message')).toHaveText(error.message)
    if (error.offset !== undefined) await expect(banner).toContainText(`at byte ${fmt(error.offset)}`)
    await expectPanel(page, want)
    await expect(page.getByTestId('record-row')).toHaveCount(0)
    const named: Record<string, RegExp> = {
      gzip: /gzip/,
      zstd: /zstd/,
      BAM: /BAM/,
      SAM: /SAM/,
      text: /text/,
      empty: /empty/,
      Snappy: /Snappy/,
    }
    await expect(page.getByTestId('integrity-panel')).toContainText(named[what] ?? /./)
  })
}

test('a damaged .sz file says salvage is for the command line', async ({ page }) => {
  const whole = new Uint8Array(readFileSync(V3))
  const full = await expectedOf(whole)
  const bytes = snappyFrame(whole.slice(0, (full.scan.index.offset[2] ?? 0) + 5000))
  const path = tmp.write('cut.collated.rad.sz', bytes)
  const want = await integrityOf(bytes)
  expect(want.status).toBe('damaged')

  await openPath(page, path)
  await expectPanel(page, want)
  await expect(page.getByTestId('salvage')).toHaveCount(0)
  const note = page.getByTestId('salvage-unavailable')
  await expect(note).toContainText('.sz')
  await expect(note).toContainText('node bin/rad.mjs salvage cut.collated.rad.sz')
  await expect(page.getByTestId('integrity-issue').last()).toContainText('of the unwrapped stream')
  expect(await statValue(page, 'chunks')).toBe(2)
})

test('a .sz frame whose checksum fails: an error at the frame, in the file and in the unwrapped stream', async ({
  page,
}) => {
  const sz = snappyFrame(new Uint8Array(readFileSync(V3)))
  const frame = snappyDataFrameAt(sz, 2)
  sz[frame + 4] = (sz[frame + 4] ?? 0) ^ 0x01 // the stored CRC, not the data
  const path = tmp.write('crc.collated.rad.sz', sz)
  const want = await integrityOf(sz, 'crc.collated.rad.sz')
  expect(want.status).toBe('damaged')
  const bad = want.issues.find((i) => i.kind === 'checksum-mismatch')
  expect(bad).toMatchObject({ offset: 2 * 65536, containerOffset: frame })
  expect(validate(path).code).toBe(1)

  await openPath(page, path)
  await expectPanel(page, want)
  const item = page.locator('[data-kind="checksum-mismatch"]')
  await expect(item).toHaveAttribute('data-container-offset', String(frame))
  await expect(item).toContainText(`byte ${fmt(2 * 65536)} of the unwrapped stream (byte ${fmt(frame)} of the file)`)
})

test('a length its type cannot hold (ulen 65,535, u32 UMI): readable, with warnings; UMIs shown at 16 nt', async ({
  page,
}) => {
  const bytes = new Uint8Array(readFileSync(V3))
  const clean = await expectedOf(bytes)
  const ulenAt = clean.prelude.fileTagValueOffsets[1] ?? -1
  new DataView(bytes.buffer).setUint16(ulenAt, 65535, true)
  const path = tmp.write('ulen.rad', bytes)
  const want = await integrityOf(bytes)
  expect(want.status).toBe('warnings')
  expect(want.issues).toMatchObject([{ kind: 'declared-length', severity: 'warning', offset: ulenAt }])
  expect(validate(path).code).toBe(2)
  const umi = (await expectedOf(bytes)).record(0).umi ?? ''
  expect(umi).toHaveLength(16)

  await openPath(page, path)
  await expectPanel(page, want)
  await expect(page.getByTestId('integrity-status')).toHaveText('Readable, with warnings')
  await expect(recordRow(page, 0)).toContainText(umi)
})

test.describe('with cores to spare, records are checked in a worker beside the walk (ADR 0002)', () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 8 })
    })
  })

  test('the same report: a clean file with every alignment counted, a corrupt chunk listed and left out of the salvage', async ({
    page,
  }) => {
    const started: string[] = []
    page.on('worker', (w) => started.push(w.url()))
    const clean = new Uint8Array(readFileSync(V3))
    const full = await expectedOf(clean)
    await openPath(page, V3)
    await expectPanel(page, await integrityOf(clean))
    await expect(page.getByTestId('integrity-panel')).toContainText(`${fmt(full.scan.alignments ?? -1)} alignments`)
    expect(started.some((url) => url.includes('check.worker'))).toBe(true)

    const { bytes } = await withBadReference(clean, 2)
    const path = tmp.write('bad-ref-beside.rad', bytes)
    const want = await integrityOf(bytes)
    await page.getByTestId('file-input').setInputFiles(path)
    await expectPanel(page, want)
    await expect(page.locator('[data-testid="chunk-row"][data-chunk="2"]')).toHaveAttribute('data-damaged', 'true')
    const plan = want.salvage
    if (!plan) throw new Error('the core offers no salvage plan')
    const saved = await salvage(page, 'bad-ref-beside.salvaged.rad')
    expect(Buffer.from(saved.bytes).equals(Buffer.from(salvagedBytes(bytes, plan)))).toBe(true)
  })

  test('the same report for a truncated file', async ({ page }) => {
    const whole = new Uint8Array(readFileSync(V3))
    const full = await expectedOf(whole)
    const cut = whole.slice(0, (full.scan.index.offset[3] ?? 0) + 12)
    await openPath(page, tmp.write('cut-beside.rad', cut))
    await expectPanel(page, await integrityOf(cut))
    expect(await statValue(page, 'chunks')).toBe(3)
  })
})
