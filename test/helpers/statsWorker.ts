/** A decode worker with the statistics methods of decode.worker.ts, on a MessageChannel in this thread. */
import { MessageChannel } from 'node:worker_threads'
import { expose } from 'comlink'
import type { Endpoint } from 'comlink'
import { BlobSource } from '../../src/io/blobSource'
import type { SourceSpec } from '../../src/io/sourceSpec'
import { makeDecoder } from '../../src/workers/walkBatch'
import type { Decoder } from '../../src/workers/walkBatch'
import { statsMethods } from '../../src/workers/statsWorker'
import { prelude as salmonPrelude } from './salmonChunks'
import type { Prelude } from '../../src/rad/types'

/** A decode worker on a MessageChannel with the statistics methods of decode.worker.ts. */
export function statsWorker(prelude: Prelude = salmonPrelude): Worker {
  const { port1, port2 } = new MessageChannel()
  let decoder: Decoder | undefined
  expose(
    {
      open(spec: SourceSpec) {
        if (spec.kind !== 'file') throw new Error('a file, in this test')
        decoder = makeDecoder(new BlobSource(spec.file), prelude)
      },
      ...statsMethods(() => (decoder ? Promise.resolve(decoder) : Promise.reject(new Error('open first')))),
    },
    port2 as unknown as Endpoint,
  )
  const worker = port1 as unknown as Worker & { terminate(): void }
  worker.terminate = () => {
    port1.close()
  }
  return worker
}
