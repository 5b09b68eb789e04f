// Thin Comlink entry of the export worker (one per export; the page terminates it to cancel): the work is runExportJob().
import { expose, transfer } from 'comlink'
import './comlinkErrors'
import { radStreamOf } from '../io/readPrelude'
import { openByteSource } from '../io/sourceSpec'
import type { ByteSink } from '../rad/subsetWriter'
import { runExportJob } from './exportJob'
import type { ExportWorkerApi } from './protocol'

/** Progress goes to the page at most this often (a message per chunk would flood it on million-chunk files). */
const PROGRESS_EVERY_MS = 100

/** Bytes that own their whole buffer, so they can be transferred without taking a view's neighbours along. */
function owned(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
  return whole && bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : bytes.slice()
}

const api: ExportWorkerApi = {
  async run(spec, job, sink, onProgress) {
    const file = await openByteSource(spec)
    const source = await radStreamOf(file, job.container, job.frames)
    const remote: ByteSink = {
      write: (bytes) => {
        const b = owned(bytes)
        return sink.write(transfer(b, [b.buffer]))
      },
      patch: (position, bytes) => sink.patch(position, bytes.slice()),
    }
    let last = 0
    return runExportJob(job, source, remote, (visited, total) => {
      const now = performance.now()
      if (now - last < PROGRESS_EVERY_MS && visited !== total) return
      last = now
      onProgress(visited, total)
    })
  },
}

expose(api)
