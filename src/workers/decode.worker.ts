// Thin Comlink entry of a decode worker: the work is decodeBatch().
import { expose, transfer } from 'comlink'
import './comlinkErrors'
import { BlobSource } from '../io/blobSource'
import { confirmUnchanged } from '../io/fileFingerprint'
import { openSource } from '../io/readPrelude'
import { decodeBatch, makeDecoder } from './decodeBatch'
import type { Decoder } from './decodeBatch'
import type { DecodeWorkerApi } from './decodeSlots'
import { statsMethods } from './statsWorker'
import { chunkBuffers } from './transfer'

let ready: Promise<Decoder> | undefined
/** The file itself (not the unwrapped .sz stream): what recheck() reads. */
let raw: BlobSource | undefined

const api: DecodeWorkerApi = {
  open(file, prelude, container) {
    ready = (async () => {
      const blob = new BlobSource(file)
      raw = blob
      // A .sz file is unwrapped again here: offsets in the index are positions in the RAD stream.
      const source = container === 'snappy-framed' ? (await openSource(blob)).source : blob
      return makeDecoder(source, prelude)
    })()
    return ready.then(() => undefined)
  },
  async decode(batch, convention, spare) {
    if (!ready) throw new Error('internal: decode worker used before open()')
    const chunks = await decodeBatch(await ready, batch, convention, spare)
    return transfer(chunks, chunkBuffers(chunks))
  },
  async recheck(fingerprint) {
    await ready
    if (!raw) throw new Error('internal: decode worker used before open()')
    await confirmUnchanged(raw, fingerprint)
  },
  ...statsMethods(() => ready ?? Promise.reject(new Error('internal: decode worker used before open()'))),
}

expose(api)
