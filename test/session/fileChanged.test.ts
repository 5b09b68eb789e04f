/**
 * A file that changes on disk after it was opened is never called clean
 * (docs/integrity.md): the index worker's scan (scanFile) and the session, in Node,
 * with the real worker APIs on MessageChannels and the file a ChangingFile.
 */
import type { Remote } from 'comlink'
import { afterEach, describe, expect, it } from 'vitest'
import { RadError } from '../../src/rad/errors'
import { RadSession } from '../../src/session'
import type { SessionState } from '../../src/session'
import { makeDecodeApi } from '../../src/workers/decodeApi'
import { makeIndexApi } from '../../src/workers/indexApi'
import type { ScanEvents } from '../../src/workers/protocol'
import { scanFile } from '../../src/workers/scanFile'
import type { ScanSink } from '../../src/workers/scanFile'
import { SC_READS, salmonScRna } from '../helpers/assays'
import { ChangingFile } from '../helpers/changingFile'
import { channelWorker, closeChannelWorkers } from '../helpers/channelWorker'
import { radBytes } from '../helpers/radWriter'

const CHUNKS = 200
const bytes = radBytes(
  salmonScRna(
    Array.from({ length: 2 * CHUNKS }, (_, i) => SC_READS[i % SC_READS.length]!),
    2,
  ),
)

function sink(on: Partial<ScanSink> = {}): ScanSink {
  return { opened: () => undefined, first: () => undefined, index: () => undefined, progress: () => undefined, ...on }
}

describe('scanFile on a file that changes on disk', () => {
  it('unchanged: clean', async () => {
    const summary = await scanFile(new ChangingFile(bytes, { failReads: false }), sink())
    expect(summary).toMatchObject({ status: 'clean', error: undefined, chunks: CHUNKS })
  })

  it('changed after the walk read its last bytes, before the verdict: FILE_CHANGED, no verdict, no issues', async () => {
    const file = new ChangingFile(bytes, { failReads: false })
    const summary = await scanFile(
      file,
      sink({
        progress: (p) => {
          if (p.bytesScanned === p.bytesTotal) file.overwrite(bytes.length - 8, new Uint8Array(8).fill(0xee))
        },
      }),
    )
    expect(summary.error?.code).toBe('FILE_CHANGED')
    expect(summary).toMatchObject({ status: 'incomplete', issues: [], salvage: undefined, chunks: CHUNKS })
  })

  it("reads that fail during the walk (a browser's File changed on disk): READ_FAILED, no verdict", async () => {
    const file = new ChangingFile(bytes, { failReads: true })
    const summary = await scanFile(
      file,
      sink({
        first: () => {
          file.overwrite(100, new Uint8Array(16))
        },
      }),
    )
    expect(summary.error?.code).toBe('READ_FAILED')
    expect(summary).toMatchObject({ status: 'incomplete', issues: [] })
  })
})

const sessions: RadSession[] = []

afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose()
  closeChannelWorkers()
})

/** ScanEvents as the worker calls them: each call answers with a promise. */
type AsyncEvents = {
  [K in keyof ScanEvents]: (...args: Parameters<ScanEvents[K]>) => Promise<Awaited<ReturnType<ScanEvents[K]>>>
}

/** The scan's events, with `onFirst` run as the first screen arrives. */
function hearingFirst(events: Remote<ScanEvents>, onFirst: () => void): AsyncEvents {
  return {
    indexSource: (source, rejected) => events.indexSource(source, rejected),
    opened: (opened) => events.opened(opened),
    first: (index, chunks, convention) => {
      onFirst()
      return events.first(index, chunks, convention)
    },
    index: (added, convention) => events.index(added, convention),
    progress: (p) => events.progress(p),
    cachedIndex: (key) => events.cachedIndex(key),
    cacheRejected: (key, why) => events.cacheRejected(key, why),
  }
}

/** A session whose real index and decode worker APIs read `file`; `onFirst` runs when the first screen arrives. */
function sessionOn(file: ChangingFile, onFirst: () => void = () => undefined): RadSession {
  const index = makeIndexApi(() => Promise.resolve(file))
  const scan = index.scan.bind(index)
  index.scan = (spec, job, events, options) =>
    scan(spec, job, hearingFirst(events as unknown as Remote<ScanEvents>, onFirst), options)
  const decode = makeDecodeApi(() => Promise.resolve(file))
  const session = new RadSession(
    { kind: 'file', file: new File([bytes as Uint8Array<ArrayBuffer>], 'sc.rad') },
    {
      decodeWorkers: 1,
      workers: { index: () => channelWorker(index), decode: () => channelWorker(decode) },
    },
  )
  sessions.push(session)
  return session
}

async function until(what: string, done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

function settled(session: RadSession): () => boolean {
  return () => session.getState().phase === 'done' || session.getState().phase === 'error'
}

describe('RadSession on a file that changes on disk', () => {
  it('the first failed decode read switches the view: changed, cached chunks stale, salvage refused', async () => {
    const file = new ChangingFile(bytes, { failReads: true })
    const session = sessionOn(file)
    await until('the index', settled(session))
    const state = (): SessionState => session.getState()
    expect(state()).toMatchObject({ phase: 'done', changed: undefined })
    expect(session.getChunk(0)).toBeDefined()
    file.delete()
    session.want([150])
    await until('the change', () => state().changed !== undefined)
    expect(state().changed).toMatchObject({ code: 'FILE_CHANGED', message: /changed on disk.*NotReadableError/ })
    // Chunk 0 came from the index worker before the change: no longer shown as current.
    expect(session.getChunk(0)).toBeUndefined()
    expect(session.chunkError(0)).toBe(state().changed)
    expect(session.chunkError(150)).toBe(state().changed)
    await expect(session.passes.saveValidPart()).rejects.toMatchObject({ code: 'FILE_CHANGED' })
  })

  it('a change found by the scan itself ends in the same state, not "done, clean"', async () => {
    const file = new ChangingFile(bytes, { failReads: true })
    const session = sessionOn(file, () => {
      file.truncate(100)
    })
    await until('the index', settled(session))
    const state = session.getState()
    expect(state.changed).toBeInstanceOf(RadError)
    expect(state.changed?.code).toBe('FILE_CHANGED')
    expect(state.summary?.status).not.toBe('clean')
  })

  it('saveValidPart on an unchanged file confirms it first, then gives the file', async () => {
    const file = new ChangingFile(bytes, { failReads: true })
    const session = sessionOn(file)
    await until('the index', settled(session))
    // A clean file has no salvage plan: the recheck passes, and there is nothing to save.
    await expect(session.passes.saveValidPart()).rejects.toThrow(/no valid part/)
    expect(session.getState().changed).toBeUndefined()
  })
})
