import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, readFileSync, statSync, utimesSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import type { Page } from '@playwright/test'
import { sampleBlocks } from '../src/io/fileFingerprint'
import { CHUNK_HEADER_BYTES, recordLayout } from '../src/rad/decode/chunk'
import { inferSemantics } from '../src/rad/prelude/semantics'
import { decodeSidecar, encodeSidecar } from '../src/rad/sidecar/sidecar'
import { makeCheckPlan } from '../src/rad/checks/valueChecks'
import type { DecodedSidecar, KnownIndex } from '../src/rad/sidecar/sidecar'
import type { StatsJson } from '../src/rad/stats/statsTypes'
import { startRangeServer } from '../test/helpers/rangeServer'
import {
  FIXTURES,
  dropFiles,
  expectAccessible,
  expectedOf,
  expectedOfFile,
  must,
  recordRow,
  tempDir,
  withBadReference,
} from './helpers'

/**
 * A sidecar is a claim, not the truth (docs/sidecar.md, "A sidecar is a claim"): a `.rdx` or a cached index
 * whose checksum is valid may still say things about the file that are not so. Each test crafts
 * one with the real encoder (src/rad/sidecar/sidecar.ts, which recomputes the checksum) and checks that
 * the page neither throws nor believes it: a section of another shape is dropped with a message,
 * a chunk table that disagrees with the chunk headers is dropped and the file scanned, and a
 * recorded verdict is never shown as "Clean" before this page checked the records.
 */
const PATH = `${FIXTURES}/rad-chromium-v3-small.rad`
const SHOTS = '/tmp/shots-sidecar'

let tmp: ReturnType<typeof tempDir>

test.beforeAll(() => {
  tmp = tempDir()
  mkdirSync(SHOTS, { recursive: true })
})

test.afterAll(() => {
  tmp.remove()
})

/** The sidecar the CLI writes for `bytes`, decoded. */
function sidecarOf(bytes: Uint8Array, name: string): DecodedSidecar {
  const path = tmp.write(name, bytes)
  execFileSync(process.execPath, ['bin/rad.mjs', 'index', path])
  return decodeSidecar(new Uint8Array(readFileSync(`${path}.rdx`)))
}

/** Encodes an edited sidecar: the encoder writes a valid checksum, so only the reader's checks stand between it and the page. */
function craft(known: DecodedSidecar, edit: Partial<KnownIndex>): Uint8Array {
  return encodeSidecar({ ...known, verdict: must(known.verdict), ...edit })
}

async function dropWith(page: Page, bytes: Uint8Array, rdx: Uint8Array): Promise<void> {
  await page.goto('/')
  await dropFiles(page, [
    { name: 'map.rad', bytes },
    { name: 'map.rad.rdx', bytes: rdx },
  ])
}

/** Screenshots at 1440 and 390 px wide, light and dark (as sidecar.spec.ts takes them). */
async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.screenshot({ path: `${SHOTS}/${name}-${String(width)}-${scheme}.png` })
    }
  }
  await page.emulateMedia({ colorScheme: 'light' })
  await page.setViewportSize({ width: 1280, height: 720 })
}

async function goToLast(page: Page, last: number): Promise<void> {
  await page.getByTestId('goto-record').fill(String(last))
  await page.getByTestId('goto-record').press('Enter')
}

test('statistics of another shape in a sidecar (checksum valid): dropped with a message, the file shown, the statistics computed', async ({
  page,
}) => {
  const bytes = new Uint8Array(readFileSync(PATH))
  const known = sidecarOf(bytes, 'stats.rad')
  const stdout = execFileSync(process.execPath, ['bin/rad.mjs', 'stats', PATH, '--json'], { encoding: 'utf8' })
  const real = JSON.parse(stdout) as StatsJson
  // The panel maps over barcodes.top: a string there threw while rendering and blanked the page.
  const stats = { json: { ...real, barcodes: { ...real.barcodes, top: 'ACGT' } } }
  await dropWith(page, bytes, craft(known, { stats }))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'sidecar')
  const dropped = page.getByTestId('section-dropped')
  await expect(dropped).toHaveAttribute('data-section', 'statistics')
  await expect(dropped).toContainText(
    'Part of the sidecar index was not used: its statistics section does not have the expected shape (json.barcodes.top is a string, not a list). The statistics are not taken from it.',
  )
  await expect(page.getByTestId('render-failed')).toHaveCount(0)
  await expect(recordRow(page, 0)).toBeVisible()
  // Computed from the file instead of shown from the sidecar.
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  await expect(page.getByTestId('stats-panel')).not.toHaveAttribute('data-source', 'cache')
  await shoot(page, 'stats-dropped')
})

test('a verdict section of another shape: dropped with a message, no verdict, the check offered', async ({ page }) => {
  const bytes = new Uint8Array(readFileSync(PATH))
  const known = sidecarOf(bytes, 'verdict.rad')
  const verdict = { ...must(known.verdict), issues: [{ kind: 'note', severity: 'info', message: { text: 'x' } }] }
  await dropWith(page, bytes, craft(known, { verdict: verdict as unknown as KnownIndex['verdict'] }))
  await expect(page.getByTestId('section-dropped')).toContainText(
    'its verdict section does not have the expected shape (issues[0].message is an object, not a string). There is no recorded verdict: check the records for one.',
  )
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'unchecked')
  await expect(page.getByTestId('integrity-panel')).toContainText('The sidecar index (.rdx) holds no usable verdict')
  await expect(recordRow(page, 0)).toBeVisible()
})

test('a sidecar whose record count was changed (checksum fixed): dropped at the first chunk header read, the file scanned, every record there', async ({
  page,
}) => {
  const bytes = new Uint8Array(readFileSync(PATH))
  const exp = await expectedOf(bytes)
  const known = sidecarOf(bytes, 'count.rad')
  // 1,001 records of chunk 0 hidden, the rest renumbered, the totals made to agree.
  const index = { ...known.index, nrec: known.index.nrec.slice(), firstRecord: known.index.firstRecord.slice() }
  index.nrec[0] = must(index.nrec[0]) - 1001
  for (let k = 1; k < index.count; k++) index.firstRecord[k] = must(index.firstRecord[k]) - 1001
  await dropWith(page, bytes, craft(known, { index, records: known.records - 1001 }))
  const rescanned = page.getByTestId('index-rescanned')
  await expect(rescanned).toContainText(
    `The sidecar index does not match the file (chunk 0's header at byte ${exp.scan.index.offset[0]?.toLocaleString('en-US') ?? ''} says nbytes`,
  )
  await expect(rescanned).toContainText('so it was dropped and the file was scanned instead.')
  const status = page.getByTestId('index-status')
  await expect(status).toHaveAttribute('data-source', 'scan')
  await expect(status).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))
  await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
  const last = exp.records - 1
  await goToLast(page, last)
  await expect(recordRow(page, last)).toContainText(must(exp.record(last).umi))
  await shoot(page, 'rescanned')
})

test('a damaged file whose sidecar verdict was rewritten to clean: "Not checked here" and the check offered; the check finds the damage', async ({
  page,
}) => {
  const { bytes } = await withBadReference(new Uint8Array(readFileSync(PATH)), 2)
  const known = sidecarOf(bytes, 'damaged.rad')
  expect(known.verdict?.status).toBe('damaged')
  const clean = {
    status: 'clean' as const,
    alignments: known.verdict?.alignments,
    issues: [],
    damagedChunks: [],
    error: undefined,
  }
  await dropWith(page, bytes, craft(known, { verdict: clean }))
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'sidecar')
  const panel = page.getByTestId('integrity-panel')
  await expect(panel).toHaveAttribute('data-status', 'unchecked')
  await expect(page.getByTestId('integrity-status')).toHaveText('Not checked here')
  await expect(panel).toContainText(
    'The sidecar index (.rdx) records this file as clean, but its 18,949 records were not checked in this page.',
  )
  await expect(page.getByTestId('check-records')).toBeVisible()
  await shoot(page, 'unchecked-sidecar')
  await page.getByTestId('check-records').click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(panel).toHaveAttribute('data-status', 'damaged')
  await expect(page.getByTestId('integrity-status')).toHaveText('Damaged')
  await expect(page.getByTestId('check-records')).toHaveCount(0)
})

test('a true sidecar is not "Clean" either until checked; the check says "Clean"', async ({ page }) => {
  const bytes = new Uint8Array(readFileSync(PATH))
  const known = sidecarOf(bytes, 'true.rad')
  await dropWith(page, bytes, craft(known, {}))
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'unchecked')
  await page.getByTestId('check-records').click()
  await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
  await expect(page.getByTestId('index-rescanned')).toHaveCount(0)
})

/** Opens a local file and waits until its index and statistics are kept in the cache. */
async function openAndKeep(page: Page, path: string): Promise<void> {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
}

test('reopened from the cache: "Not checked here" with the check offered; the check says "Clean"', async ({ page }) => {
  const path = tmp.write('cached.rad', new Uint8Array(readFileSync(PATH)))
  await openAndKeep(page, path)
  await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'cache')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'unchecked')
  await expect(page.getByTestId('integrity-panel')).toContainText(
    'The index cached in this browser records this file as clean',
  )
  await shoot(page, 'unchecked-cache')
  await page.getByTestId('check-records').click()
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
})

/**
 * A copy of `original` with one alignment's reference id set to ref_count (one past the last), the
 * first whose field lies inside a block the content sample reads (as withBadReference, helpers.ts).
 */
async function damagedInSample(original: Uint8Array): Promise<Uint8Array> {
  const blocks = sampleBlocks(original.length)
  const inSample = (at: number): boolean => blocks.some(([start, length]) => at >= start && at + 4 <= start + length)
  const { prelude, scan } = await expectedOf(original)
  const layout = recordLayout(prelude)
  const ref = must(makeCheckPlan(prelude, inferSemantics(prelude)).reference)
  const out = original.slice()
  const view = new DataView(out.buffer)
  for (let k = 0; k < scan.index.count; k++) {
    let at = must(scan.index.offset[k]) + CHUNK_HEADER_BYTES
    for (let r = 0; r < must(scan.index.nrec[k]); r++) {
      const naln = view.getUint32(at, true)
      for (let a = 0; a < naln; a++) {
        const field = at + 4 + layout.readStride + a * layout.alnStride + ref.delta
        if (!inSample(field)) continue
        view.setUint32(field, ((view.getUint32(field, true) & ~ref.mask) | prelude.refCount) >>> 0, true)
        return out
      }
      at += 4 + layout.readStride + naln * layout.alnStride
    }
  }
  throw new Error('no alignment lies inside a sampled block')
}

test('a file edited in place with its modification time restored is not reopened from the cache', async ({ page }) => {
  const original = new Uint8Array(readFileSync(PATH))
  const path = tmp.write('edited.rad', original)
  // Whole seconds, so the time restored is exactly the one the browser saw (File.lastModified).
  const when = new Date('2026-01-02T03:04:05Z')
  utimesSync(path, when, when)
  await openAndKeep(page, path)
  copyFileSync(tmp.write('damaged-copy.rad', await damagedInSample(original)), path)
  utimesSync(path, when, when)
  expect(statSync(path).mtimeMs).toBe(when.getTime())
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
  await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'damaged')
})

test('an exception while rendering shows a message, not an empty page; Try again recovers', async ({ page }) => {
  const exp = await expectedOfFile(PATH)
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(PATH)
  await expect(page.getByTestId('index-status')).toHaveAttribute('data-state', 'done')
  await expect(page.getByTestId('stats-panel')).toHaveAttribute('data-state', 'done', { timeout: 30_000 })
  // Every count on the page goes through one Intl.NumberFormat (format.ts): make it throw.
  await page.evaluate(() => {
    const proto = Intl.NumberFormat.prototype
    const saved = Object.getOwnPropertyDescriptor(proto, 'format')
    ;(window as unknown as { savedFormat: PropertyDescriptor | undefined }).savedFormat = saved
    Object.defineProperty(proto, 'format', {
      configurable: true,
      get() {
        throw new Error('a formatter failed on purpose')
      },
    })
  })
  // The next render that formats a count throws (a resize re-renders the table, the rows arriving too).
  await page.setViewportSize({ width: 1000, height: 700 })
  const failed = page.getByTestId('render-failed')
  await expect(failed).toBeVisible()
  await expect(failed).toContainText('Something went wrong while showing this file: a formatter failed on purpose.')
  await expect(failed).toContainText('The rest of the page still works.')
  // Not an empty page: the top bar is there to open another file.
  await expect(page.getByTestId('file-input')).toBeAttached()
  await expect(page.getByRole('banner')).toBeVisible()
  await shoot(page, 'render-failed')
  await page.evaluate(() => {
    const saved = (window as unknown as { savedFormat: PropertyDescriptor | undefined }).savedFormat
    if (saved) Object.defineProperty(Intl.NumberFormat.prototype, 'format', saved)
  })
  await page.getByTestId('render-retry').click()
  await expect(page.getByTestId('render-failed')).toHaveCount(0)
  await expect(page.getByTestId('stat-records')).toHaveAttribute('data-value', String(exp.records))
})

test('sidecar messages and the unchecked verdict stay in the first screen at 390 px (no overflow)', async ({
  page,
}) => {
  const bytes = new Uint8Array(readFileSync(PATH))
  const known = sidecarOf(bytes, 'narrow.rad')
  await page.setViewportSize({ width: 390, height: 900 })
  await dropWith(page, bytes, craft(known, {}))
  await expect(page.getByTestId('check-records')).toBeVisible()
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
  await expect(page.getByTestId('check-records')).toBeInViewport()
})

test('a URL opened from the sidecar beside it: "Check every record" scans the file without fetching the sidecar again', async ({
  page,
}) => {
  const bytes = new Uint8Array(readFileSync(PATH))
  const rdx = craft(sidecarOf(bytes, 'url.rad'), {})
  const server = await startRangeServer({ '/runs/map.rad': bytes, '/runs/map.rad.rdx': rdx })
  try {
    await page.goto('/')
    await page.getByTestId('open-url').fill(server.url('/runs/map.rad'))
    await page.getByTestId('open-url').press('Enter')
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'sidecar')
    await expect(page.getByTestId('integrity-panel')).toHaveAttribute('data-status', 'unchecked')
    const sidecarAsks = () => server.requests.filter((r) => r.path === '/runs/map.rad.rdx').length
    const before = sidecarAsks()
    await page.getByTestId('check-records').click()
    await expect(page.getByTestId('index-status')).toHaveAttribute('data-source', 'scan')
    await expect(page.getByTestId('integrity-status')).toHaveText('Clean')
    expect(sidecarAsks()).toBe(before)
  } finally {
    await server.close()
  }
})

test('the new messages and the unchecked verdict have no serious or critical axe violation, light and dark', async ({
  page,
}) => {
  const bytes = new Uint8Array(readFileSync(PATH))
  const known = sidecarOf(bytes, 'axe.rad')
  const stdout = execFileSync(process.execPath, ['bin/rad.mjs', 'stats', PATH, '--json'], { encoding: 'utf8' })
  const real = JSON.parse(stdout) as StatsJson
  await dropWith(page, bytes, craft(known, { stats: { json: { ...real, notes: 'none' } } }))
  await expect(page.getByTestId('section-dropped')).toBeVisible()
  await expect(page.getByTestId('check-records')).toBeVisible()
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme })
    await expectAccessible(page, `sidecar claims (${scheme})`, {})
  }
})
