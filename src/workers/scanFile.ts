import { BlobSource } from '../io/blobSource'
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import { walkChunks } from '../io/walkChunks'
import type { ChunkIndex } from '../rad/chunkIndex'
import type { ChunkColumns, NbytesConvention } from '../rad/types'
import { dropFirst, readFirstChunks } from './firstChunks'
import type { OpenedFile, ScanProgress, ScanSummary } from './protocol'
import { chunkBuffers, columnBuffersOfIndex } from './transfer'

/** The index worker's callbacks as it sees them: each call may return a promise. */
export interface ScanSink {
  opened(file: OpenedFile): unknown
  first(index: ChunkIndex, chunks: ChunkColumns[], convention: NbytesConvention, transfer: ArrayBuffer[]): unknown
  index(added: ChunkIndex, convention: NbytesConvention, transfer: ArrayBuffer[]): unknown
  progress(p: ScanProgress): unknown
}

function isAbort(e: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (e instanceof DOMException && e.name === 'AbortError')
}

function cancelled(started: number): ScanSummary {
  return {
    chunks: 0,
    records: 0,
    convention: 'header-inclusive',
    endOffset: 0,
    error: undefined,
    warnings: [],
    cancelled: true,
    elapsedMs: Date.now() - started,
  }
}

/**
 * The index worker's body (ARCHITECTURE §5.3), free of Comlink so it can run
 * anywhere: reads the prelude and reports it, sends the first screen of
 * decoded records (readFirstChunks), then walks every chunk header, streaming
 * index slices and ~10 Hz progress to `sink`. Prelude problems throw; chunk
 * problems end up in the summary, with every good chunk before them already
 * reported. Waits until the sink has taken every message before returning, so
 * the summary never overtakes the last index slice.
 */
export async function scanFile(file: Blob | ByteSource, sink: ScanSink, signal?: AbortSignal): Promise<ScanSummary> {
  const started = Date.now()
  // walkChunks streams big blocks with several reads in flight itself (issue 4).
  const pending: unknown[] = []
  try {
    const opened = await openRad(file instanceof Blob ? new BlobSource(file) : file, signal)
    const { source, prelude } = opened
    pending.push(
      sink.opened({ prelude, container: opened.container, fileSize: opened.fileSize, sourceSize: source.size }),
    )
    const first = await readFirstChunks(source, prelude, signal)
    let skip = 0
    if (first) {
      skip = first.index.count
      const buffers = [...columnBuffersOfIndex(first.index), ...chunkBuffers(first.columns)]
      pending.push(sink.first(first.index, first.columns, first.convention, buffers))
    }
    const result = await walkChunks(source, prelude, {
      signal,
      progressIntervalMs: 100,
      onIndex: (added, convention) => {
        // The first chunks were sent already: pass on only what is new.
        const cut = Math.min(skip, added.count)
        skip -= cut
        if (cut === added.count) return
        const slice = cut > 0 ? dropFirst(added, cut) : added
        pending.push(sink.index(slice, convention, columnBuffersOfIndex(slice)))
      },
      onProgress: (p) => pending.push(sink.progress(p)),
    })
    await Promise.all(pending)
    return {
      chunks: result.index.count,
      records: result.records,
      convention: result.convention,
      endOffset: result.endOffset,
      error: result.error,
      warnings: result.warnings,
      cancelled: false,
      elapsedMs: Date.now() - started,
    }
  } catch (e) {
    if (!isAbort(e, signal)) throw e
    await Promise.all(pending)
    return cancelled(started)
  }
}
