/**
 * The page's export job (workers/exportJob.ts) on a real salmon file: walking
 * the known index gives the same bytes as the CLI's scan from chunk 0; the
 * cells above a cut-off are exactly the records of the barcodes with at
 * least that many records.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BytesSource } from '../../src/io/byteSource'
import { exportSelection } from '../../src/io/exportSelection'
import type { ExportFormat } from '../../src/io/exportSelection'
import { openRad } from '../../src/io/openRad'
import { scanChunks } from '../../src/io/scanChunks'
import { decodeChunk } from '../../src/rad/decode/decodeChunk'
import { compileFilter, matchRecords } from '../../src/rad/filter/recordFilter'
import { inferSemantics } from '../../src/rad/prelude/semantics'
import { barcodeRuns, barcodesAtLeast, createStatsAccumulator } from '../../src/rad/stats'
import { runExportJob } from '../../src/workers/exportJob'
import type { ExportJob, ExportPick } from '../../src/workers/protocol'
import { SALMON_V3 } from '../helpers/fixtures'
import { MemorySink } from '../helpers/memorySink'
import { flatRecords, readRad } from '../helpers/read'

const file = new Uint8Array(readFileSync(SALMON_V3))

async function opened() {
  const { source, prelude, container } = await openRad(new BytesSource(file, 'in.rad'))
  const scan = await scanChunks(source, prelude)
  if (!scan.convention) throw new Error('no convention')
  return { source, prelude, container, index: scan.index, convention: scan.convention }
}

async function runJob(format: ExportFormat, pick: ExportPick): Promise<{ bytes: Uint8Array; records: number }> {
  const o = await opened()
  const job: ExportJob = { format, pick, ...o }
  const sink = new MemorySink()
  const summary = await runExportJob(job, o.source, sink)
  const bytes = sink.bytes()
  if (format === 'rad') expect(summary.bytes).toBe(bytes.length)
  return { bytes, records: summary.records }
}

/** Byte equality without a deep diff of megabytes (toEqual on large typed arrays is slow). */
function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))
}

describe('runExportJob', () => {
  it('writes the same bytes as the CLI walk (no index) for a filter, a chunk range, in every format', async () => {
    const o = await opened()
    const sem = inferSemantics(o.prelude)
    const barcode = flatRecords(await readRad(file)).at(-1)?.record.barcodes[0] ?? ''
    expect(barcode).toMatch(/^[ACGT]+$/)
    const compiled = compileFilter({ barcode }, o.prelude, sem)
    for (const format of ['rad', 'tsv', 'jsonl'] as const) {
      const viaFilter = await runJob(format, { kind: 'filter', filter: { barcode } })
      const cli = new MemorySink()
      await exportSelection(format, o.source, o.prelude, { match: (c) => matchRecords(c, compiled) }, cli)
      expect(same(viaFilter.bytes, cli.bytes())).toBe(true)
      expect(viaFilter.records).toBeGreaterThan(0)

      const last = Math.min(2, o.index.count - 1)
      const viaChunks = await runJob(format, { kind: 'chunks', from: 1, to: last })
      const cliChunks = new MemorySink()
      await exportSelection(format, o.source, o.prelude, { chunks: [1, last] }, cliChunks)
      expect(same(viaChunks.bytes, cliChunks.bytes())).toBe(true)
    }
  })

  it('keeps exactly the records of the barcodes at or above a cut-off', async () => {
    const o = await opened()
    const sem = inferSemantics(o.prelude)
    const acc = createStatsAccumulator(o.prelude, sem)
    await scanChunks(o.source, o.prelude, {
      onChunk: (bytes, offset, k, convention) => {
        acc.addChunk(decodeChunk(bytes, offset, k, o.prelude, convention))
        return false
      },
    })
    const state = acc.exportState()
    const runs = barcodeRuns(state)
    const desc = [...runs.values].flatMap((v, i) => Array.from({ length: runs.lengths[i]! }, () => v))
    const minCount = desc[Math.min(9, desc.length - 1)] ?? 1
    const set = barcodesAtLeast(state, minCount)
    const kept = Array.from(desc).filter((n) => n >= minCount)
    expect(set.size).toBe(kept.length)
    const out = await runJob('rad', { kind: 'cells', barcodes: set })
    expect(out.records).toBe(kept.reduce((a, b) => a + b, 0))
    // Every record of the subset has a barcode of the set, and the subset reads back clean.
    const read = await readRad(out.bytes)
    expect(read.scan.issues.filter((i) => i.severity !== 'info')).toEqual([])
    const counts = new Map<string, number>()
    for (const { record } of flatRecords(await readRad(file))) {
      const bc = record.barcodes[0] ?? ''
      counts.set(bc, (counts.get(bc) ?? 0) + 1)
    }
    for (const { record } of flatRecords(read)) {
      expect(counts.get(record.barcodes[0] ?? '') ?? 0).toBeGreaterThanOrEqual(minCount)
    }
  })

  it('an empty barcode set keeps nothing', async () => {
    const out = await runJob('jsonl', { kind: 'cells', barcodes: { keyWords: 2, size: 0, keys: new Uint32Array(0) } })
    expect(out.records).toBe(0)
    expect(out.bytes.length).toBe(0)
  })
})

describe('runExportJob on a damaged chunk', () => {
  it('stops with the chunk error instead of leaving its records out', async () => {
    const o = await opened()
    // Chunk 1's record count, as the index knew it, no longer matches its bytes.
    const damaged = file.slice()
    const at = (o.index.offset[1] ?? 0) + 4
    new DataView(damaged.buffer).setUint32(at, (o.index.nrec[1] ?? 0) + 1, true)
    const job: ExportJob = { format: 'rad', pick: { kind: 'chunks', from: 0, to: 2 }, ...o }
    const sink = new MemorySink()
    await expect(runExportJob(job, new BytesSource(damaged, 'damaged.rad'), sink)).rejects.toThrow(/chunk 1/)
  })
})
