import { BlobSource } from '../io/blobSource'
import type { ByteSource } from '../io/byteSource'
import { openRad } from '../io/openRad'
import { walkChunks } from '../io/walkChunks'
import { columnBuffersOfIndex } from './transfer'
import type { OpenedFile, ScanProgress, ScanSummary } from './protocol'
import type { ChunkIndex } from '../rad/chunkIndex'
import type { NbytesConvention } from '../rad/types'
import { ReadAheadSource } from './readAhead'

/** The index worker's callbacks as it sees them: each call may return a promise. */
export interface ScanSink {
  opened(file: OpenedFile): unknown
  index(added: ChunkIndex, convention: NbytesConvention, transfer: ArrayBuffer[]): unknown
  progress(p: ScanProgress): unknown
}

/** Walk block size: small next to the read-ahead block, so most reads are zero-copy views. */
const WALK_BLOCK = 4 << 20

function isAbort(e: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (e instanceof DOMException && e.name === 'AbortError')
}

/**
 * The index worker's body (ARCHITECTURE §5.3), free of Comlink so it can run
 * anywhere: reads the prelude, reports it, then walks every chunk header,
 * streaming index slices and ~10 Hz progress to `sink`. Prelude problems
 * throw; chunk problems end up in the summary with every good chunk before
 * them already reported. Waits until the sink has taken every message before
 * it returns, so the summary never overtakes the last index slice.
 */
export async function scanFile(file: Blob | ByteSource, sink: ScanSink, signal?: AbortSignal): Promise<ScanSummary> {
  const started = Date.now()
  const raw = file instanceof Blob ? new BlobSource(file) : file
  const source = new ReadAheadSource(raw)
  const pending: unknown[] = []
  const opened = await openRad(source, signal)
  pending.push(
    sink.opened({
      prelude: opened.prelude,
      container: opened.container,
      fileSize: opened.fileSize,
      sourceSize: opened.source.size,
    }),
  )
  try {
    const result = await walkChunks(opened.source, opened.prelude, {
      signal,
      blockSize: WALK_BLOCK,
      progressIntervalMs: 100,
      onIndex: (added, convention) => pending.push(sink.index(added, convention, columnBuffersOfIndex(added))),
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
}
