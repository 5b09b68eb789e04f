// Thin Comlink entry of a decode worker: the work is decodeBatch().
import { expose, transfer } from 'comlink'
import './comlinkErrors'
import type { ByteSource } from '../io/byteSource'
import { confirmUnchanged } from '../io/fileFingerprint'
import { radStreamOf } from '../io/readPrelude'
import { loadWasmCodecs } from '../io/codecWasm'
import { openByteSource } from '../io/sourceSpec'
import { decodeBatch, makeDecoder } from './decodeBatch'
import type { Decoder } from './decodeBatch'
import { filterBatch } from './filterBatch'
import type { DecodeWorkerApi } from './protocol'
import { statsMethods } from './statsWorker'
import { chunkBuffers } from './transfer'

let ready: Promise<Decoder> | undefined
/** The file itself (not the unwrapped .sz stream): what recheck() reads. */
let raw: ByteSource | undefined

const api: DecodeWorkerApi = {
  open(spec, prelude, container, frames) {
    ready = (async () => {
      const file = await openByteSource(spec)
      raw = file
      return makeDecoder(await radStreamOf(file, container, frames), prelude)
    })()
    return ready.then(() => undefined)
  },
  async decode(batch, convention, spare) {
    if (!ready) throw new Error('internal: decode worker used before open()')
    const chunks = await decodeBatch(await ready, batch, convention, spare)
    return transfer(chunks, chunkBuffers(chunks))
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

// zstd in wasm (ADR 0010); chunks decoded before it is ready use fzstd, which decodes them the same.
void loadWasmCodecs()
expose(api)
