/**
 * Shared by the browser tests: expected values come from the format core run
 * in Node on the same bytes (never hand-copied), and test files are generated
 * here from the real salmon fixtures.
 */
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from '@playwright/test'
import type { Page } from '@playwright/test'
import { BytesSource } from '../src/io/byteSource'
import { openRad } from '../src/io/openRad'
import { planSalvage } from '../src/io/salvage'
import type { SalvagePlan } from '../src/io/salvage'
import { scanChunks } from '../src/io/scanChunks'
import type { ScanResult } from '../src/io/scanChunks'
import { CHUNK_HEADER_BYTES, chunkSpan, recordLayout } from '../src/rad/decode/chunk'
import { decodeChunk } from '../src/rad/decode/decodeChunk'
import { alignmentView, recordView } from '../src/rad/text/display'
import { RadError } from '../src/rad/errors'
import type { RadErrorData } from '../src/rad/errors'
import { integrityStatus, issueFromError } from '../src/rad/checks/integrity'
import type { IntegrityIssue, IntegrityStatus } from '../src/rad/checks/integrity'
import { inferSemantics } from '../src/rad/prelude/semantics'
import type { Prelude } from '../src/rad/types'
import { makeCheckPlan } from '../src/rad/checks/valueChecks'

export const SAMPLE = 'public/sample.rad'
export const FIXTURES = 'test/fixtures/salmon'

export interface ExpectedRecord {
  barcodes: string[]
  umi: string | undefined
  alignments: { refName: string; ori: string | undefined }[]
}

/** What the core says about a file: its prelude, its chunk walk, and any record decoded. */
export interface Expected {
  prelude: Prelude
  scan: ScanResult
  records: number
  chunks: number
  record(n: number): ExpectedRecord
}

export async function expectedOf(bytes: Uint8Array, name = 'file.rad'): Promise<Expected> {
  const { source, prelude } = await openRad(new BytesSource(bytes, name))
  const sem = inferSemantics(prelude)
  // The same integrity pass as the index worker's.
  const scan = await scanChunks(source, prelude, { check: makeCheckPlan(prelude, sem) })
  const record = (n: number): ExpectedRecord => {
    let k = scan.index.count - 1
    while (k > 0 && (scan.index.firstRecord[k] ?? 0) > n) k--
    const offset = scan.index.offset[k] ?? 0
    const span = chunkSpan(scan.index.nbytes[k] ?? 0, scan.convention)
    const cols = decodeChunk(bytes.subarray(offset, offset + span), offset, k, prelude, scan.convention)
    const r = n - (scan.index.firstRecord[k] ?? 0)
    const view = recordView(cols, r, prelude, sem)
    const alignments = []
    for (let a = 0; a < view.naln; a++) {
      const aln = alignmentView(cols, (cols.alnStart[r] ?? 0) + a, prelude, sem, view.mappingType)
      alignments.push({ refName: aln.refName, ori: aln.ori })
    }
    return { barcodes: view.barcodes, umi: view.umi, alignments }
  }
  return { prelude, scan, records: scan.records, chunks: scan.index.count, record }
}

export async function expectedOfFile(path: string): Promise<Expected> {
  return expectedOf(new Uint8Array(readFileSync(path)), path)
}

/** The integrity report the core makes of these bytes, as the index worker should (prelude failures too). */
export interface ExpectedIntegrity {
  status: IntegrityStatus
  issues: IntegrityIssue[]
  error: RadErrorData | undefined
  /** What "save the valid part" must write, when the file is damaged. */
  salvage: SalvagePlan | undefined
  /** Chunks and records indexed (0 when the prelude cannot be read). */
  chunks: number
  records: number
}

export async function integrityOf(bytes: Uint8Array, name = 'file.rad'): Promise<ExpectedIntegrity> {
  let opened
  try {
    opened = await openRad(new BytesSource(bytes, name))
  } catch (e) {
    if (!(e instanceof RadError)) throw e
    return {
      status: 'unreadable',
      issues: [issueFromError(e)],
      error: e.toData(),
      salvage: undefined,
      chunks: 0,
      records: 0,
    }
  }
  const { source, prelude, container } = opened
  const scan = await scanChunks(source, prelude, { check: makeCheckPlan(prelude, inferSemantics(prelude)) })
  const status = integrityStatus(scan.issues, true)
  const salvage =
    // An unknown codec has nothing to salvage (planSalvage refuses), as the page's offer does.
    status === 'damaged' && container === 'none' && prelude.codec !== 'unknown'
      ? await planSalvage(source, prelude, scan.index, scan.convention, scan.issues, scan.damagedChunks)
      : undefined
  return { status, issues: scan.issues, error: scan.error, salvage, chunks: scan.index.count, records: scan.records }
}

/**
 * A copy of an uncompressed, fixed-width file (the salmon fixtures) whose
 * first alignment in chunk `k` names reference ref_count — one past the last
 * (docs/format.md §7.1: compressed_ori_refid keeps the id in its low bits).
 * Returns the copy and the byte offset of the damaged record.
 */
export async function withBadReference(bytes: Uint8Array, k: number): Promise<{ bytes: Uint8Array; record: number }> {
  const { prelude, scan } = await expectedOf(bytes)
  const layout = recordLayout(prelude)
  const ref = makeCheckPlan(prelude, inferSemantics(prelude)).reference
  if (!ref || layout.readStride < 0 || layout.alnStride <= 0 || prelude.codec !== 'none') {
    throw new Error('withBadReference needs an uncompressed file of fixed-width records with a reference tag')
  }
  const out = bytes.slice()
  const view = new DataView(out.buffer)
  let at = (scan.index.offset[k] ?? 0) + CHUNK_HEADER_BYTES
  for (let r = 0; r < (scan.index.nrec[k] ?? 0); r++) {
    const naln = view.getUint32(at, true)
    if (naln > 0) {
      const field = at + 4 + layout.readStride + ref.delta
      const old = view.getUint32(field, true)
      view.setUint32(field, ((old & ~ref.mask) | prelude.refCount) >>> 0, true)
      return { bytes: out, record: at }
    }
    at += 4 + layout.readStride + naln * layout.alnStride
  }
  throw new Error(`chunk ${String(k)} has no alignment to damage`)
}

/** The panel shows the core's verdict and every issue with its kind, chunk, byte offset and message. */
export async function expectPanel(page: Page, want: ExpectedIntegrity): Promise<void> {
  const panel = page.getByTestId('integrity-panel')
  await expect(panel).toHaveAttribute('data-status', want.status)
  const items = panel.getByTestId('integrity-issue')
  await expect(items).toHaveCount(want.issues.length)
  for (const [i, issue] of want.issues.entries()) {
    const item = items.nth(i)
    await expect(item).toHaveAttribute('data-kind', issue.kind)
    await expect(item).toHaveAttribute('data-severity', issue.severity)
    if (issue.chunk === undefined) await expect(item).not.toHaveAttribute('data-chunk')
    else await expect(item).toHaveAttribute('data-chunk', String(issue.chunk))
    if (issue.offset === undefined) {
      await expect(item).not.toHaveAttribute('data-offset')
    } else {
      await expect(item).toHaveAttribute('data-offset', String(issue.offset))
      await expect(item).toContainText(`byte ${fmt(issue.offset)}`)
    }
    if (issue.chunk !== undefined) await expect(item).toContainText(`chunk ${fmt(issue.chunk)}`)
    await expect(item.locator('.issue-message')).toHaveText(issue.message)
  }
}

/** The bytes a salvage plan describes (what the CLI writes), assembled from the input bytes. */
export function salvagedBytes(bytes: Uint8Array, plan: SalvagePlan): Uint8Array {
  const out = new Uint8Array(plan.bytes)
  out.set(plan.head, 0)
  let at = plan.head.length
  for (const [start, end] of plan.ranges) {
    out.set(bytes.subarray(start, end), at)
    at += end - start
  }
  return out
}

/**
 * `value` itself, or an error when it is undefined or null. An expected text made with
 * `x ?? ''` asserts nothing: every row contains '', a "decoding…" placeholder too. Given the
 * real text, `toContainText` waits until the row shows it.
 */
export function must<T>(value: T | null | undefined, what = 'a value the test expects'): T {
  if (value === undefined || value === null) throw new Error(`${what} is ${String(value)}: nothing to assert`)
  return value
}

/** `1234567` → `1,234,567`, as the page prints offsets and counts. */
export function fmt(n: number): string {
  return n.toLocaleString('en-US')
}

export function tempDir(): { dir: string; remove: () => void; write: (name: string, bytes: Uint8Array) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'rad-e2e-'))
  return {
    dir,
    remove: () => {
      rmSync(dir, { recursive: true, force: true })
    },
    /** Writes `bytes` as `name` in the folder; returns its path. */
    write: (name, bytes) => {
      const path = join(dir, name)
      writeFileSync(path, bytes)
      return path
    },
  }
}

/** Opens the file at `path` through the start page's file input. */
export async function openPath(page: Page, path: string): Promise<void> {
  await page.goto('/')
  await page.getByTestId('file-input').setInputFiles(path)
}

/**
 * A valid, big RAD file: the sample's prelude with num_chunks rewritten,
 * followed by its chunks repeated `copies` times (docs/format.md §1.3: the u64
 * num_chunks field sits right before the tag sections).
 */
export async function writeRepeatedSample(
  path: string,
  copies: number,
): Promise<{ chunks: number; records: number; size: number }> {
  const bytes = new Uint8Array(readFileSync(SAMPLE))
  const { prelude, scan } = await expectedOf(bytes)
  const head = bytes.slice(0, prelude.firstChunkOffset)
  new DataView(head.buffer).setBigUint64(prelude.numChunksOffset, BigInt(scan.index.count * copies), true)
  const body = bytes.subarray(prelude.firstChunkOffset, scan.endOffset)
  // Write in ~64 MiB pieces: one buffer holding many copies of the chunks.
  const per = Math.max(1, Math.floor((64 << 20) / body.length))
  const block = new Uint8Array(body.length * per)
  for (let i = 0; i < per; i++) block.set(body, i * body.length)
  const fd = openSync(path, 'w')
  try {
    writeSync(fd, head)
    for (let done = 0; done < copies; done += per) {
      const n = Math.min(per, copies - done)
      writeSync(fd, block, 0, n * body.length)
    }
  } finally {
    closeSync(fd)
  }
  return { chunks: scan.index.count * copies, records: scan.records * copies, size: head.length + body.length * copies }
}

/** Drops a file on the page through a synthetic drop event carrying a real DataTransfer. */
export async function dropFile(page: Page, bytes: Uint8Array, name: string): Promise<void> {
  await page.evaluate(
    ({ b64, name }) => {
      const bin = atob(b64)
      const data = new Uint8Array(bin.length)
      for (let i = 0; i < bin.length; i++) data[i] = bin.charCodeAt(i)
      const dt = new DataTransfer()
      dt.items.add(new File([data], name, { type: 'application/octet-stream' }))
      const target = document.querySelector('[data-testid="drop-zone"]') ?? document.body
      for (const type of ['dragenter', 'dragover', 'drop']) {
        target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }))
      }
    },
    { b64: Buffer.from(bytes).toString('base64'), name },
  )
}

/** The record row for global record `n` (0-based). */
export function recordRow(page: Page, n: number) {
  return page.locator(`[data-testid="record-row"][data-record="${String(n)}"]`)
}

export async function statValue(page: Page, which: 'chunks' | 'records'): Promise<number> {
  return Number(await page.getByTestId(`stat-${which}`).getAttribute('data-value'))
}

/**
 * Starts a clock in the page at the next file input change or drop (or click,
 * for the sample button, which includes fetching the sample), and stops
 * it when record 0 of the *new* file shows decoded text (a 16-nt barcode).
 * Returns a function that resolves to the elapsed milliseconds.
 */
export async function armFirstRowTimer(page: Page, startOnClick = false): Promise<() => Promise<number>> {
  await page.evaluate((startOnClick) => {
    const w = window as unknown as { __firstRow?: Promise<number> }
    const before = document.querySelector('[data-testid="file-view"]')?.getAttribute('data-session') ?? ''
    w.__firstRow = new Promise<number>((resolve) => {
      const start = (): void => {
        const t0 = performance.now()
        const check = (): void => {
          const view = document.querySelector('[data-testid="file-view"]')
          const row = view?.querySelector('[data-testid="record-row"][data-record="0"]')
          const fresh = view !== null && view !== undefined && view.getAttribute('data-session') !== before
          if (fresh && row && /[ACGT]{8}/.test(row.textContent)) resolve(performance.now() - t0)
          else requestAnimationFrame(check)
        }
        check()
      }
      document.addEventListener(startOnClick ? 'click' : 'change', start, { once: true, capture: true })
      window.addEventListener('drop', start, { once: true, capture: true })
    })
  }, startOnClick)
  return () => page.evaluate(() => (window as unknown as { __firstRow: Promise<number> }).__firstRow)
}

/** Prints a measurement in the test output (and keeps it as an annotation). */
export function report(label: string, ms: number): void {
  process.stdout.write(`    ${label}: ${ms.toFixed(0)} ms\n`)
}

/** One axe-core rule violation, as `axe.run` reports it (the fields the tests print). */
export interface AxeViolation {
  id: string
  impact: string | null | undefined
  help: string
  nodes: { target: unknown[]; failureSummary?: string }[]
}

/** Rules an assertion may set aside, each with the reason (printed with the report). */
export type AxeExclusions = Readonly<Record<string, string>>

/** axe-core's browser build (a devDependency; paths are relative to the repository, as SAMPLE's). */
const AXE_SOURCE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8')

/**
 * Runs axe-core (WCAG 2.0–2.2 A/AA and best practices) on the page as it is now, and returns its
 * violations. axe is evaluated through the DevTools protocol, which the page's CSP
 * (script-src 'self', index.html) does not govern, so the page is tested under its real policy.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE)
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }
    ).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }))
  })
}

/**
 * Asserts that axe finds no serious or critical violation on the page, reusable for
 * every view. Every violation is printed, minor ones and `excluded` rules too, so the report
 * stays complete while an excluded rule is fixed elsewhere.
 */
export async function expectAccessible(page: Page, what: string, excluded: AxeExclusions = {}): Promise<void> {
  const violations = await axeViolations(page)
  for (const v of violations) {
    const reason = excluded[v.id]
    const note = reason === undefined ? '' : ` (excluded: ${reason})`
    const where = v.nodes
      .slice(0, 3)
      .map((n) => JSON.stringify(n.target))
      .join(', ')
    process.stdout.write(`    axe ${what}: ${v.id} [${v.impact ?? '?'}] ×${String(v.nodes.length)} ${where}${note}\n`)
  }
  const blocking = violations.filter(
    (v) => (v.impact === 'serious' || v.impact === 'critical') && excluded[v.id] === undefined,
  )
  expect(
    blocking.map((v) => `${v.id}: ${v.help} (${String(v.nodes.length)} nodes)`),
    `${what}: serious or critical axe violations`,
  ).toEqual([])
}

/** Drops several files at once (a synthetic drop carrying a real DataTransfer), in the order given. */
export async function dropFiles(page: Page, files: readonly { name: string; bytes: Uint8Array }[]): Promise<void> {
  await page.evaluate(
    (list) => {
      const dt = new DataTransfer()
      for (const { name, b64 } of list) {
        dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name))
      }
      document.body.dispatchEvent(new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: dt }))
    },
    files.map(({ name, bytes }) => ({ name, b64: Buffer.from(bytes).toString('base64') })),
  )
}

/** What a static host sends for the build's file kinds (other kinds: application/octet-stream). */
const DIST_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html',
  js: 'text/javascript',
  css: 'text/css',
  webmanifest: 'application/manifest+json',
  svg: 'image/svg+xml',
  png: 'image/png',
}

export interface DistServer {
  origin: string
  /** Every path asked, in order. */
  served: string[]
  /** Drops open connections (a browser's keep-alive). */
  dropConnections: () => void
  close: () => Promise<void>
}

/**
 * Serves dist/ under `base` on a random loopback port, as a bare static host (a project's GitHub
 * Pages) would: `base` is index.html, other paths under it are files, anything else is 404.
 */
export async function serveDist(base: string): Promise<DistServer> {
  const served: string[] = []
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? ''
    served.push(path)
    const rel = path === base ? 'index.html' : path.startsWith(base) ? path.slice(base.length) : ''
    if (rel === '' || rel.includes('..')) {
      res.writeHead(404).end()
      return
    }
    try {
      const body = readFileSync(join('dist', rel))
      const type = DIST_TYPES[rel.split('.').pop() ?? ''] ?? 'application/octet-stream'
      res.writeHead(200, { 'Content-Type': type }).end(body)
    } catch {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`
  const close = async (): Promise<void> => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  return {
    origin,
    served,
    dropConnections: () => {
      server.closeAllConnections()
    },
    close,
  }
}

export interface PageFile {
  path: string
  b64: string
}

/**
 * Drops a folder: Chromium gives a dropped folder's item a directory entry
 * (DataTransferItem.webkitGetAsEntry); a DataTransfer built in the page cannot hold one, so the
 * entries are built here with the same shape (name, isFile/isDirectory, file(), createReader()).
 */
export async function dropFolder(page: Page, name: string, files: PageFile[]): Promise<void> {
  await page.evaluate(
    ({ name, files }) => {
      type Node = { name: string; file?: File; children?: Map<string, Node> }
      const root: Node = { name, children: new Map() }
      for (const f of files) {
        const parts = f.path.split('/')
        let dir = root
        for (const part of parts.slice(0, -1)) {
          const kids = dir.children ?? new Map<string, Node>()
          const next = kids.get(part) ?? { name: part, children: new Map() }
          kids.set(part, next)
          dir = next
        }
        const bin = atob(f.b64)
        const data = Uint8Array.from(bin, (c) => c.charCodeAt(0))
        dir.children?.set(parts.at(-1) ?? '', { name: parts.at(-1) ?? '', file: new File([data], parts.at(-1) ?? '') })
      }
      const entry = (node: Node): object =>
        node.file
          ? {
              name: node.name,
              isFile: true,
              isDirectory: false,
              file: (ok: (f: File) => void) => {
                ok(node.file as File)
              },
            }
          : {
              name: node.name,
              isFile: false,
              isDirectory: true,
              createReader: () => {
                let done = false
                return {
                  readEntries: (ok: (e: object[]) => void) => {
                    ok(done ? [] : [...(node.children?.values() ?? [])].map(entry))
                    done = true
                  },
                }
              },
            }
      // What Chromium puts in `files` for a folder: a 4 kB "file" that cannot be read.
      const dt = new DataTransfer()
      dt.items.add(new File([new Uint8Array(4096)], name))
      Object.defineProperty(dt, 'items', { value: [{ kind: 'file', webkitGetAsEntry: () => entry(root) }] })
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: dt }))
      }
    },
    { name, files },
  )
}
