import { MessageChannel } from 'node:worker_threads'
import { expose } from 'comlink'
import type { Endpoint } from 'comlink'

/** A Worker as far as Comlink and our clients can tell: `api` served on a MessageChannel, in this thread. */
export type ChannelWorker = Worker & { terminated: boolean }

const open = new Set<ChannelWorker>()

/** Serves `api` (a worker entry's body) on a MessageChannel; terminate() closes the channel. */
export function channelWorker(api: object): ChannelWorker {
  const { port1, port2 } = new MessageChannel()
  expose(api, port2 as unknown as Endpoint)
  const worker = port1 as unknown as ChannelWorker
  worker.terminated = false
  worker.terminate = () => {
    worker.terminated = true
    open.delete(worker)
    port1.close()
    port2.close()
  }
  open.add(worker)
  return worker
}

/** Terminates every channel worker still open (for afterEach). */
export function closeChannelWorkers(): void {
  for (const worker of [...open]) worker.terminate()
}
