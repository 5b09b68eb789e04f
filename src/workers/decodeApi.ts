/**
 * A decode worker's work (docs/architecture.md §2): decode batches of chunks for the table, match
 * filters, and run the statistics pass (statsWorker.ts). decode.worker.ts is its one-line entry.
 */
import { transfer } from 'comlink'
import type { ByteSource } from '../io/byteSource'
import { confirmUnchanged } from '../io/fileFingerprint'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import type { SourceSpec } from '../io/sourceSpec'
import { decodeBatch } from './decodeBatch'
import { makeDecoder } from './walkBatch'
import type { Decoder } from './walkBatch'
import { filterBatch } from './filterBatch'
import type { DecodeWorkerApi } from './protocol'
import { statsMethods } from './statsWorker'
import { chunkBuffers } from './transfer'

/**
 * A decode worker's API (decode.worker.ts exposes one): open() opens the source (`open`, the real
 * one by default, so tests run this very code on MessageChannels); decode, filter and the
 * statistics pass read from it.
 */
export function makeDecodeApi(open: (spec: SourceSpec) => Promise<ByteSource> = openByteSource): DecodeWorkerApi {
  let ready: Promise<Decoder> | undefined
  /** The file itself (not the unwrapped .sz stream): what recheck() reads. */
  let raw: ByteSource | undefined
  return {
    open(spec, prelude, container, frames) {
      ready = (async () => {
        const file = await open(spec)
        raw = file
        return makeDecoder(await radStreamOf(file, container, frames), prelude)
      })()
      return ready.then(() => undefined)
    },
    async decode(batch, convention, spare) {
      if (!ready) throw new Error('internal: decode worker used before open()')
      const decoded = await decodeBatch(await ready, batch, convention, spare)
      return transfer(decoded, chunkBuffers(decoded.columns))
    },
    async filter(batch, convention, job) {
      if (!ready) throw new Error('internal: decode worker used before open()')
      const found = await filterBatch(await ready, batch, convention, job)
      return transfer(found, [found.chunks.buffer, found.counts.buffer, found.whole.buffer, found.records.buffer])
    },
    async recheck(fingerprint) {
      await ready
      if (!raw) throw new Error('internal: decode worker used before open()')
      await confirmUnchanged(raw, fingerprint)
    },
    ...statsMethods(() => ready ?? Promise.reject(new Error('internal: decode worker used before open()'))),
  }
}
