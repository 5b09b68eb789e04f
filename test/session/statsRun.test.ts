/**
 * StatsRun (statsRun.ts) with a restored report: the per-barcode answers count every record
 * behind it, once, with the count's progress in the view, and a cancelled count runs again when
 * asked again. Real statistics methods on MessageChannels, the salmon fixture.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { RadError } from '../../src/rad/errors'
import { DecodePool } from '../../src/session/rows/decodePool'
import { StatsRun } from '../../src/session/passes/statsRun'
import type { StatsView } from '../../src/session/passes/statsRun'
import { IndexStore } from '../../src/session/open/indexStore'
import { file, prelude, requests } from '../helpers/salmonChunks'
import { statsWorker } from '../helpers/statsWorker'

const pools: DecodePool[] = []
afterEach(() => {
  for (const pool of pools.splice(0)) pool.dispose()
})

function statsRun(): { run: StatsRun; views: StatsView[] } {
  const pool = new DecodePool(
    { kind: 'file', file: new Blob([file]) },
    { size: 2, createWorker: statsWorker, onWorkerFailed: () => undefined },
  )
  pools.push(pool)
  pool.open(prelude, 'none')
  pool.setConvention('header-inclusive')
  const run = new StatsRun(pool, () => undefined)
  const views: StatsView[] = []
  run.subscribe(() => views.push(run.getState()))
  return { run, views }
}

function fixtureIndex(): IndexStore {
  const reqs = requests()
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength)
  const nrec = Uint32Array.from(reqs, (r) => view.getUint32(r.offset + 4, true))
  const firstRecord = new Float64Array(reqs.length)
  for (let k = 1; k < reqs.length; k++) firstRecord[k] = firstRecord[k - 1]! + nrec[k - 1]!
  const index = new IndexStore()
  index.append({
    count: reqs.length,
    offset: Float64Array.from(reqs, (r) => r.offset),
    nbytes: Uint32Array.from(reqs, (r) => r.nbytes),
    nrec,
    firstRecord,
  })
  return index
}

async function counted(index: IndexStore): Promise<{ view: StatsView; tsv: string }> {
  const { run } = statsRun()
  run.start(index)
  await expect.poll(() => run.getState().phase).toBe('done')
  return { view: run.getState(), tsv: await run.tsv() }
}

describe('StatsRun, a restored report', () => {
  it('counts behind the shown report once, showing its progress, and answers as the pass does', async () => {
    const index = fixtureIndex()
    const want = await counted(index)
    const { run, views } = statsRun()
    run.restore(want.view.report!, index, 'sidecar')
    expect(run.getState()).toMatchObject({ phase: 'done', restored: true, totalsMissing: true })
    expect(run.getState().totalsProgress).toBeUndefined()
    expect(await run.tsv()).toBe(want.tsv)
    const during = views.filter((v) => v.totalsProgress !== undefined)
    expect(during.length).toBeGreaterThan(0)
    expect(during.every((v) => v.phase === 'done' && v.report === want.view.report)).toBe(true)
    expect(during.at(-1)?.totalsProgress?.bytes).toBe(during.at(-1)?.totalsProgress?.totalBytes)
    expect(run.getState()).toMatchObject({ totalsMissing: false, totalsProgress: undefined })
    // Asked again: the totals are in the workers, nothing is counted again.
    const seen = views.length
    await run.cutoffs(10, undefined)
    expect(views.slice(seen).some((v) => v.totalsProgress !== undefined)).toBe(false)
  })

  it('a cancelled count ends the ask with CANCELLED, leaves the report, and runs again at the next ask', async () => {
    const index = fixtureIndex()
    const want = await counted(index)
    const { run } = statsRun()
    run.restore(want.view.report!, index, 'cache')
    const asked = run.tsv()
    expect(run.getState().totalsProgress).toBeDefined()
    run.cancel()
    const e: unknown = await asked.catch((x: unknown) => x)
    expect(e).toBeInstanceOf(RadError)
    expect((e as RadError).code).toBe('CANCELLED')
    expect(run.getState()).toMatchObject({ phase: 'done', totalsMissing: true, totalsProgress: undefined })
    expect(await run.tsv()).toBe(want.tsv)
    expect(run.getState().totalsMissing).toBe(false)
  })
})

describe('StatsRun, a pass the index walk feeds (ADR 0017)', () => {
  /** The salmon fixture's chunks as the walk would feed them: one segment, every chunk. */
  function feedAll(ports: MessagePort[]): void {
    const reqs = requests()
    const first = reqs[0]!
    const last = reqs[reqs.length - 1]!
    const end = last.offset + last.nbytes
    const bytes = file.slice(first.offset, end)
    ports[0]!.postMessage(
      {
        kind: 'bytes',
        buffer: bytes.buffer,
        length: bytes.length,
        segments: [first.offset, bytes.length, 0],
        convention: 'header-inclusive',
      },
      [bytes.buffer],
    )
    for (const port of ports) port.postMessage({ kind: 'end' })
  }

  it('counts what the walk fed, reads the rest, and equals the pass that reads every chunk', async () => {
    const index = fixtureIndex()
    const { view: want } = await counted(index)
    const { run } = statsRun()
    const walk = run.feedChannels(2)
    run.startFed(file.length, () => undefined)
    expect(run.getState().phase).toBe('running')
    feedAll(walk)
    const reqs = requests()
    const rest = {
      convention: 'header-inclusive' as const,
      reqs: [],
      totalChunks: reqs.length,
      totalBytes: reqs.reduce((s, r) => s + r.nbytes, 0),
    }
    expect(run.walkEnded(rest)).toBe('taken')
    await expect.poll(() => run.getState().phase, { timeout: 60_000 }).toBe('done')
    expect(run.getState().report?.json).toEqual(want.report?.json)
    expect(run.getState().progress?.chunks).toBe(reqs.length)
  })

  it('cancelled during the walk: it stays cancelled; Run again waits for the walk, then reads the whole index', async () => {
    const index = fixtureIndex()
    const { view: want } = await counted(index)
    const { run } = statsRun()
    const walk = run.feedChannels(2)
    let gone = 0
    run.startFed(file.length, () => gone++)
    run.cancel()
    await expect.poll(() => run.getState().cancelled, { timeout: 60_000 }).toBe(true)
    expect(gone).toBe(1)
    // Run again while the walk is still under way: nothing runs over part of the file.
    run.start(new IndexStore())
    expect(run.getState().phase).toBe('idle')
    for (const port of walk) port.close()
    const rest = { convention: 'header-inclusive' as const, reqs: requests(), totalChunks: 4, totalBytes: 0 }
    // The walk's end: no fed pass takes it, so the session starts the pass (statsOnOpen).
    expect(run.walkEnded(rest)).toBe('none')
    run.start(index)
    await expect.poll(() => run.getState().phase, { timeout: 60_000 }).toBe('done')
    expect(run.getState().report?.json).toEqual(want.report?.json)
  })

  it('a walk that ends with no pass to follow (cancelled, a known index) leaves the view idle', () => {
    const { run } = statsRun()
    run.feedChannels(2)
    run.startFed(file.length, () => undefined)
    run.dropFed()
    expect(run.getState().phase).toBe('idle')
    // Channels made but no pass begun (the index came from the cache): the pass starts as before.
    run.feedChannels(2)
    const rest = { convention: 'header-inclusive' as const, reqs: requests(), totalChunks: 4, totalBytes: 0 }
    expect(run.walkEnded(rest)).toBe('none')
  })
})
